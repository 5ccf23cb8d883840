import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { extractHtml } from './extract-html.js';
import { contentMarkdown, htmlChunks } from './markdown.js';
import { LINE_START_ESCAPE_OPTION } from './markdown-escapes.js';
import { collapseSpaceRuns } from './markdown-whitespace.js';
import { withCountedGetter } from './testing/getter-reads.js';
import { blockText } from './text.js';

const element = (inner: string): Element =>
  parseHTML(`<html><body><div id="c">${inner}</div></body></html>`).document.getElementById('c') as unknown as Element;

describe('contentMarkdown', () => {
  it.each(['linkedom', 'jsdom'] as const)(
    'writes emoji images as their characters, other images as images (%s)',
    (dom) => {
      const para = 'The picnic by the river went better than anyone had planned it a week before. ';
      const html =
        `<html><head><title>Picnic</title></head><body><article><h1>Picnic</h1><p>${para.repeat(3)}</p>` +
        '<p>We loved it <img class="emoji" alt="🙂" src="https://s.w.org/images/core/emoji/15.0.3/svg/1f642.svg"> ' +
        'and so did they <img class="emoji" title=":sob:" alt=":sob:" src="https://emoji.discourse-cdn.com/twitter/sob.png">.</p>' +
        `<p>${para.repeat(3)}</p><p><img src="https://example.com/river.jpg" alt="The river"></p></article></body></html>`;
      const md = extractHtml(html, { url: 'https://example.com/picnic', dom }).body_markdown;
      expect(md).toContain('We loved it 🙂 and so did they :sob:.');
      expect(md).not.toContain('s.w.org');
      expect(md).toContain('![The river](https://example.com/river.jpg)');
    },
  );

  it('escapes what markdown reads in a picture’s alternative text and in a title', () => {
    // A backtick in an alt opened a code span past the `](`; a double quote in a link's title
    // (`See who reacted "Like"`, a forum's reactions) closed the title early: both showed as text.
    const md = contentMarkdown(
      element(
        '<p><img src="https://x.test/a.png" alt="the `ls` output [1] *all* _x_ snake_case <b> 2]"> and ' +
          '<a href="https://x.test/r" title="See who reacted &quot;Like&quot; \\o/">2</a></p>',
      ),
    );
    expect(md).toBe(
      '![the \\`ls\\` output [1] \\*all\\* \\_x\\_ snake_case \\<b> 2\\]](https://x.test/a.png) and ' +
        '[2](https://x.test/r "See who reacted \\"Like\\" \\\\o/")',
    );
    const doc = parseHTML(`<html><body>${marked.parse(md, { async: false })}</body></html>`).document;
    expect(doc.querySelector('img')?.getAttribute('alt')).toBe('the `ls` output [1] *all* _x_ snake_case <b> 2]');
    expect(doc.querySelector('a')?.getAttribute('title')).toBe('See who reacted "Like" \\o/');
  });

  it('reads an alternative text escaped twice, or holding markup, as the text it means', () => {
    // Real pages: WordPress's `she&amp;#039;s`, a caption's HTML copied into the alt (hakibenita.com).
    const md = contentMarkdown(
      element(
        '<p><img src="https://x.test/a.png" alt="the room she&amp;#039;s in, Source &amp;amp; Photo"></p>' +
          '<p><img src="https://x.test/b.png" alt="Spot it?&lt;br&gt;&lt;small&gt;Photo by ' +
          '&lt;a href=&quot;https://u.test/&quot;&gt;Ricardo&lt;/a&gt;&lt;/small&gt;"></p>' +
          '<p><img src="https://x.test/c.png" alt="Enjoy &amp;lt;em&amp;gt;nature&amp;lt;/em&amp;gt;"></p>' +
          '<p><img src="https://x.test/d.png" alt="if a &lt; b then <b>"></p>',
      ),
    );
    expect(md).toBe(
      "![the room she's in, Source & Photo](https://x.test/a.png)\n\n" +
        '![Spot it? Photo by Ricardo](https://x.test/b.png)\n\n![Enjoy nature](https://x.test/c.png)\n\n' +
        '![if a \\< b then \\<b>](https://x.test/d.png)',
    );
  });

  it('keeps a heading or a list that bold or italics wrap, and the emphasis of paragraphs', () => {
    const md = contentMarkdown(
      element(
        '<em><h2><a href="/s">Stories</a></h2></em><strong><ul><li>First</li><li>Second</li></ul></strong>' +
          '<b><p>First para.</p><p>Second para.</p></b>',
      ),
    );
    expect(md).toBe('## [Stories](/s)\n\n- First\n- Second\n\n**First para.**\n\n**Second para.**');
    const html = marked.parse(md, { async: false });
    expect(html).toContain('<h2><a href="/s">Stories</a></h2>');
    expect(html).toContain('<li>First</li>');
  });

  it('drops bold or italics around a whole heading, and keeps a bold word beside plain ones', () => {
    const md = contentMarkdown(
      element(
        '<h2><strong>What are the trends?</strong></h2><p>Text.</p>' +
          '<h3><a id="top"></a><b>1. Plan</b> </h3><p>Text.</p>' +
          '<h3><a href="https://example.com/kit"><strong><em>The kit</em></strong></a></h3><p>Text.</p>' +
          '<h4><b>My Top 10</b> <b>Art Books</b></h4><p>Text.</p>' +
          '<h4>Grow <b>fast</b></h4><p>Text.</p><p><strong>Bold in a paragraph</strong> stays.</p>',
      ),
    );
    expect(md).toBe(
      '## What are the trends?\n\nText.\n\n### 1. Plan\n\nText.\n\n### [The kit](https://example.com/kit)\n\nText.\n\n' +
        '#### My Top 10 Art Books\n\nText.\n\n#### Grow **fast**\n\nText.\n\n**Bold in a paragraph** stays.',
    );
  });

  it('keeps headings, paragraphs, lists, links, code, tables and image alt text', () => {
    const md = contentMarkdown(
      element(
        '<h2>Setup</h2><p>Read <a href="https://example.com/doc">the docs</a> first.</p>' +
          '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>' +
          '<pre><code class="language-js">const x = 1;\nconsole.log(x);</code></pre>' +
          '<table><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>' +
          '<p><img src="https://example.com/cat.png" alt="A cat"></p>',
      ),
    );
    expect(md).toContain('## Setup');
    expect(md).toContain('[the docs](https://example.com/doc)');
    expect(md).toMatch(/^- one$/m);
    expect(md).toMatch(/^1\. first$/m);
    expect(md).toContain('```js\nconst x = 1;\nconsole.log(x);\n```');
    expect(md).toMatch(/\| Name \| Size \|\n\| -+ \| -+ \|\n\| a +\| 1 +\|/);
    expect(md).toContain('![A cat](https://example.com/cat.png)');
    expect(md).not.toMatch(/\n{3,}/);
  });

  it('fences every <pre>, with or without a <code>, in the language its markup names', () => {
    const md = contentMarkdown(
      element(
        // Sphinx and Pygments: spans in a bare <pre>, the language on a wrapper's class.
        '<p>Run:</p><div class="highlight-python notranslate"><div class="highlight"><pre><span></span>' +
          '<span class="kn">def</span> f():\n    <span class="k">return</span> 1\n\n\n</pre></div></div>' +
          // A man page's <pre>, and a <code> among blank text.
          '<pre>grep [OPTION...] PATTERNS</pre><pre data-lang="console">\n<code>$ ls</code>\n</pre>' +
          '<div class="highlight-default"><pre>x = 1</pre></div><pre>   </pre>',
      ),
    );
    expect(md).toContain('```python\ndef f():\n    return 1\n```');
    expect(md).toContain('```\ngrep [OPTION...] PATTERNS\n```');
    expect(md).toContain('```console\n$ ls\n```');
    // `default` names no language.
    expect(md).toContain('```\nx = 1\n```');
    expect(md.match(/```/g)).toHaveLength(8);
  });

  it.each(['linkedom', 'jsdom'] as const)(
    "takes MDN's brush class as the language, and drops the label above the block that names it (%s)",
    (dom) => {
      const block = (label: string, cls: string, code: string): string =>
        `<div class="code-example"><div class="lang-bar"><span class="language-name">${label}</span></div><pre class="${cls}"><code>${code}</code></pre></div>`;
      const page = extractHtml(
        `<html><body><article><h1>Promises</h1><p>${'A promise stands for the result of work that has not finished yet. '.repeat(4)}</p>` +
          `<p>Copy this into the console of your browser:</p>${block('js', 'brush: js notranslate', 'const answer = fetch(url);')}` +
          `<p>${'The promise settles once the response has arrived from the server. '.repeat(3)}</p>` +
          `<p>Style the answer with this rule:</p>${block('Example', 'language-css', 'a { color: red; }')}` +
          `<p>${'The rule colours every link of the page in red, visited or not. '.repeat(3)}</p></article></body></html>`,
        { url: 'https://example.com/promises', dom },
      );
      expect(page.body_markdown).toContain(
        'Copy this into the console of your browser:\n\n```js\nconst answer = fetch(url);\n```',
      );
      expect(page.body_text).not.toMatch(/^js$/m);
      // A label that is not the block's language stays.
      expect(page.body_markdown).toMatch(/this rule:\n\nExample\n\n```css\na \{ color: red; \}\n```/);
    },
  );

  it('parts a disclosure’s summary and a dialog from the text around them, as the plain text does', () => {
    // An FAQ's question ran into its answer: `Returns?Within 30 days.`
    const root = element(
      '<details><summary>Returns?</summary>Within 30 days.</details><details><summary>Shipping?</summary>' +
        '<p>Three days.</p></details><dialog>Signed in.</dialog>After the dialog.',
    );
    expect(blockText(root)).toBe(
      'Returns?\n\nWithin 30 days.\n\nShipping?\n\nThree days.\n\nSigned in.\n\nAfter the dialog.',
    );
    expect(contentMarkdown(root)).toBe(
      'Returns?\n\nWithin 30 days.\n\nShipping?\n\nThree days.\n\nSigned in.\n\nAfter the dialog.',
    );
  });

  it('writes a heading on one line, its number unescaped, and leaves an empty one out', () => {
    const md = contentMarkdown(
      element('<h3>1. Personalized <em>nutrition</em> </h3><h2>Two<br>lines</h2><h2> </h2><p>Text.</p><h4>- Dash</h4>'),
    );
    expect(md).toBe('### 1. Personalized *nutrition*\n\n## Two lines\n\nText.\n\n#### - Dash');
    // A reader of the markdown sees the same headings.
    const headings = marked.lexer(md).filter((token) => token.type === 'heading');
    expect(headings.map((token) => (token as { text: string }).text)).toEqual([
      '1. Personalized *nutrition*',
      'Two lines',
      '- Dash',
    ]);
  });

  it('escapes what would start a list only where a line starts', () => {
    const md = contentMarkdown(
      element(
        '<p>Use <a href="/i">--ipython</a> or <a href="/s">1. Setup</a>.</p><p>- not a list</p>' +
          '<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-p</td><td>1. the package</td></tr></table>',
      ),
    );
    expect(md).toContain('Use [--ipython](/i) or [1. Setup](/s).');
    expect(md).toContain('| -p | 1. the package |');
    // A paragraph that starts so stays a paragraph for a reader of the markdown.
    expect(marked.lexer(md).map((token) => token.type)).toEqual(['paragraph', 'space', 'paragraph', 'space', 'table']);
  });

  it('escapes a line that is only a marker, which would start an empty list item or heading, but not in code', () => {
    const md = contentMarkdown(
      element(
        '<div>1.</div><div>1x AI-Powered Camera</div><p>+</p><p>#</p><p>2)</p>' +
          '<ol><li>1.</li><li>+</li></ol><blockquote><p>##</p></blockquote><pre><code>1.\n+\n#</code></pre>',
      ),
    );
    expect(md).toBe(
      '1\\.\n\n1x AI-Powered Camera\n\n\\+\n\n\\#\n\n2\\)\n\n1. 1\\.\n2. \\+\n\n> \\##\n\n```\n1.\n+\n#\n```',
    );
    // Read back: one list (the page's own), no heading, the code as it was.
    const tokens = marked.lexer(md);
    expect(tokens.filter((t) => t.type === 'list')).toHaveLength(1);
    expect(tokens.filter((t) => t.type === 'heading')).toHaveLength(0);
    expect(marked.parse(md)).toContain('<li>1.</li>');
  });

  it('escapes underscores, numbers and dashes only where they could make markup', () => {
    const md = contentMarkdown(
      element(
        '<p>Set balance_transaction, not __init__ or *all*; released in December 2024. Microsoft</p>' +
          '<p><span>payment<!-- -->_<wbr>method</span>_<b>types</b>, <code>a\\_b</code>, C:\\_x and _lead_</p>' +
          '<p>DNS<b>-related</b> and <a href="/d">Desktop</a> - Budgie, <code>a\\-b</code></p>' +
          '<ul><li>1. Step</li><li><b>2. Bold</b></li></ul><p>a<br>- still text</p><p>Type C:\\-x</p>',
      ),
    );
    expect(md).toContain(
      'Set balance_transaction, not \\_\\_init\\_\\_ or \\*all\\*; released in December 2024. Microsoft',
    );
    // An underscore a page splits a word at (a text of its own) is an underscore in the word; one
    // before emphasis could close emphasis, and one after a backslash is the page's own.
    expect(md).toContain('payment_method\\_**types**, `a\\_b`, C:\\\\\\_x and \\_lead\\_');
    // The dash opening the bold stands before it: `DNS**-related**` opens no bold (markdown-emphasis.ts).
    expect(md).toContain('DNS-**related** and [Desktop](/d) - Budgie, `a\\-b`');
    expect(md).toContain('- 1\\. Step\n- **2. Bold**');
    expect(md).toMatch(/a *\n\\- still text/);
    // A backslash of the page's own, escaped, stays before the dash.
    expect(md).toContain('Type C:\\\\-x');
    // Read back, nothing became a list or emphasis that the page did not have.
    const tokens = marked.lexer(md);
    expect(tokens.filter((t) => t.type === 'list')).toHaveLength(1);
    expect(marked.parse(md)).toContain('balance_transaction');
    expect(marked.parse(md)).not.toContain('<strong>init</strong>');
  });

  it('escapes brackets only where they could make a link, a footnote or a task', () => {
    // A citation's `\\[1\\]` and Cloudflare's `\\[email protected\\]` were escaped though they make no link.
    const md = contentMarkdown(
      element(
        '<p>Cited [1] at [email protected] in [city], [a [b] c], <a href="https://x.test/n">[2]</a>.</p>' +
          '<p>Kept: [a](b) [c][d] [^3] [x] [ ] <code>\\[e\\]</code> a] [f</p><p>[term]: not a definition</p>',
      ),
    );
    expect(md).toBe(
      'Cited [1] at [email protected] in [city], \\[a [b] c\\], [[2]](https://x.test/n).\n\n' +
        'Kept: \\[a\\](b) \\[c\\][d] \\[^3\\] \\[x\\] \\[ \\] `\\[e\\]` a\\] \\[f\n\n\\[term\\]: not a definition',
    );
    const html = marked.parse(md, { async: false });
    expect(html).toContain('Cited [1] at [email protected] in [city], [a [b] c], <a href="https://x.test/n">[2]</a>.');
    expect(html).toContain('Kept: [a](b) [c][d] [^3] [x] [ ] <code>\\[e\\]</code> a] [f');
    expect(html).toContain('<p>[term]: not a definition</p>');
  });

  it('reads a line break in pretty-printed markup as a space, but inside preformatted text', () => {
    const md = contentMarkdown(
      element(
        '<p><strong>Note:</strong>\nIn this <a href="/x">link</a>\nand <em>more</em>\n  text.</p><pre>a\n  b</pre><p>Deploy site<br>\n  Done</p><p>\n\tStarts here.\n</p><p> Digital <span>marketing\n</span></p><p><strong>Q2. How much?<br></strong> Four cups.</p>' +
          '<p><a href="/c"><img alt="Flea" src="/f.png">\n<div>Fleas </div><div>Felis</div></a></p>',
      ),
    );
    expect(md).toContain('Deploy site  \nDone');
    expect(md).toContain('\n\nStarts here.\n\nDigital marketing\n\n');
    expect(md).toMatch(/How much\?\*\* *\nFour cups\./);
    // A link of blocks is its blocks, the link on the first words (see markdown-card-links.ts).
    expect(md).toContain('![Flea](/f.png)\n\n[Fleas](/c)\n\nFelis');
    expect(md).toContain('**Note:** In this [link](/x) and *more* text.');
    expect(md).toContain('```\na\n  b\n```');
  });

  it.each(['linkedom', 'jsdom'] as const)('keeps the space beside a link or a styled space as a space (%s)', (dom) => {
    const page = extractHtml(
      `<html><body><article><h1>Voices</h1><p>${'Speech synthesis turns written text into audio that sounds natural. '.repeat(4)}</p>` +
        '<p>A <a href="/r">new report&nbsp;</a>from AWS, and <a href="/b"><strong>Polly Brand</strong></a><strong> </strong>that speaks.</p>' +
        '<p>See <a href="/d"> <span>\n  the docs </span> </a>first.</p></article></body></html>',
      { url: 'https://example.com/voices', dom },
    );
    expect(page.body_markdown).toContain(
      'A [new report](https://example.com/r) from AWS, and [**Polly Brand**](https://example.com/b) that speaks.',
    );
    expect(page.body_markdown).toContain('See [the docs](https://example.com/d) first.');
  });

  it('writes a blank inline code element as its space or nothing, not an empty code span', () => {
    const md = contentMarkdown(
      element(
        '<p>Split on space (<code></code>) or comma (<code>,</code>), run <code> </code>and go.</p>' +
          '<p><code>\n\t </code></p><p>Next</p><pre><code>\n  \n</code></pre>',
      ),
    );
    expect(md).toContain('Split on space () or comma (`,`), run and go.\n\nNext');
    expect(md).not.toContain('``\n');
  });

  it('keeps a line break that the page styles on its own after bold text, so that the bold reads as bold', () => {
    const md = contentMarkdown(
      element(
        '<ol><li><b>Social Media Apps (e.g., Facebook)</b><b><br></b><span>Focus on connecting users.</span></li></ol>' +
          '<p><em><strong>Every creator is flying blind.</strong></em><strong><br/></strong><span>Not because.</span></p>',
      ),
    );
    // Without the break, `**…)**Focus`: a closing mark after punctuation and before a letter closes nothing.
    expect(md).toContain('1. **Social Media Apps (e.g., Facebook)**  \n   Focus on connecting users.');
    expect(md).toContain('**Every creator is flying blind.**  \nNot because.');
    const html = marked.parse(md, { async: false });
    expect(html).toContain('<strong>Social Media Apps (e.g., Facebook)</strong><br>');
    expect(html).toContain('<strong>Every creator is flying blind.</strong><br>');
  });

  it('writes no line break where a block ends, nor a line of spaces for a second one', () => {
    const md = contentMarkdown(
      element('<p>End of a paragraph<br></p><p>A<br><br>B<br></p><pre><code>x  \n  \ny</code></pre><p>C</p>'),
    );
    expect(md).toBe('End of a paragraph\n\nA\n\nB\n\n```\nx  \n  \ny\n```\n\nC');
  });

  it('shows one space where spaces meet across inline elements, as a browser does, but not in preformatted text', () => {
    const md = contentMarkdown(
      element(
        '<p>Sale <span> Sold out</span></p><p><a href="/u">raoul</a> <span> (Score:5)</span> and <b>bold </b> word</p>' +
          '<p><img src="/x.png" alt=" Chart\n "> <span> Source: survey</span></p><p>end <br> <span> next</span></p><pre>a   <span>  b</span></pre>',
      ),
    );
    expect(md).toContain('Sale Sold out');
    expect(md).toContain('[raoul](/u) (Score:5) and **bold** word');
    expect(md).toContain('![Chart](/x.png) Source: survey');
    expect(md).toMatch(/end *\nnext/);
    expect(md).toContain('```\na     b\n```');
    // A block starts a line, and so does the text after it.
    const root = element('a<p> b</p> <span> c</span>');
    collapseSpaceRuns(root);
    expect(root.innerHTML).toBe('a<p>b</p><span>c</span>');
  });

  it('drops no-break spaces that open a line, which markdown cannot indent with, but keeps them inside one', () => {
    const md = contentMarkdown(
      element(
        '<h2>Free CRM</h2><div><i class="fa fa-check"></i>&nbsp;Free for 10 Users</div>' +
          '<p>&nbsp;&nbsp;&nbsp;&nbsp;Indented by hand</p><p>12&nbsp; months<br>&nbsp;next</p>',
      ),
    );
    expect(md).toContain('\n\nFree for 10 Users\n\nIndented by hand\n\n');
    // Four spaces at a line's start would have made the paragraph a code block.
    expect(md).not.toMatch(/^ +\S/m);
    expect(md).toMatch(/12 +months *\nnext/);
  });

  it('writes the titles of pictures and links with their white space collapsed', () => {
    const md = contentMarkdown(
      element(
        '<p>Lost a customer <img src="/f.png" alt="☹️" title="Frowning face    :frowning2:"> ' +
          '<a href="/p" title=" Genesis E-415 +\n pizza stone ">the pack</a></p>',
      ),
    );
    expect(md).toContain('"Frowning face :frowning2:"');
    expect(md).toContain('[the pack](/p "Genesis E-415 + pizza stone")');
  });

  it("writes no words for a picture whose alt is a template's unfilled value", () => {
    const md = contentMarkdown(
      element(
        '<p><img src="/a.png" alt="null"> <img src="/b.png" alt="undefined"> <img src="/c.png" alt="Null hypothesis"></p>',
      ),
    );
    expect(md).toContain('![](/a.png) ![](/b.png) ![Null hypothesis](/c.png)');
  });

  it('parts words that only styles set apart, as the plain text does, but not in code or a lower-case run', () => {
    const html =
      '<h4><span><span>amount</span></span><span>integer</span><span>Required</span></h4>' +
      '<p><span>Henry Modisett</span><span>Head of Design</span> and <b>Mar</b><i>ket</i>, ' +
      '<span>19942h 22m</span><span>R</span></p><pre><span>let</span><span>Foo</span></pre>';
    const md = contentMarkdown(element(html));
    expect(md).toContain('#### amountinteger Required\n');
    // The converter spaces two runs of one mark apart (`**Mar** *ket*`): `*a**b*` would read as one.
    expect(md).toContain('Henry Modisett Head of Design and **Mar** *ket*, 19942h 22m R');
    expect(md).toContain('```\nletFoo\n```');
    // The plain text reads the same words.
    expect(blockText(element(html))).toContain('amountinteger Required\n\nHenry Modisett Head of Design and Market');
  });

  it('keeps the underscores of an emphasized identifier and of a link address', () => {
    const md = contentMarkdown(
      element(
        '<p>The <em>cached_property</em> decorator, or cache(<i>user_function</i>); see ' +
          '<a href="https://docs.example.org/git#what_is_git">what_is git</a>.</p>',
      ),
    );
    expect(md).toBe(
      'The *cached_property* decorator, or cache(*user_function*); see [what_is git](https://docs.example.org/git#what_is_git).',
    );
    // A reader of the markdown sees the identifiers whole, emphasized.
    expect(marked.parseInline(md)).toContain('<em>cached_property</em>');
    expect(marked.parseInline(md)).toContain('href="https://docs.example.org/git#what_is_git"');
  });

  it('writes bold in bold and italics in italics with the outer marks only', () => {
    const md = contentMarkdown(
      element(
        '<p>a <b class="hide-caption"><b>hide caption</b></b> z</p><p><strong><span><b>Last</b></span> word</strong></p>' +
          '<p><em><i>it</i></em> and <b>bold <i>it <em>x</em></i></b></p>',
      ),
    );
    expect(md).toBe('a **hide caption** z\n\n**Last word**\n\n*it* and **bold *it x***');
  });

  it('leaves out a link that shows no text nor picture, in text and in table cells', () => {
    const md = contentMarkdown(
      element(
        '<p><a href="#"></a> On 3/5, <a href="/u">Dave</a> said<a href="/x"><i class="icon"></i></a>.</p>' +
          '<p><a href="/y"><img src="/a.png" alt=""></a> and <a href="/z"> </a>x</p>' +
          '<table><tr><th>Name</th><th>Link</th></tr><tr><td>Ann</td><td><a href="/p"><span></span></a>Profile</td></tr></table>',
      ),
    );
    expect(md).toContain('On 3/5, [Dave](/u) said.');
    expect(md).toContain('[![](/a.png)](/y) and x');
    expect(md).toContain('| Ann | Profile |');
    expect(md).not.toMatch(/(?<!!)\[\]\(/);
  });

  it('resolves links and images against the base URL; a script link keeps its text only', () => {
    const md = contentMarkdown(
      element(
        '<p>See <a href="/docs/start?x=1">the guide</a>, <a href="#setup">setup</a>, ' +
          '<a href="javascript:void(0)">menu</a> and <a href="https://other.org/a">elsewhere</a>.</p>' +
          '<p><img src="img/cat.png" alt="A cat"></p>',
      ),
      'https://example.com/blog/post',
    );
    expect(md).toContain('[the guide](https://example.com/docs/start?x=1)');
    expect(md).toContain('[setup](https://example.com/blog/post#setup)');
    expect(md).toContain('[elsewhere](https://other.org/a)');
    expect(md).toContain('![A cat](https://example.com/blog/img/cat.png)');
    expect(md).toContain(' menu ');
    expect(md).not.toContain('javascript');
  });

  it.each(['linkedom', 'jsdom'] as const)(
    "keeps a link's query string as written, where its parameters' names begin like entities (%s)",
    (dom) => {
      // `&sect`, `&reg`, `&copy`, `&not` and `&lang` are character references when read in text;
      // the converter reads the content's serialized HTML, so an `&` written unescaped became `§ion`.
      const query = 'a=1&section=2&region=us&copy=3&not=5&lang=en&para=6';
      const para = 'The river rose through the night and the town woke to water in every street. ';
      const html =
        `<html><head><title>Flood</title></head><body><article><h1>Flood</h1><p>${para.repeat(3)}` +
        `See <a href="/report?${query.replace(/&/g, '&amp;')}">the report</a> and <a title="Edit &amp; share" href="/x?${query}">this</a>.</p>` +
        `<p>${para.repeat(3)}</p><p><img src="/map.png?w=1&amp;copy=2" alt="The map"></p></article></body></html>`;
      const md = extractHtml(html, { url: 'https://example.com/flood', dom }).body_markdown;
      expect(md).toContain(`[the report](https://example.com/report?${query})`);
      expect(md).toContain(`[this](https://example.com/x?${query} "Edit & share")`);
      expect(md).toContain('![The map](https://example.com/map.png?w=1&copy=2)');
    },
  );

  it("sets a picture's marked caption in emphasis", () => {
    const root = element(
      '<p>Text before.</p><figure><img src="https://example.com/t.jpg" alt="Tent">' +
        '<figcaption data-quarry-caption="">Our camp. <em>Credit</em>: Chris</figcaption></figure>',
    );
    const md = contentMarkdown(root);
    expect(md).toContain('*Our camp. Credit: Chris*');
  });

  it('turns layout tables (nested or role=presentation) into plain blocks and keeps data tables', () => {
    const md = contentMarkdown(
      element(
        '<table role="presentation"><tr><td><p>Layout text.</p></td></tr></table>' +
          '<table><tr><td><table><tr><th>K</th></tr><tr><td>V</td></tr></table></td></tr></table>',
      ),
    );
    expect(md).toContain('Layout text.');
    expect(md).not.toMatch(/\|\s*Layout text/);
    expect(md).toContain('V');
  });

  it("turns a table that lays an article out into its paragraphs, and keeps a data table's short paragraphs", () => {
    const paragraph = (i: number) => `<p>Paragraph ${i} of the story, ${'told at some length '.repeat(12)}</p>`;
    const article = `<table><tr><td></td><td>${[1, 2, 3].map(paragraph).join('')}</td></tr></table>`;
    const md = contentMarkdown(element(article));
    expect(md).toMatch(/^Paragraph 1 of the story/);
    expect(md).toContain('\n\nParagraph 2 of the story');
    expect(md).not.toContain('|');
    // Two short lines in a cell (an address) are data.
    const data = contentMarkdown(
      element(
        '<table><tr><th>Shop</th><th>Address</th></tr><tr><td>North</td><td>1 Main St<br>Springfield</td></tr></table>',
      ),
    );
    expect(data).toMatch(/\| North \|/);
  });

  it('converts big content piece by piece, in order and in bounded time', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>r${i}</td><td>${'x '.repeat(40)}</td></tr>`).join('');
    const section = (i: number) =>
      `<section><h3>Part ${i}</h3><table><tr><td><table>${rows}</table></td></tr></table><p>End of part ${i}.</p></section>`;
    const big = element(`<div>${Array.from({ length: 30 }, (_, i) => section(i)).join('')}</div>`);
    const started = performance.now();
    const md = contentMarkdown(big);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(md.indexOf('### Part 0')).toBeLessThan(md.indexOf('### Part 29'));
    expect(md).toContain('End of part 29.');
  });

  // node-html-markdown's time grows with the square of one element's output: the converter is
  // given pieces, and the pieces of one table, list or paragraph must read as one again.
  it('converts a big table in groups of rows that read as one table, its header and caption once', () => {
    const rows = Array.from(
      { length: 800 },
      (_, i) => `<tr><td>row ${i}</td><td><a href="/r/${i}">link ${i}</a></td></tr>`,
    );
    const table = element(
      `<table><caption>Laureates</caption><tr><th>Year</th><th>Name</th></tr>${rows.join('')}</table>`,
    );
    expect(htmlChunks(table).length).toBeGreaterThan(2);
    const md = contentMarkdown(table);
    // A Markdown reader sees one table of every row.
    const tables = marked.lexer(md).filter((token) => token.type === 'table');
    expect(tables.map((token) => (token as { rows: unknown[] }).rows.length)).toEqual([800]);
    const lines = md.split('\n');
    expect(lines.filter((line) => line.includes('Laureates'))).toHaveLength(1);
    const table0 = lines.indexOf(lines.find((line) => line.startsWith('| Year')) ?? '');
    expect(table0).toBeGreaterThan(-1);
    // One header, one delimiter row, then every row once and in order, with no break between.
    expect(lines.slice(table0 + 1).filter((line) => /^\|[\s|:-]*-[\s|:-]*$/.test(line))).toHaveLength(1);
    const body = lines.slice(table0 + 2);
    expect(body).toHaveLength(800);
    expect(body.filter((line, i) => !new RegExp(`^\\| row ${i} +\\| \\[link ${i}\\]`).test(line))).toEqual([]);
  });

  // patches/node-html-markdown+2.0.0.patch: an element whose output is post-processed (a link, an
  // emphasis) writes a text of its own. The converter read that output off the end of the whole
  // text and cut the whole text back, which copied all of it for every link (and every blank
  // emphasis it removes): 20,000 links inside an unclosed <b> took 16 s.
  it('converts each link apart from the text before it, without copying that text again', () => {
    const links = Array.from({ length: 2000 }, (_, i) => `<a href="/p/${i}">link ${i}</a> <i> </i>`);
    const html = `<p><b>Bold ${links.join(' ')}</b></p><p>After</p>`;
    let copied = 0;
    const methods = ['substr', 'substring', 'slice'] as const;
    const originals = methods.map((name) => String.prototype[name]);
    methods.forEach((name, i) => {
      const original = originals[i] as (this: string, ...args: unknown[]) => string;
      (String.prototype as unknown as Record<string, unknown>)[name] = function (this: string, ...args: unknown[]) {
        // The text written so far (the parser's slices of the HTML are not copies, and not counted).
        if (this.length > 1000 && /^\s*Bold /.test(this)) copied += this.length;
        return original.apply(this, args);
      };
    });
    let md: string;
    try {
      md = new NodeHtmlMarkdown().translate(html);
    } finally {
      methods.forEach((name, i) => {
        (String.prototype as unknown as Record<string, unknown>)[name] = originals[i];
      });
    }
    const expected = Array.from({ length: 2000 }, (_, i) => `[link ${i}](/p/${i})`).join(' ');
    expect(md.replace(/ {2,}/g, ' ').replace(/ \n/g, '\n')).toBe(`**Bold ${expected}**\n\nAfter`);
    // Before the patch: over 2,000 times the output, each link's cut of the text so far.
    expect(copied).toBeLessThan(10 * md.length);
  });

  it('splits wrappers nested deep around big content without serializing each of them', () => {
    const depth = 500;
    const paragraphs = Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i} ${'of some words '.repeat(28)}</p>`);
    const root = element(`${'<div class="layer">'.repeat(depth)}${paragraphs.join('')}${'</div>'.repeat(depth)}`);
    const { result: chunks, reads } = withCountedGetter(
      root,
      'outerHTML',
      (el) => el.getAttribute('class') === 'layer',
      () => htmlChunks(root),
    );
    // Only the outermost wrapper, a child of the root, is serialized (with the root's children).
    expect(reads).toBe(1);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((chunk) => chunk.html).join('')).toBe(paragraphs.join(''));
  });

  it('converts a big list in groups of items that read as one list, an ordered one numbered on', () => {
    const items = Array.from({ length: 1500 }, (_, i) => `<li><a href="/p/${i}">item ${i}</a></li>`).join('');
    const ordered = element(`<ol>${items}</ol>`);
    expect(htmlChunks(ordered).length).toBeGreaterThan(2);
    const md = contentMarkdown(ordered);
    const [list] = marked.lexer(md);
    expect(list).toMatchObject({ type: 'list', ordered: true, loose: false });
    expect((list as { items: unknown[] }).items).toHaveLength(1500);
    const lines = md.split('\n');
    expect(lines).toHaveLength(1500);
    expect(lines).toEqual(Array.from({ length: 1500 }, (_, i) => `${i + 1}. [item ${i}](/p/${i})`));
    const bullets = contentMarkdown(element(`<ul>${items}</ul>`)).split('\n');
    expect(bullets).toHaveLength(1500);
    expect(bullets.every((line) => line.startsWith('- [item '))).toBe(true);
  });

  it('keeps a big paragraph one paragraph, the pieces of a big link linked, and a big code block whole', () => {
    const links = Array.from({ length: 2000 }, (_, i) => `word ${i} <a href="/l/${i}">link ${i}</a>`).join(' ');
    const paragraph = contentMarkdown(element(`<p>${links}</p>`));
    expect(paragraph).not.toContain('\n\n');
    const said = paragraph.match(/link \d+/g) ?? [];
    expect(said).toEqual(Array.from({ length: 2000 }, (_, i) => `link ${i}`));
    // A big link's pieces each lead where it does.
    const card = contentMarkdown(element(`<a href="/card">${'<span>card text</span> '.repeat(2000)}</a>`));
    expect(card.match(/\]\(\/card\)/g)?.length).toBeGreaterThan(1);
    expect(card.match(/card text/g)).toHaveLength(2000);
    const code = `<pre>${Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')}</pre>`;
    expect(htmlChunks(element(code))).toHaveLength(1);
    expect(contentMarkdown(element(code)).match(/```/g)).toHaveLength(2);
  });

  it('converts content that is a list or a table as one, and a table laying posts out as paragraphs', () => {
    const doc = parseHTML(
      '<html><body><ol id="o"><li>first</li><li>second</li></ol>' +
        '<table id="t"><tr><th>Name</th><th>Size</th></tr><tr><td>a</td><td>1</td></tr></table>' +
        `<table id="posts"><tr><td>Post by ann</td></tr><tr><td>${'Words of a post. '.repeat(40)}</td></tr></table></body></html>`,
    ).document;
    const byId = (id: string) => doc.getElementById(id) as unknown as Element;
    expect(contentMarkdown(byId('o'))).toBe('1. first\n2. second');
    expect(contentMarkdown(byId('t'))).toMatch(/^\| Name \| Size \|\n\| -+ \| -+ \|\n\| a +\| 1 +\|$/);
    const posts = contentMarkdown(byId('posts'));
    expect(posts).not.toContain('|');
    expect(posts).toMatch(/^Post by ann\n\nWords of a post\./);
  });

  it('is empty for no element or an empty one', () => {
    expect(contentMarkdown(null)).toBe('');
    expect(contentMarkdown(element('  '))).toBe('');
  });
});

describe('LINE_START_ESCAPE_OPTION', () => {
  const escaped = (text: string) => text.replace(...LINE_START_ESCAPE_OPTION);

  it('escapes what would start a list, a heading or a quote at the start of a line only', () => {
    expect(escaped('1. First')).toBe('1\\. First');
    expect(escaped('  12. Twelfth')).toBe('  12\\. Twelfth');
    expect(escaped('- item')).toBe('\\- item');
    expect(escaped('+ item')).toBe('\\+ item');
    expect(escaped('## Heading')).toBe('\\## Heading');
    expect(escaped('> quote')).toBe('\\> quote');
    expect(escaped('one\n2. two')).toBe('one\n2\\. two');
    // node-html-markdown's own pattern escaped a number and a full stop anywhere: `in 2024\. Then`.
    expect(escaped('It happened in 2024. Then it rained')).toBe('It happened in 2024. Then it rained');
    expect(escaped('3.14159 and 2. more')).toBe('3.14159 and 2. more');
    // A number closed by `)` starts an ordered list in CommonMark as one closed by `.` does.
    expect(escaped('1) Back to growth')).toBe('1\\) Back to growth');
    expect(escaped('Point 2) stays')).toBe('Point 2) stays');
    expect(marked.parse(escaped('2) Check the tank'), { async: false })).toBe('<p>2) Check the tank</p>\n');
  });
});
