import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { flattenDeepHtml, parseDocument, stripInert } from './dom.js';
import { blockText } from './text.js';

describe('stripInert', () => {
  it('removes scripts, styles, comments and inline SVG, keeps JSON-LD', () => {
    const html =
      '<p>a</p><script>x("</p>")</script><STYLE>p{}</STYLE><!-- c --><svg><text>t</text></svg>' +
      '<script type="application/ld+json">{"a":"<!-- not a comment -->"}</script><p>b</p>';
    expect(stripInert(html)).toBe(
      '<p>a</p><script type="application/ld+json">{"a":"<!-- not a comment -->"}</script><p>b</p>',
    );
  });

  it("keeps React's Suspense boundary comments and no other", () => {
    expect(
      stripInert('<!--$?--><template id="B:0"></template><!--$x--><p>a</p><!--/$--><!--$--><!--$!--><!-- $? -->'),
    ).toBe('<!--$?--><template id="B:0"></template><p>a</p><!--/$--><!--$--><!--$!-->');
  });

  it('lets an unclosed script or comment run to the end, and keeps an unclosed svg', () => {
    expect(stripInert('<p>a</p><script>never closed <p>b</p>')).toBe('<p>a</p>');
    expect(stripInert('<p>a</p><!-- open <p>b</p>')).toBe('<p>a</p>');
    expect(stripInert('<svg><p>a</p>')).toBe('<svg><p>a</p>');
  });

  it('drops a stray <![CDATA[ in HTML up to its first >, as browsers parse a bogus comment', () => {
    expect(stripInert('<p>a</p><![CDATA[\n<div id="x">b</div><p>c</p>')).toBe('<p>a</p>b</div><p>c</p>');
    expect(stripInert('<p>a</p><![CDATA[ never closed')).toBe('<p>a</p>');
  });

  it('stays linear on hostile input', () => {
    // 1.3 MB of unclosed openers: about 0.3 s here alone (2 s seen under a full test run's load);
    // a scan from every opener to the end would take minutes. The bound tells the two apart.
    const hostile = '<script '.repeat(100_000) + '<svg>'.repeat(100_000);
    const started = performance.now();
    stripInert(hostile);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('parseDocument (linkedom)', () => {
  const parse = (html: string): Document => parseDocument(html, 'https://example.com/', 'linkedom').document;

  // patches/linkedom+0.18.12.patch makes each node's listener table on first use (a WeakMap entry
  // and a Map per node was 8% of extraction time and a third of its garbage collection).
  it('still dispatches, bubbles and removes listeners with the listener tables made on first use', () => {
    const doc = parse('<div id="outer"><p id="inner">text</p></div>');
    const outer = doc.getElementById('outer') as Element;
    const inner = doc.getElementById('inner') as Element;
    const seen: string[] = [];
    const onOuter = (event: Event): void => {
      seen.push(`outer:${(event.target as Element).id}`);
    };
    const click = (): Event => new (doc.defaultView as unknown as typeof globalThis).Event('click', { bubbles: true });
    inner.removeEventListener('click', onOuter); // never had a listener: no error
    outer.addEventListener('click', onOuter);
    inner.addEventListener('click', () => seen.push('inner'));
    inner.dispatchEvent(click());
    outer.removeEventListener('click', onOuter);
    inner.dispatchEvent(click());
    expect(seen).toEqual(['inner', 'outer:inner', 'inner']);
  });

  // The same patch lower-cases an HTML element's attribute names, as the HTML tree builder does:
  // linkedom kept `<A HREF>` as `HREF`, so `getAttribute('href')` and `a[href]` found nothing on
  // pages written in upper case (their links were neither followed nor resolved).
  it("reads an HTML element's attribute names in lower case, the first of two that differ in case, SVG's as written", () => {
    const doc = parse(
      '<DIV ID="a" CLASS="Post"><A HREF="../up" Href="second" TITLE="Up">up</A><a href="one" HREF="two">x</a>' +
        '<svg viewBox="0 0 2 2"><path D="M0 0"/></svg></DIV>',
    );
    const div = doc.getElementById('a') as Element;
    expect([div.className, div.querySelectorAll('a[href]').length]).toEqual(['Post', 2]);
    const [up, x] = Array.from(div.querySelectorAll('a'));
    expect([up?.getAttribute('href'), up?.getAttribute('title'), x?.getAttribute('href')]).toEqual([
      '../up',
      'Up',
      'one',
    ]);
    expect(up?.outerHTML).toBe('<a href="../up" title="Up">up</a>');
    expect(div.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 2 2');
  });

  // The same patch upper-cases each tag name once (`tagName`, `nodeName`: Readability asks them of
  // every element many times), compares an all-lower-case name without upper-casing each element
  // in `getElementsByTagName`, and builds `textContent` without an array of pieces.
  it('gives tag names in upper case, finds elements by either case and reads text without comments', () => {
    const doc = parse('<div id="a">one <!-- note --><span>two <b>three</b></span><p>four</p></div><section></section>');
    const div = doc.getElementById('a') as Element;
    expect([
      div.tagName,
      div.nodeName,
      div.querySelector('b')?.tagName,
      doc.querySelector('section')?.nodeName,
    ]).toEqual(['DIV', 'DIV', 'B', 'SECTION']);
    expect(doc.getElementsByTagName('div')).toHaveLength(1);
    expect(doc.getElementsByTagName('DIV')).toHaveLength(1);
    expect(Array.from(div.getElementsByTagName('B'), (b) => b.textContent)).toEqual(['three']);
    expect(div.getElementsByTagName('p')).toHaveLength(1);
    expect(div.textContent).toBe('one two threefour');
    expect(doc.querySelector('section')?.textContent).toBe('');
  });

  // patches/htmlparser2+10.1.0.patch: a link's start tag closes an open link (and the inline
  // elements opened in it), a heading's an open heading, as the HTML tree builder does; linkedom
  // built a link inside a link and a heading inside a heading (`# ## [Titomic](…)` in markdown).
  it('closes an open link at the next link and an open heading at the next heading', () => {
    const body = parse(
      '<p><a href="/one">one <b>bold<a href="/two">two</a> after</p>' +
        '<h1>Title<h2>Part</h2><div><a href="/card"><div>card <a href="/inner">inner</a></div></a></div>',
    ).body;
    expect(body.querySelectorAll('a a')).toHaveLength(1);
    expect(body.querySelector('a a')?.getAttribute('href')).toBe('/inner');
    expect(body.querySelector('p')?.innerHTML).toBe('<a href="/one">one <b>bold</b></a><a href="/two">two</a> after');
    expect(body.querySelectorAll('h1 h2')).toHaveLength(0);
    expect(body.querySelector('h1')?.textContent).toBe('Title');
  });

  // The same patch: a block's start tag closes an open paragraph, and an item's an open item, past
  // the inline elements left open in it, as the HTML tree builder does. linkedom nested each
  // paragraph in the one before (`<p><b><i>word` 20,000 times: 60,000 levels, 17 s to extract).
  it('closes an open paragraph or item past unclosed inline elements, but not past an open link', () => {
    const body = parse(
      '<p><b>Bold<p>Next <i>it<div>block</div>after</i>' +
        '<ul><li><span>one<li><p>two<li>three <ul><li>inner</ul></ul>' +
        '<dl><dt><em>term<dd>definition</dl>' +
        '<p id="link"><a href="/l">linked<p>still linked</a></p><h2><b>Heading<h3>nested</h3></b></h2>',
    ).body;
    expect(body.querySelectorAll('p p')).toHaveLength(1);
    expect(body.querySelector('p p')?.textContent).toBe('still linked');
    expect(body.querySelector('p p')?.parentElement?.tagName).toBe('A');
    expect(Array.from(body.querySelectorAll('body > p')).map((p) => p.textContent)).toEqual([
      'Bold',
      'Next it',
      'linkedstill linked',
    ]);
    expect(body.querySelector('body > div')?.textContent).toBe('block');
    expect(body.querySelectorAll('li li')).toHaveLength(1);
    expect(Array.from(body.querySelectorAll('ul > li')).map((li) => li.textContent)).toEqual([
      'one',
      'two',
      'three inner',
      'inner',
    ]);
    expect(body.querySelectorAll('dt dd')).toHaveLength(0);
    // A heading's start tag closes an open heading only when it is the current element.
    expect(body.querySelectorAll('h2 h3')).toHaveLength(1);
  });

  // The same patch drops the line break right after `<pre>`, `<listing>` or `<textarea>`, as the
  // HTML tree builder does: linkedom kept it, and a code block's markdown opened with an empty line.
  it('reads <pre> without the line break right after its start tag, and only that one', () => {
    const body = parse(
      '<pre>\nnpm install\n</pre><pre>\r\n\nsecond</pre><pre><code>\nkept</code></pre><pre>\n</pre>',
    ).body;
    expect(Array.from(body.querySelectorAll('pre')).map((pre) => pre.textContent)).toEqual([
      'npm install\n',
      '\nsecond',
      '\nkept',
      '',
    ]);
  });

  // The same patch writes an attribute value's `&` as `&amp;`, as the HTML serialization algorithm
  // does: written as it was, `?a=1&section=2` read again is `?a=1§ion=2` (see markdown.test.ts).
  it('escapes & and " in the attribute values it writes, and reads them back as they were', () => {
    const doc = parse('<a id="l" href="/x?a=1&amp;section=2&region=us" title=\'Say "hi" &amp; go\'>l</a>');
    const link = doc.getElementById('l') as Element;
    expect(link.outerHTML).toBe(
      '<a id="l" href="/x?a=1&amp;section=2&amp;region=us" title="Say &quot;hi&quot; &amp; go">l</a>',
    );
    const again = parse(link.outerHTML).getElementById('l') as Element;
    expect([again.getAttribute('href'), again.getAttribute('title')]).toEqual([
      '/x?a=1&section=2&region=us',
      'Say "hi" & go',
    ]);
  });

  // The same patch reads `className` (and `getAttribute('class')`) from the attribute and no longer
  // builds a class list for every element parsed: the attribute and the list must still agree.
  it('keeps className, the class attribute and classList in step without building a list per element', () => {
    const doc = parse('<div id="a" class=" post  card\tpost\n"></div><p id="b">x</p><span id="c" class=""></span>');
    const a = doc.getElementById('a') as Element;
    const b = doc.getElementById('b') as Element;
    expect(a.className).toBe('post card');
    expect(a.getAttribute('class')).toBe('post card');
    expect([...a.classList]).toEqual(['post', 'card']);
    expect(a.outerHTML).toBe('<div id="a" class="post card"></div>');
    a.classList.add('wide');
    a.classList.remove('post');
    expect(a.className).toBe('card wide');
    expect(a.getAttribute('class')).toBe('card wide');
    a.setAttribute('class', 'one  two one');
    expect([a.className, [...a.classList]]).toEqual(['one two', ['one', 'two']]);
    a.className = 'three';
    expect([a.getAttribute('class'), a.classList.contains('three'), a.classList.contains('one')]).toEqual([
      'three',
      true,
      false,
    ]);
    a.removeAttribute('class');
    expect([a.className, a.getAttribute('class'), a.classList.length]).toEqual(['', '', 0]);
    // linkedom answers '' rather than null for a missing class attribute; callers rely on it.
    expect([b.className, b.getAttribute('class'), b.hasAttribute('class')]).toEqual(['', '', false]);
    expect((doc.getElementById('c') as Element).className).toBe('');
    expect(doc.querySelectorAll('.card, .one').length).toBe(0);
    expect(doc.querySelectorAll('.three, .post').length).toBe(0);
    b.classList.add('card');
    expect(doc.querySelectorAll('.card').length).toBe(1);
  });

  it('keeps the page body when an element sits between </head> and <body>', () => {
    const doc = parse(
      '<html><head><title>t</title></head><link rel="stylesheet" href="/a.css"><body><p>Content</p></body></html>',
    );
    expect(doc.body.textContent).toBe('Content');
    expect(doc.head.querySelector('link')).not.toBeNull();
    expect(doc.documentElement.querySelectorAll('body')).toHaveLength(1);
  });

  it('shows what a template printed after </html> at the end of the body, as browsers do', () => {
    const doc = parse(
      '<html><head><title>t</title></head><body><nav>Menu</nav></body></html>\n' +
        '<div class="post"><h1>The headline</h1><p>The story.</p></div><!-- cache --><footer>Footer</footer>',
    );
    expect(doc.body.textContent).toBe('Menu\nThe headlineThe story.Footer');
    expect(doc.querySelector('h1')?.closest('body')).toBe(doc.body);
    expect(doc.documentElement.nextSibling?.nodeType).toBe(8);
    expect(doc.body.lastElementChild?.localName).toBe('footer');
  });

  it("moves what cannot be in <head> but was written there to the body's start, in order, and keeps the head's own", () => {
    const doc = parse(
      '<html><head><title>t</title><div class="notice">Closed on Monday</div><meta name="a" content="1">' +
        '<a href="#main">Skip</a><script type="application/ld+json">{}</script></head>' +
        '<link rel="stylesheet" href="/a.css"><body><p>Content</p></body></html>',
    );
    expect(doc.body.textContent).toBe('Closed on MondaySkipContent');
    expect(Array.from(doc.head.children, (el) => el.localName)).toEqual(['title', 'meta', 'script', 'link']);
    expect(doc.body.firstElementChild?.className).toBe('notice');
  });

  it('reads a page saved with Windows or old Mac line ends with line feeds, as the HTML5 input stream does', () => {
    const doc = parse(
      '<html><head><title>t</title></head><body><pre>one\r\ntwo\rthree</pre><p title="a\r\nb">x</p></body></html>',
    );
    expect(doc.querySelector('pre')?.textContent).toBe('one\ntwo\nthree');
    expect(doc.querySelector('p')?.getAttribute('title')).toBe('a\nb');
  });

  it('adds the tbody the HTML5 parser implies around rows written in a table', () => {
    const doc = parse('<html><body><table><tr><td>a</td></tr><tr><td>b</td></tr></table></body></html>');
    const rows = Array.from(doc.querySelectorAll('tr'));
    expect(rows.map((tr) => tr.parentElement?.localName)).toEqual(['tbody', 'tbody']);
    expect(doc.querySelectorAll('tbody')).toHaveLength(1);
  });

  it('sets apart inline tabs, menu items and buttons that meet without a space, not other inline elements', () => {
    const doc = parse(
      '<html><body><div role="tablist"><span role="tab">PHP</span><span role="TAB">C# (.NET Core)</span><span role="tab">Java</span></div>' +
        '<p><a role="button" href="#a">Save</a><a role="button" href="#b">Share</a> and <b>bold</b><i>italic</i> <span role="note">x</span><span>y</span></p>' +
        '<ul role="menu"><li role="menuitem">Home</li><li role="menuitem">Docs</li></ul></body></html>',
    );
    expect(blockText(doc.body)).toBe('PHP C# (.NET Core) Java\n\nSave Share and bolditalic xy\n\nHome\n\nDocs');
    // Block elements are apart already: no space is added after them.
    expect(doc.querySelector('li')?.nextSibling?.nodeType).toBe(1);
  });

  it("shows the parts React's streaming rendering sends hidden, not other hidden blocks", () => {
    const doc = parse(
      '<html><body><div hidden id="S:1"><p>Specs</p></div><div hidden id="x">Secret</div></body></html>',
    );
    expect(doc.getElementById('S:1')?.hasAttribute('hidden')).toBe(false);
    expect(doc.getElementById('x')?.hasAttribute('hidden')).toBe(true);
  });

  // As React's scripts do ($RC for a boundary's content, $RS for a segment, whose placeholder has
  // its number): the part goes where its placeholder is, so the text reads in the page's order and
  // inside the block it belongs to.
  it.each(['linkedom', 'jsdom'] as const)('moves a streamed part to its placeholder (%s)', (dom) => {
    const doc = parseDocument(
      '<html><body><article><h1>Index funds</h1><template id="B:0"></template><div>Loading…</div>' +
        '<template id="P:1"></template><p>Closing words.</p></article><footer>Footer</footer>' +
        '<div hidden id="S:0"><p>First paragraph.</p><p>Second paragraph.</p></div>' +
        '<div hidden id="S:1"><p>Third paragraph.</p></div></body></html>',
      'https://example.com/',
      dom,
    ).document;
    const article = doc.querySelector('article') as Element;
    expect(Array.from(article.querySelectorAll('p')).map((p) => p.textContent)).toEqual([
      'First paragraph.',
      'Second paragraph.',
      'Third paragraph.',
      'Closing words.',
    ]);
    expect(doc.getElementById('S:0')).toBeNull();
    expect(doc.getElementById('S:1')).toBeNull();
  });

  // As served by a Next.js page: a pending boundary is `<!--$?-->`, its placeholder, its fallback
  // and `<!--/$-->`; React's $RC replaces all of that with the content, nested boundaries counted.
  it.each(['linkedom', 'jsdom'] as const)("replaces a boundary's fallback with its content (%s)", (dom) => {
    const html = stripInert(
      '<html><body><article><h1>Index funds</h1><!-- a comment -->' +
        '<!--$?--><template id="B:0"></template><div>Loading paragraph...</div>' +
        '<!--$--><p>Skeleton line</p><!--/$--><div class="skeleton"></div><!--/$-->' +
        '<p>Closing words.</p></article>' +
        '<div hidden id="S:0"><p>First paragraph.</p></div></body></html>',
    );
    const article = parseDocument(html, 'https://example.com/', dom).document.querySelector('article') as Element;
    expect(article.textContent).toBe('Index fundsFirst paragraph.Closing words.');
  });

  it.each(['linkedom', 'jsdom'] as const)('reads ruby text as its base, without the readings (%s)', (dom) => {
    const doc = parseDocument(
      '<html><body><p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を<ruby>読<rt>よ</rt></ruby>む。</p></body></html>',
      'https://example.com/',
      dom,
    ).document;
    expect(doc.querySelector('p')?.textContent).toBe('漢字を読む。');
  });

  it('keeps the fallback when the page was saved without the comments that bound it', () => {
    const doc = parse(
      '<html><body><article><template id="B:0"></template><div>Loading…</div><p>Closing words.</p></article>' +
        '<div hidden id="S:0"><p>First paragraph.</p></div></body></html>',
    );
    expect(doc.querySelector('article')?.textContent).toBe('First paragraph.Loading…Closing words.');
  });
});

describe('flattenDeepHtml', () => {
  it('lays out the elements deeper than the limit flat inside the element at it, in document order', () => {
    const html =
      '<html><body><div id="a"><div id="b"><p id="c">one<b id="d">two<i id="e">three</i></b>four</p></div></div><p id="f">five</p></body></html>';
    // html 1, body 2, a 3, b 4: c and everything in it is deeper than 4.
    const { document } = parseHTML(flattenDeepHtml(html, 4));
    const b = document.getElementById('b');
    expect(
      Array.from(b?.childNodes ?? []).map((n) => (n.nodeType === 1 ? `#${(n as Element).id}` : n.textContent)),
    ).toEqual(['#c', 'one', '#d', 'two', '#e', 'threefour']);
    expect(document.getElementById('f')?.parentElement?.localName).toBe('body');
    expect(document.body.textContent).toBe('onetwothreefourfive');
    // Nothing as deep as the limit: the page as it was.
    expect(parseHTML(flattenDeepHtml(html, 10)).document.getElementById('e')?.parentElement?.id).toBe('d');
  });
});
