import { describe, expect, it } from '@jest/globals';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';

const URL = 'https://news.example.com/2024/05/17/story.html';
const PARA =
  'This paragraph has enough words to count as article text for Readability, with commas, clauses, and more. ';
const body = (n = 6): string => Array.from({ length: n }, () => `<p>${PARA.repeat(3)}</p>`).join('');
const page = (head: string, main = body(), attrs = 'lang="en"'): string =>
  `<!DOCTYPE html><html ${attrs}><head>${head}</head><body><nav><a href="/home">Home</a></nav><article>${main}</article><footer>Footer text</footer></body></html>`;

/**
 * jsdom 29 pulls in ESM-only packages that Jest's module loader cannot `require` on Node < 24.9
 * unless jest.config.js transforms them; the jsdom runs are then skipped, loudly.
 */
function jsdomLoads(): boolean {
  try {
    extractHtml('<p>x</p>', { url: URL, dom: 'jsdom' });
    return true;
  } catch {
    console.warn('extractHtml (jsdom) tests skipped: jsdom cannot load in this test runtime');
    return false;
  }
}
const doms: DomImpl[] = jsdomLoads() ? ['linkedom', 'jsdom'] : ['linkedom'];

describe.each<DomImpl>(doms)('extractHtml (%s)', (dom) => {
  const run = (html: string, url = URL) => extractHtml(html, { url, dom });

  it('drops the control bytes a page carries by mistake from its title, text, markdown and JSON-LD', () => {
    const ld =
      '{"@type":"NewsArticle","headline":"Budget\u0000 talks","author":{"@type":"Person","name":"Ana\u0007 Lee"}}';
    const got = run(
      page(
        `<title>Budget\u0000 talks resume</title><script type="application/ld+json">${ld}</script>`,
        `<h1>Budget\u0000 talks resume</h1>${body().replace('enough words', 'enough\u0000 words\u0008')}`,
      ),
    );
    expect(got.title).toBe('Budget talks resume');
    expect(got.author).toBe('Ana Lee');
    expect(got.body_text).toContain('has enough words to count');
    expect(`${got.title}${got.body_text}${got.body_markdown}`).not.toMatch(/[\u0000-\u0008]/);
  });

  it("takes the author's name, not a byline element left with only its label or reading time", () => {
    const html = (byline: string) =>
      page('<title>A Story</title>', `<h1>A Story</h1><div class="meta">${byline}</div>${body()}`);
    // Readability reads `By` from the label's element as the byline.
    const label = html('<p class="authors--byline">By</p><p itemprop="author">Sara Brown</p>');
    expect(run(label).author).toBe('Sara Brown');
    const heading = html('<h3 class="author-title">The Author</h3><p class="author-name">Nicole Burke</p>');
    expect(run(heading).author).toBe('Nicole Burke');
  });

  it("reads a WebPage's mainEntity as the page's JSON-LD: a thread's first post dates it, not a later post", () => {
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      mainEntity: {
        '@type': 'DiscussionForumPosting',
        headline: 'Digital Cameras: A 2024 status symbol?',
        datePublished: '2024-01-10T17:47:16+00:00',
        author: { '@type': 'Person', name: 'Kevin' },
      },
    };
    const html = page(
      `<title>News - Digital Cameras: A 2024 status symbol? | Cameraderie</title><script type="application/ld+json">${JSON.stringify(ld)}</script>`,
      `<h1>Digital Cameras: A 2024 status symbol?</h1><p>Posted <time datetime="2024-01-12T00:11:34Z">Jan 12, 2024</time></p>${body()}`,
    );
    const got = run(html, 'https://cameraderie.org/threads/digital-cameras.56948/');
    expect(got.published_at).toBe('2024-01-10T17:47:16Z');
  });

  it('keeps paragraph breaks and drops markup and chrome', () => {
    const result = run(page('<title>T</title>', `<h2>Heading</h2><p>One <b>bold</b> line.<br>Next line.</p>${body()}`));
    expect(result.body_text.startsWith('Heading\n\nOne bold line.\nNext line.\n\n')).toBe(true);
    expect(result.body_text).not.toMatch(/<|Footer text/);
    expect(result.textLength).toBe(result.body_text.length);
    expect(result.word_count).toBeGreaterThan(100);
  });

  it('falls back to the visible body text when there is no article', () => {
    const html =
      '<html><body><nav>Menu</nav><div>Short note.</div><script>var x = 1;</script><footer>F</footer></body></html>';
    expect(run(html).body_text).toBe('Short note.');
  });

  it('gives no main text for a page its scripts build, which serves only its footer', () => {
    // A shop's item page as served (its scripts draw the item): an empty app root, then the site's
    // footer, which Readability falls back to.
    const languages = [
      'Russian',
      'Portuguese',
      'Spanish',
      'French',
      'German',
      'Italian',
      'Dutch',
      'Turkish',
      'Japanese',
    ];
    const footer = `<footer><div><dl><dt><h5>Our shop in other languages</h5></dt><dd>${languages.map((name) => `<a>${name}</a>`).join(',\n  ')}</dd></dl></div></footer>`;
    const shell = `<html><head><title>Keyboard</title></head><body><div id="root"></div><script src="/app.js"></script>${footer}</body></html>`;
    const result = run(shell);
    expect(result.body_text).toBe('');
    expect(result.word_count).toBe(0);
    expect(result.title).toBe('Keyboard');
    // The same footer under a page's own text stays out of it, and the text stays.
    const served = run(shell.replace('<div id="root"></div>', '<main><p>A short note on this keyboard.</p></main>'));
    expect(served.body_text).toBe('A short note on this keyboard.');
    // A page's own words repeated in its footer are still its text.
    const blurb = 'We make keyboards in a small workshop by the sea.';
    const about = `<html><head><title>About</title></head><body><main><p>${blurb}</p></main><footer><p>${blurb}</p><p>Contact, Returns, Shipping</p></footer></body></html>`;
    expect(run(about).body_text).toBe(blurb);
  });

  it('reads a page written in upper case as one in lower case: its links, robots directives and metadata', () => {
    const html =
      '<HTML LANG="de"><HEAD><TITLE>Faltschnitt</TITLE><META NAME="author" CONTENT="Erik Demaine">' +
      '<META PROPERTY="og:site_name" CONTENT="Faltarchiv"><META NAME="description" CONTENT="Ein Schnitt nach dem Falten.">' +
      '<META NAME="ROBOTS" CONTENT="NOINDEX"><LINK REL="canonical" HREF="https://erikdemaine.org/foldcut/index.html">' +
      `</HEAD><BODY><H1>Faltschnitt</H1><P CLASS="lead">${PARA.repeat(3)} Siehe <A HREF="../papers/">die Arbeiten</A>.</P>` +
      `<P>${PARA.repeat(3)}</P><P><IMG SRC="img/fold.png" ALT="Eine Faltung"></P></BODY></HTML>`;
    const got = extractHtml(html, { url: 'https://erikdemaine.org/foldcut/', dom });
    expect(got.body_markdown).toContain('[die Arbeiten](https://erikdemaine.org/papers/)');
    expect(got.body_markdown).toContain('![Eine Faltung](https://erikdemaine.org/foldcut/img/fold.png)');
    expect(got.links).toContain('https://erikdemaine.org/papers/');
    // A page that asks in upper case not to be indexed is not.
    expect(got.robots).toEqual({ noindex: true, nofollow: false });
    expect(got.canonicalUrl).toBe('https://erikdemaine.org/foldcut/index.html');
    expect([got.author, got.site_name, got.excerpt]).toEqual([
      'Erik Demaine',
      'Faltarchiv',
      'Ein Schnitt nach dem Falten.',
    ]);
  });

  it('prefers og:title and strips the site name', () => {
    const head =
      '<title>Big Story | Example News</title><meta property="og:title" content="Big Story - Example News"><meta property="og:site_name" content="Example News">';
    const result = run(page(head));
    expect(result.title).toBe('Big Story');
    expect(result.site_name).toBe('Example News');
  });

  it("names the site by its title's part that its address spells, before the publisher's name", () => {
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'Article',
      publisher: { name: 'Wikimedia Foundation, Inc.' },
    };
    const head = (title: string) =>
      `<title>${title}</title><script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const wiki = 'https://en.wikipedia.org/wiki/Barack_Obama';
    expect(run(page(head('Barack Obama - Wikipedia')), wiki).site_name).toBe('Wikipedia');
    // The address spells no part of the title: the publisher it is.
    expect(run(page(head('Barack Obama - Biography')), wiki).site_name).toBe('Wikimedia Foundation, Inc.');
    // A part the address spells, without structured data: `The Verge` for theverge.com.
    expect(run(page('<title>Review: a phone | The Verge</title>'), 'https://www.theverge.com/r/1').site_name).toBe(
      'The Verge',
    );
    expect(run(page('<title>Review: a phone | The Verge</title>'), 'https://example.org/r/1').site_name).toBeNull();
  });

  it('reads JSON-LD headline, author, date and publisher, also inside @graph', () => {
    const ld = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'Graph Site' },
        {
          '@type': 'NewsArticle',
          headline: 'Graph Headline',
          datePublished: '2024-05-17T08:00:00+02:00',
          author: [{ '@type': 'Person', name: 'Ann Lee' }, { name: 'Bo Chen' }],
        },
      ],
    };
    const head = `<title>Graph Headline</title><script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const result = run(page(head), 'https://example.com/story');
    expect(result.title).toBe('Graph Headline');
    expect(result.published_at).toBe('2024-05-17T06:00:00Z');
    expect(result.author).toBe('Ann Lee, Bo Chen');
    expect(result.site_name).toBe('Graph Site');
  });

  it("reads a site name without the tagline og:site_name adds to its JSON-LD publisher's name", () => {
    const ld = { '@context': 'https://schema.org', '@type': 'NewsArticle', publisher: { name: 'Zpravy.cz' } };
    const head = (siteName: string) =>
      `<meta property="og:site_name" content="${siteName}"><script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    expect(run(page(head('Zpravy.cz - Víte, co se děje'))).site_name).toBe('Zpravy.cz');
    expect(run(page(head('Zpravy.cz | Zprávy z domova'))).site_name).toBe('Zpravy.cz');
    // Another name, or the name going on in words, is the site's own.
    expect(run(page(head('Zpravy.cz Sport'))).site_name).toBe('Zpravy.cz Sport');
    expect(run(page(head('Denik'))).site_name).toBe('Denik');
  });

  it('takes meta author and article:published_time, cleaned', () => {
    const head =
      '<title>X</title><meta name="author" content="By Jane Doe"><meta property="article:published_time" content="2023-01-02T03:04:05Z">';
    const result = run(page(head));
    expect(result.author).toBe('Jane Doe');
    expect(result.published_at).toBe('2023-01-02T03:04:05Z');
  });

  it("takes the writer a Twitter card's label names (Yoast SEO), not its other data", () => {
    const yoast =
      '<title>X</title><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Chase Bernath">' +
      '<meta name="twitter:label2" content="Est. reading time"><meta name="twitter:data2" content="7 minutes">';
    expect(run(page(yoast)).author).toBe('Chase Bernath');
    const other =
      '<title>X</title><meta name="twitter:label1" content="Reading time"><meta name="twitter:data1" content="5 mins">';
    expect(run(page(other)).author).toBeNull();
    // A name the page declares otherwise comes first.
    expect(run(page(`${yoast}<meta name="author" content="Jane Doe">`)).author).toBe('Jane Doe');
  });

  it("reads a paper's authors from its citation_author tags, each `Last, First` turned around", () => {
    const tags = (names: string[]) => names.map((name) => `<meta name="citation_author" content="${name}">`).join('');
    const paper = (names: string[]) =>
      run(page(`<title>Mesh</title>${tags(names)}<meta name="citation_title" content="Mesh">`), 'https://example.org/p')
        .author;
    expect(paper(['Berger, Emery D.'])).toBe('Emery D. Berger');
    expect(paper(['Powers, Bobby', 'Tench, David', 'Berger, Emery D.', 'McGregor, Andrew'])).toBe(
      'Bobby Powers, David Tench, Emery D. Berger, Andrew McGregor',
    );
    expect(paper(['Grace Hopper'])).toBe('Grace Hopper');
    // A name the page declares as the author comes first.
    expect(
      run(page(`<title>Mesh</title><meta name="author" content="Jane Doe">${tags(['Berger, Emery'])}`)).author,
    ).toBe('Jane Doe');
  });

  it('ignores a URL in article:author and uses a byline element', () => {
    const head = '<title>X</title><meta property="article:author" content="https://facebook.com/jane">';
    const result = run(page(head, `<p class="byline">By Sam Smith</p>${body()}`));
    expect(result.author).toBe('Sam Smith');
  });

  it("reads a dateline written as loose text beside the post's blocks, and a label there too", () => {
    const url = 'https://blog.example.com/post';
    const blog = `<h1>Roger's Blog</h1><fieldset><legend>Advent of Code week 2</legend> 20 December 2025 <div>${body()}</div></fieldset>`;
    expect(extractHtml(page('<title>Roger</title>', blog), { url }).published_at).toBe('2025-12-20T00:00:00Z');
    // `Last active` says when something else happened: not the page's date.
    const gist = `<h1>writeup.md</h1><div>Last active <relative-time>December 20, 2025</relative-time> <div>${body()}</div></div>`;
    expect(extractHtml(page('<title>Gist</title>', gist), { url }).published_at).toBeNull();
  });

  it("dates a question by its own dateCreated, not by an answer's or a comment's datePublished", () => {
    const question = `<div itemprop="mainEntity" itemscope itemtype="https://schema.org/Question">
      <h1 itemprop="name">Why is except: pass bad?</h1>
      <time itemprop="dateCreated" datetime="2014-02-04T10:01:02.763Z+00:00">Asked</time>
      <div itemprop="text">${body()}</div>
      <ul><li itemprop="comment" itemscope itemtype="https://schema.org/Comment">Good question
        <span itemprop="datePublished" content="2018-05-21T20:37:55">May 21, 2018</span></li></ul>
      <div itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer">
        <time itemprop="dateCreated" datetime="2014-02-05T00:00:00Z">answered</time><p>Because.</p></div>
    </div>`;
    const url = 'https://qa.example.org/questions/1/why';
    expect(extractHtml(page('<title>Why is except: pass bad?</title>', question), { url }).published_at).toBe(
      '2014-02-04T10:01:02Z',
    );
  });

  it("does not date a page by a related article card's microdata, but by its own article's", () => {
    const url = 'https://example.com/services/human-resources';
    const card = (path: string, date: string) =>
      `<a href="https://example.com/insights/${path}/" class="article" itemscope itemtype="https://schema.org/NewsArticle">` +
      `<meta itemprop="url" content="https://example.com/insights/${path}/"><meta itemprop="datePublished" content="${date}">` +
      `<article class="post"><h3 itemprop="name">${path}</h3><p>Learn more</p></article></a>`;
    const related = `<h2>Related Insights</h2><div>${card('outlook-2026', 'December 2, 2025')}${card('longevity', 'October 28, 2025')}</div>`;
    const service = `<h1>Human resources</h1>${body()}${related}`;
    expect(run(page('<title>Human resources</title>', service), url).published_at).toBeNull();
    const own =
      `<div itemscope itemtype="https://schema.org/BlogPosting"><h1 itemprop="headline">Human resources</h1>` +
      `<time itemprop="datePublished" datetime="2024-04-05">April 5</time>${body()}</div>`;
    expect(run(page('<title>Human resources</title>', `${related}${own}`), url).published_at).toBe(
      '2024-04-05T00:00:00Z',
    );
  });

  it('reads meta date names, itemprop and <time>, then the URL', () => {
    expect(
      run(page('<title>X</title><meta name="parsely-pub-date" content="2022-03-04T05:06:07Z">')).published_at,
    ).toBe('2022-03-04T05:06:07Z');
    expect(
      run(page('<title>X</title>', `<span itemprop="datePublished" content="2021-02-03">x</span>${body()}`))
        .published_at,
    ).toBe('2021-02-03T00:00:00Z');
    expect(
      run(page('<title>X</title>', `<time datetime="2020-01-02T03:04:05Z">Jan 2</time>${body()}`)).published_at,
    ).toBe('2020-01-02T03:04:05Z');
    expect(run(page('<title>X</title>')).published_at).toBe('2024-05-17T00:00:00Z');
    expect(run(page('<title>X</title>'), 'https://example.com/about').published_at).toBeNull();
    // Only a last-modified date: not when the page was published (a product or documentation page
    // changed last week); a published one is read beside it.
    const modified = '<meta property="article:modified_time" content="2025-10-08T21:33:14Z">';
    expect(run(page(`<title>X</title>${modified}`), 'https://example.com/about').published_at).toBeNull();
    const updated = '<script type="application/ld+json">{"@type":"WebPage","dateModified":"2025-10-08"}</script>';
    expect(run(page(`<title>X</title>${updated}`), 'https://example.com/about').published_at).toBeNull();
    expect(
      run(page(`<title>X</title>${modified}<meta name="date" content="2025-01-02T00:00:00Z">`), 'https://example.com/a')
        .published_at,
    ).toBe('2025-01-02T00:00:00Z');
    // A template's generic `date` (two-digit year, the same on every page) gives way to a date
    // that says it is the publication's.
    const both = `<meta name="date" content="01/07/16"><meta property="og:published_time" content="2024-10-08T00:00:00-04:00">`;
    expect(run(page(`<title>X</title>${both}`), 'https://example.com/a').published_at).toBe('2024-10-08T04:00:00Z');
  });

  it("reads a publication date a meta tag names in its vendor's words, the earliest of them", () => {
    const at = (metas: string) => run(page(`<title>X</title>${metas}`), 'https://example.com/a').published_at;
    expect(at('<meta name="w-published-date" content="2025-05-27T06:03:43.274Z">')).toBe('2025-05-27T06:03:43Z');
    expect(at('<meta name="cXenseParse:publishtime" content="2023-10-17T18:01:33-04:00">')).toBe(
      '2023-10-17T22:01:33Z',
    );
    expect(at('<meta property="article:first_published_time" content="2026-01-23T15:02:00+00:00">')).toBe(
      '2026-01-23T15:02:00Z',
    );
    // The page's build time beside the article's date: the earlier is the publication.
    expect(
      at(
        '<meta name="published-time" content="2026-03-09T08:45:32Z"><meta name="published-date" content="2021-02-16">',
      ),
    ).toBe('2021-02-16T00:00:00Z');
    // Other events, a publisher, and values that are no date.
    expect(at('<meta name="cdc:last_published" content="2024-07-05T14:27:23Z">')).toBeNull();
    expect(at('<meta name="dcterms.publisher" content="2024-07-05">')).toBeNull();
    expect(at('<meta name="auto-publish" content="timely"><meta name="publish_time" content="17:00">')).toBeNull();
  });

  it("reads the dateline under the headline in the page's language", () => {
    const main = `<h1>Neue Regeln für den Nahverkehr</h1><p class="meta">Von Max Mustermann · 19. März 2025</p>${body()}`;
    expect(
      run(page('<title>Neue Regeln</title>', main, 'lang="de"'), 'https://example.de/nahverkehr').published_at,
    ).toBe('2025-03-19T00:00:00Z');
    const es = `<h1>Nuevas reglas</h1><p>Por Ana Pérez, 19 de diciembre de 2025</p>${body()}`;
    expect(run(page('<title>Nuevas reglas</title>', es, 'lang="es"'), 'https://example.es/reglas').published_at).toBe(
      '2025-12-19T00:00:00Z',
    );
  });

  it("reads a dateline with the headline, not a date further down the page's opening text", () => {
    const intro = (n: number) =>
      Array.from({ length: n }, (_, i) => `<p>Option ${i}: print only the matching part of each line.</p>`).join('');
    // A man page: its synopsis and options, then `created 2026-01-16` far below the name.
    const far = `<h1>grep(1) manual page</h1>${intro(16)}<p>HTML rendering created 2026-01-16 by the maintainer</p>`;
    expect(run(page('<title>grep</title>', far), 'https://example.org/man/grep').published_at).toBeNull();
    const near = `<h1>grep(1) manual page</h1><p>Updated 2026-01-16</p>${intro(16)}`;
    expect(run(page('<title>grep</title>', near), 'https://example.org/man/grep').published_at).toBe(
      '2026-01-16T00:00:00Z',
    );
  });

  it('gives a page of dated items no date of its first item, unless it is a thread or a declared article', () => {
    const items = Array.from(
      { length: 6 },
      (_, i) =>
        `<li><a href="/news/${i}">News item number ${i} with a headline</a> <time datetime="2025-12-0${i + 1}">Dec ${i + 1}</time>` +
        `<p>${PARA}</p></li>`,
    ).join('');
    const listing = `<h1>Latest news</h1><ul>${items}</ul>`;
    expect(run(page('<title>News</title>', listing), 'https://example.com/news').published_at).toBeNull();
    const article = '<meta property="og:type" content="article">';
    expect(run(page(`<title>News</title>${article}`, listing), 'https://example.com/news').published_at).toBe(
      '2025-12-01T00:00:00Z',
    );
    const posts = Array.from(
      { length: 6 },
      (_, i) =>
        `<div class="post" data-author="user${i}"><time datetime="2025-12-0${i + 1}">Dec ${i + 1}</time><p>${PARA}</p></div>`,
    ).join('');
    expect(
      run(page('<title>Thread</title>', `<h1>A question</h1>${posts}`), 'https://example.com/t/1').published_at,
    ).toBe('2025-12-01T00:00:00Z');
    // Fewer dates: an article's own and a related item's.
    const two = `<h1>Story</h1><time datetime="2025-11-01">Nov 1</time>${body()}<aside><time datetime="2025-10-01">x</time></aside>`;
    expect(run(page('<title>Story</title>', two), 'https://example.com/s').published_at).toBe('2025-11-01T00:00:00Z');
  });

  it('reads JSON-LD datePublished of an article or another work, not of the WebPage around it', () => {
    const graph = (nodes: string) => `<script type="application/ld+json">{"@graph":[${nodes}]}</script>`;
    const webPage = '{"@type":"WebPage","datePublished":"2019-04-01T22:15:58Z"}';
    const about = 'https://example.com/services/consulting';
    expect(run(page(`<title>X</title>${graph(webPage)}`), about).published_at).toBeNull();
    expect(
      run(page(`<title>X</title>${graph('{"@type":["WebPage","FAQPage"],"datePublished":"2019-04-01"}')}`), about)
        .published_at,
    ).toBeNull();
    const posting = '{"@type":"BlogPosting","datePublished":"2024-05-06T07:08:09Z"}';
    expect(run(page(`<title>X</title>${graph(`${webPage},${posting}`)}`), about).published_at).toBe(
      '2024-05-06T07:08:09Z',
    );
    const video = '{"@type":"VideoObject","datePublished":"2023-01-02T03:04:05Z"}';
    expect(run(page(`<title>X</title>${graph(`${webPage},${video}`)}`), about).published_at).toBe(
      '2023-01-02T03:04:05Z',
    );
  });

  it("takes a forum's first poster (data-author) over Readability's byline, unless it is only the byline's slug", () => {
    const post = (who: string, card: string) =>
      `<article class="message" data-author="${who}"><div class="${card}">${who}</div>${body(2)}</article>`;
    const forum = page('<title>Thread</title>', `<h1>Thread</h1>${post('Kevin', 'user')}${post('Rick', 'author')}`);
    expect(run(forum, 'https://forum.example.com/threads/1').author).toBe('Kevin');
    const article = page(
      '<title>Story</title>',
      `<h1>Story</h1><div data-author="elaine-chen"><span class="byline">By Elaine Chen</span></div>${body()}`,
    );
    expect(run(article, 'https://example.com/story').author).toBe('Elaine Chen');
  });

  it('leaves the box about the author under the article out of its text, and reads the byline', () => {
    const bio = 'Irene is an experienced writer with five years of experience in tech and food.';
    const main = `<h1>Story</h1><div class="author-box"><span class="author-name">Irene Adler</span></div>${body()}<div class="cs-entry__author-description"><p>${bio}</p></div>`;
    const result = run(page('<title>Story</title>', main), 'https://example.com/story');
    expect(result.body_text).toContain('This paragraph has enough words');
    expect(result.body_text).not.toContain('Irene is an experienced writer');
    expect(result.author).toBe('Irene Adler');
  });

  it("never takes a quoted customer's or reviewer's name for the page's author", () => {
    const service = (quote: string) =>
      `<!DOCTYPE html><html lang="en"><head><title>Payments</title></head><body><main><h1>Payments</h1>${body()}${quote}</main></body></html>`;
    // Readability's own byline test matches `authorInfo`; the block is a customer quote.
    const customer =
      '<div class="CustomerQuotes_root"><p>We moved our billing in a week.</p><div class="CustomerQuotes_authorInfo__Ek5Z"><span>Gabriel Peal</span><span>OpenAI</span></div></div>';
    expect(run(service(customer), 'https://pay.example.com/').author).toBeNull();
    const review =
      '<div class="review-card"><p>The ants were gone in a week.</p><div class="review-author">~ Rachel M.</div></div>';
    expect(run(service(review), 'https://pay.example.com/').author).toBeNull();
    const quoted = '<blockquote><p>Best decision we made.</p><span class="author">Kyle Bonds</span></blockquote>';
    expect(run(service(quoted), 'https://pay.example.com/').author).toBeNull();
    // The article's own byline still counts, and so does one beside a quote.
    const article = page(
      '<title>Story</title>',
      `<h1>Story</h1><span class="author">Ann Lee</span>${body()}<blockquote><p>A quote.</p><cite class="author">Bo Chen</cite></blockquote>`,
    );
    expect(run(article, 'https://example.com/story').author).toBe('Ann Lee');
  });

  it('shows a forum post once when a later reply quotes it, in the text and the markdown', () => {
    const first = 'Has anyone tried the new firmware on the outdoor camera, and does it still drop at night?';
    const reply = `<blockquote><p>${first}</p></blockquote><p>${PARA.repeat(3)}</p>`;
    const thread = page(
      '<title>Thread</title>',
      `<h1>Thread</h1><div class="post"><p>${first}</p>${body(2)}</div><div class="post">${reply}</div>`,
    );
    const result = extractHtml(thread, { url: 'https://forum.example.com/threads/2', dom });
    expect(result.body_text.split('Has anyone tried').length).toBe(2);
    expect(result.body_markdown.split('Has anyone tried').length).toBe(2);
  });

  it('gives the markdown links and images resolved against the page, after its <base href>', () => {
    const main = `<h1>Guide</h1>${body(3)}<p>Read <a href="start.html">the start</a> and <a href="/faq">the FAQ</a>.</p><p><img src="img/a.png" alt="Diagram"></p>${body(2)}`;
    const own = run(page('<title>Guide</title>', main)).body_markdown;
    expect(own).toContain('[the start](https://news.example.com/2024/05/17/start.html)');
    expect(own).toContain('[the FAQ](https://news.example.com/faq)');
    expect(own).toContain('![Diagram](https://news.example.com/2024/05/17/img/a.png)');
    const based = run(page('<title>Guide</title><base href="https://cdn.example.com/docs/">', main)).body_markdown;
    expect(based).toContain('[the start](https://cdn.example.com/docs/start.html)');
    expect(based).toContain('[the FAQ](https://cdn.example.com/faq)');
  });

  it("leaves a photo's caption out of the text, not the markdown, and keeps a table's caption in both", () => {
    const main =
      `${body(3)}<figure><img src="/tent.jpg" alt="A tent by the lake"><figcaption>Our camp on the second night. ` +
      'Credit: Chris McNamara</figcaption></figure>' +
      `${body(2)}<figure><table><tr><th>Day</th><th>Miles</th></tr><tr><td>1</td><td>12</td></tr></table>` +
      `<figcaption>Table 1: miles walked each day</figcaption></figure>${body(2)}`;
    const result = run(page('<title>Trip</title>', `<h1>Trip</h1>${main}`));
    expect(result.body_text).not.toContain('Credit');
    expect(result.body_text).toContain('Table 1: miles walked each day');
    expect(result.body_markdown).toContain('A tent by the lake');
    expect(result.body_markdown).toContain('*Our camp on the second night. Credit: Chris McNamara*');
    expect(result.body_markdown).toContain('Table 1: miles walked each day');
  });

  it('drops a table of contents (links into the page), not lists of other links or with text of their own', () => {
    const section = (id: string, heading: string) => `<h2 id="${id}">${heading}</h2><p>${PARA.repeat(2)}</p>`;
    const toc =
      '<ol><li><a href="#setup">Setting up the bench</a></li><li><a href="#cuts">Making the cuts</a></li><li><a href="#finish">Oiling the finish</a></li></ol>';
    const explained =
      '<ul><li><a href="#setup">Setup</a> covers choosing timber, measuring twice and clamping the boards</li><li><a href="#cuts">Cuts</a> explains the saw</li><li><a href="#finish">Finish</a> is about oil</li></ul>';
    const app =
      '<ul><li><a href="#!/home">Workshop home</a></li><li><a href="#/tools">Workshop tools</a></li><li><a href="#!/shop">Workshop shop</a></li></ul>';
    const html = page(
      '<title>Build a bench</title>',
      `<h1>Build a bench</h1>${toc}${explained}${app}${section('setup', 'Setting up the bench')}${section('cuts', 'Making the cuts')}${section('finish', 'Oiling the finish')}`,
    );
    const result = extractHtml(html, { url: 'https://example.com/bench', dom });
    // The headings once each (no list repeating them), in the text and the markdown.
    for (const heading of ['Setting up the bench', 'Making the cuts', 'Oiling the finish']) {
      expect(result.body_text.split(heading).length).toBe(2);
      expect(result.body_markdown.split(heading).length).toBe(2);
    }
    expect(result.body_text).toContain('covers choosing timber');
    expect(result.body_text).toContain('Workshop tools');
  });

  it('keeps collapsed content a browser finds (hidden="until-found"), not hidden blocks', () => {
    const answers = ['Tides are driven by the moon and the sun together.', 'Spring tides come twice a month.']
      .map((answer, i) => `<h3>Question ${i + 1}</h3><div hidden="until-found"><p>${answer} ${PARA}</p></div>`)
      .join('');
    const html = page(
      '<title>Tides</title>',
      `<h1>Tides</h1><p>${PARA}</p>${answers}<div hidden><p>Unpublished draft about neap tides. ${PARA}</p></div>`,
    );
    const result = run(html);
    expect(result.body_text).toContain('Tides are driven by the moon');
    expect(result.body_text).toContain('Spring tides come twice a month.');
    expect(result.body_text).not.toContain('Unpublished draft');
  });

  it("drops a table of contents' label with it, and one whose links name the page's own address", () => {
    const section = (id: string, heading: string) => `<h2 id="${id}">${heading}</h2><p>${PARA.repeat(2)}</p>`;
    const links = (base: string) =>
      `<li><a href="${base}#setup">Setting up the bench</a></li><li><a href="${base}#cuts">Making the cuts</a></li><li><a href="${base}#finish">Oiling the finish</a></li>`;
    const sections = `${section('setup', 'Setting up the bench')}${section('cuts', 'Making the cuts')}${section('finish', 'Oiling the finish')}`;
    const wrapped = `<div class="toc"><div class="toc-title"><p>Table of Contents</p><span>Toggle</span></div><nav><ul>${links('')}</ul></nav></div>`;
    const labelled = `<h3>In this article</h3><ol>${links('https://example.com/bench/')}</ol>`;
    const other = `<h3>Contents</h3><ul>${links('https://example.com/other')}</ul>`;
    for (const toc of [wrapped, labelled]) {
      const html = page('<title>Build a bench</title>', `<h1>Build a bench</h1>${toc}${sections}`);
      const result = extractHtml(html, { url: 'https://example.com/bench', dom });
      expect(result.body_text).not.toMatch(/Table of Contents|Toggle|In this article/);
      expect(result.body_text.split('Making the cuts').length).toBe(2);
    }
    // Links to another page's sections are no table of this page's contents.
    const result = extractHtml(page('<title>Build a bench</title>', `<h1>Build a bench</h1>${other}${sections}`), {
      url: 'https://example.com/bench',
      dom,
    });
    expect(result.body_text.split('Making the cuts').length).toBe(3);
  });

  it("keeps an article's lead from a header box Readability would drop by its name (MDN's layout__header)", () => {
    const lead =
      'The flexible box layout module is a one-dimensional layout model for distributing space between items.';
    const bio =
      'Jane Writer is a staff author who has covered web layout, browsers and the standards behind them for many years now.';
    const consent = 'We use cookies and similar technologies for analytics and advertising; change your choices here.';
    const sections = ['The two axes', 'The flex container', 'Multi-line containers']
      .map(
        (heading) =>
          `<section class="content-section"><h2>${heading}</h2><p>${PARA.repeat(3)}</p><p>${PARA.repeat(2)}</p></section>`,
      )
      .join('');
    const html = `<!DOCTYPE html><html lang="en"><head><title>Basic concepts of flexbox - CSS | MDN</title></head><body>
      <header class="page-layout__header"><nav><a href="/">MDN</a><a href="/docs">Docs</a></nav></header>
      <main><div class="layout__header reference-layout__header"><h1>Basic concepts of flexbox</h1>
        <section class="content-section"><p>${lead}</p><p class="mobile-only">${lead}</p><div class="author-bio"><p>${bio}</p></div></section></div>
      <aside class="layout__sidebar"><ul><li><a href="/a">Other guide</a></li></ul></aside>
      <div class="layout__body reference-layout__body">${sections}</div></main>
      <div class="gdpr-overlay"><h1>Your privacy settings</h1><p>${consent}</p></div></body></html>`;
    const result = extractHtml(html, { url: 'https://developer.example.org/docs/flexbox', dom });
    expect(result.body_text.startsWith(lead)).toBe(true);
    expect(result.body_text.split(lead).length).toBe(2);
    expect(result.body_markdown.split(lead).length).toBe(2);
    expect(result.body_text).toContain('Multi-line containers');
    expect(result.body_text).not.toContain('Jane Writer');
    expect(result.body_text).not.toContain('We use cookies');
  });

  it("keeps a list page's data table of linked names that Readability would drop by its class (Wikipedia's sticky-header)", () => {
    const row = (i: number) =>
      `<tr><td>${1901 + i}</td><td><a href="/wiki/P${i}">Physicist Number${i}</a></td><td><a href="/wiki/C${i}">Chemist Number${i}</a></td></tr>`;
    const rows = Array.from({ length: 40 }, (_, i) => row(i)).join('');
    const list = page(
      '<title>List of laureates - Wikipedia</title>',
      `<h1>List of laureates</h1>${body(2)}<table class="wikitable sortable sticky-header"><tr><th>Year</th><th>Physics</th><th>Chemistry</th></tr>${rows}</table><p>${PARA}</p>`,
    );
    const result = extractHtml(list, { url: 'https://en.wikipedia.org/wiki/List_of_laureates', dom });
    expect(result.body_text).toContain('Physicist Number39');
    expect(result.body_text).toContain('Chemist Number0');
    expect(result.body_markdown).toMatch(/\|\s*1940\s*\|/);
  });

  it('repairs the text of a page saved twice as UTF-8 (let\u00e2\u20ac\u2122s), in the text and the markdown', () => {
    const broken = `<p>Now letâ€™s take a peek at the rates â€” theyâ€™re surprisingly low for most owners.</p>${body(3)}`;
    const result = extractHtml(page('<title>Rates</title>', broken), { url: URL, dom });
    expect(result.body_text).toContain('Now let’s take a peek at the rates — they’re surprisingly low');
    expect(result.body_markdown).toContain('let’s take a peek');
    expect(result.body_text).not.toContain('â€');
  });

  it('leaves out paragraphs and lines that show nothing (a zero-width joiner), mojibake repaired or not', () => {
    // Webflow fills empty paragraphs with a joiner; saved twice as UTF-8 it reads `â€\u008d`.
    const zwj = `<div class="w-richtext"><p>Intro here.</p><p>\u200d</p><p>\u200b\u00a0</p>${body(2)}<p>Outro there.<br>\u200d</p><p>\u200d</p></div>`;
    const broken = `<p>Now letâ€™s see â€” theyâ€™re low.</p><p>â€\u008d</p>${body(2)}<p>End.<br>â€\u008d</p>`;
    for (const main of [zwj, broken]) {
      const result = extractHtml(page('<title>Rates</title>', main), { url: URL, dom });
      for (const text of [result.body_text, result.body_markdown]) {
        expect(text.split('\n').filter((line) => /^[\s\u200b\u200d]+$/.test(line))).toEqual([]);
        expect(text).not.toMatch(/\n{3,}/);
      }
    }
    // A joiner inside a word or an emoji stays.
    const kept = extractHtml(page('<title>Rates</title>', `<p>Family \u{1f468}\u200d\u{1f469} day.</p>${body(2)}`), {
      url: URL,
      dom,
    });
    expect(kept.body_text).toContain('Family \u{1f468}\u200d\u{1f469} day.');
  });

  it('drops the stray \u00c2 of no-break spaces and signs saved twice as UTF-8, in the text and the markdown', () => {
    const broken = `<h2>1.\u00c2\u00a0\u00c2\u00a0Myth: all fat is bad</h2><p>Rates start at $12 with Embrace\u00c2\u00a0</p><p>Prices vary widely. \u00c2\u00a0\u00c2\u00a0\u00c2\u00a0</p><p>\u00c2\u00a9 2025 Embrace Pet Insurance.</p>${body(3)}`;
    const result = extractHtml(page('<title>Rates</title>', broken), { url: URL, dom });
    expect(result.body_text).toContain('Rates start at $12 with Embrace\n');
    expect(result.body_text).toContain('1. Myth: all fat is bad');
    expect(result.body_text).toContain('Prices vary widely.\n');
    expect(result.body_text).toContain('\u00a9 2025 Embrace');
    expect(result.body_text).not.toContain('\u00c2');
    expect(result.body_markdown).not.toContain('\u00c2');
  });

  it('reads the dateline of an English page that quotes a few Han characters', () => {
    const html = page(
      '<title>Metadata workflows</title>',
      `<h1>Metadata workflows</h1><p class="date">Last updated on 17 December 2025</p><p>Our archive (档案) grew.</p>${body()}`,
    );
    expect(run(html, 'https://example.com/blog/metadata').published_at).toBe('2025-12-17T00:00:00Z');
  });

  it('reads a Chinese dateline near the title as UTC+8', () => {
    const zh = '<p>今天天气很好，我们一起去公园散步，看到了很多美丽的花朵和高大的树木，心情非常愉快。</p>'.repeat(8);
    const html = page(
      '<title>公园散步_新闻</title>',
      `<h1>公园散步</h1><div>2024年5月17日 08:30 来源：本报 记者 王小明</div>${zh}`,
      'lang="zh-CN"',
    );
    const result = run(html, 'https://example.cn/a.html');
    expect(result.lang).toBe('zh');
    expect(result.published_at).toBe('2024-05-17T00:30:00Z');
    expect(result.author).toBe('王小明');
  });

  it('trusts Chinese text over lang="en" markup', () => {
    const zh = '<p>今天天气很好，我们一起去公园散步，看到了很多美丽的花朵和高大的树木，心情非常愉快。</p>'.repeat(8);
    expect(run(page('<title>X</title>', zh, 'lang="en"')).lang).toBe('zh');
  });

  it('uses the Content-Language header when the markup says nothing', () => {
    const result = extractHtml(page('<title>X</title>', body(), ''), { url: URL, dom, contentLanguage: 'en-GB' });
    expect(result.lang).toBe('en');
  });

  it('resolves links against <base>, drops fragments, nofollow, sponsored, ugc, duplicates and non-http', () => {
    const main = `<a href="a.html#top">a</a><a href="a.html">a again</a><a href="/b">b</a><a href="https://other.org/c">c</a>
      <a rel="nofollow" href="/secret">n</a><a rel="sponsored noopener" href="/ad">s</a><a rel="UGC" href="/spam">u</a><a href="mailto:x@y.z">m</a><a href="javascript:void(0)">j</a>${body()}`;
    const result = run(page('<title>X</title><base href="https://cdn.example.com/dir/">', main));
    expect(result.links).toEqual([
      'https://cdn.example.com/home',
      'https://cdn.example.com/dir/a.html',
      'https://cdn.example.com/b',
      'https://other.org/c',
    ]);
  });

  it("follows the page's other languages and the next and previous pages its <link> elements name", () => {
    const head = [
      '<title>X</title>',
      '<link rel="alternate" hreflang="zh-Hans" href="/zh/">',
      '<link rel="alternate" hreflang="x-default" href="/">',
      '<link rel="next" href="?page=2">',
      '<link rel="prev" href="?page=0">',
      '<link rel="alternate" type="application/rss+xml" href="/feed.xml">',
      '<link rel="stylesheet" href="/s.css">',
      '<link rel="alternate" media="print" href="/print">',
    ].join('');
    expect(run(page(head, body())).links).toEqual([
      'https://news.example.com/home',
      'https://news.example.com/zh/',
      'https://news.example.com/',
      'https://news.example.com/2024/05/17/story.html?page=2',
      'https://news.example.com/2024/05/17/story.html?page=0',
    ]);
  });

  it('caps links at maxLinks', () => {
    const many = Array.from({ length: 20 }, (_, i) => `<a href="/p${i}">p</a>`).join('');
    expect(extractHtml(page('<title>X</title>', many + body()), { url: URL, dom, maxLinks: 5 }).links).toHaveLength(5);
  });

  it('reads canonical and robots directives; nofollow empties the links', () => {
    const head =
      '<title>X</title><link rel="canonical" href="/canon"><meta name="googlebot" content="noindex"><meta name="robots" content="nofollow">';
    const result = run(page(head));
    expect(result.canonicalUrl).toBe('https://news.example.com/canon');
    expect(result.robots).toEqual({ noindex: true, nofollow: true });
    expect(result.links).toEqual([]);
    expect(run(page('<title>X</title>')).robots).toEqual({ noindex: false, nofollow: false });
  });

  it('reads no canonical from a page naming two different ones, and one named twice as one', () => {
    const two = '<title>X</title><link rel="canonical" href="/a"><link rel="canonical" href="/b">';
    expect(run(page(two)).canonicalUrl).toBeNull();
    const twice =
      '<title>X</title><link rel="canonical" href="/a"><link rel="canonical" href="https://news.example.com/a">';
    expect(run(page(twice)).canonicalUrl).toBe('https://news.example.com/a');
    const emptyFirst = '<title>X</title><link rel="canonical" href=""><link rel="canonical" href="/a">';
    expect(run(page(emptyFirst)).canonicalUrl).toBe('https://news.example.com/a');
  });

  it("reads a robots meta named after the crawler's own bot name, not other bots'", () => {
    const head = '<title>X</title><meta name="QuarryBot" content="noindex"><meta name="otherbot" content="nofollow">';
    const own = extractHtml(page(head), { url: URL, dom, robotsAgent: 'quarrybot' });
    expect(own.robots).toEqual({ noindex: true, nofollow: false });
    expect(run(page(head)).robots).toEqual({ noindex: false, nofollow: false });
  });

  it('uses the meta description as excerpt, bounded', () => {
    const result = run(page(`<title>X</title><meta name="description" content="${'word '.repeat(200)}">`));
    expect(result.excerpt.length).toBeLessThanOrEqual(300);
    expect(result.excerpt.startsWith('word word')).toBe(true);
  });

  it('searches again on the restored page when the first search finds too little', () => {
    // Readability's first search drops `comment` blocks as unlikely; the text is only found on retry.
    const text = 'Retry paragraph text that Readability only finds on its second search, with commas, and clauses. ';
    const html = `<html><body><div class="comment"><p>${text.repeat(8)}</p><p>${text.repeat(4)}</p><br><br>Tail line</div></body></html>`;
    const result = run(html);
    expect(result.body_text).toContain(text.trim());
    expect(result.body_text.length).toBeGreaterThan(text.length * 10);
  });

  it('never runs scripts', () => {
    const html = page('<title>X</title><script>document.title = "hacked"; globalThis.__ran = true;</script>');
    expect(run(html).title).toBe('X');
    expect((globalThis as Record<string, unknown>).__ran).toBeUndefined();
  });
});

describe('extractHtml input handling', () => {
  it('handles fragments, empty input and junk before <html>', () => {
    expect(extractHtml('<p>Just a fragment of text.</p>', { url: URL }).body_text).toBe('Just a fragment of text.');
    const empty = extractHtml('', { url: URL });
    expect(empty.body_text).toBe('');
    expect(empty.lang).toBe('und');
    const wrapped = extractHtml(`<text id="x">\n${page('<title>Wrapped</title>')}</text>`, { url: URL });
    expect(wrapped.title).toBe('Wrapped');
    expect(wrapped.word_count).toBeGreaterThan(100);
  });

  it('reads a page nested deeper than any browser shows, where the recursive walks overflowed the stack', () => {
    const depth = 12_000;
    const html =
      `<html><head><title>Deep</title></head><body><article><p>${'Words of the article that comes first. '.repeat(20)}</p>` +
      `${'<span>'.repeat(depth)}the innermost words${'</span>'.repeat(depth)}</article></body></html>`;
    const got = extractHtml(html, { url: URL });
    expect(got.title).toBe('Deep');
    expect(got.body_text).toContain('Words of the article that comes first.');
    expect(got.body_text).toContain('the innermost words');
  });
});

describe('extractHtml on Chinese datelines', () => {
  const para = '这是一段足够长的中文新闻正文，用来让正文抽取算法把它当作文章来保留，并检测出中文。'.repeat(4);
  const zhPage = (head: string, top: string, end: string) =>
    `<html><head><meta charset="utf-8"><title>新闻标题</title>${head}</head><body><article><h1>学校开学防疫工作部署</h1>${top}<p>${para}</p><p>${para}</p><p>${para}${end}</p></article></body></html>`;

  it('gives a date-only meta the time of the dateline under the headline (China time)', () => {
    const page = extractHtml(
      zhPage('<meta name="publishdate" content="2022-02-13">', '<div>2022年02月13日07:48 | 来源：新华日报</div>', ''),
      { url: 'http://news.example.cn/a.html' },
    );
    expect(page.published_at).toBe('2022-02-12T23:48:00Z');
  });

  it('keeps the meta date when the dateline shows another day', () => {
    const page = extractHtml(
      zhPage('<meta name="publishdate" content="2022-02-13">', '<div>2022年02月10日07:48</div>', ''),
      { url: 'http://news.example.cn/a.html' },
    );
    expect(page.published_at).toBe('2022-02-12T16:00:00Z');
  });

  it('falls back to the date or issue the article closes with', () => {
    const page = extractHtml(zhPage('', '', '——《北京之春》1998年3月号'), { url: 'http://news.example.cn/a.html' });
    expect(page.published_at).toBe('1998-02-28T16:00:00Z');
  });
});

describe('extractHtml read plainly', () => {
  const head =
    '<title>Plain Story - Example News</title><meta property="og:title" content="Plain Story">' +
    '<meta name="author" content="Ann Writer"><meta property="article:published_time" content="2024-05-17T08:00:00Z">';
  const html = page(
    head,
    `<h2>Heading</h2><p>Star *power* and #tags.</p><p>- not a list</p><form><p>Sign up for our newsletter</p></form>${body(2)}`,
  );

  it('gives the visible text without chrome, and the metadata read as always', () => {
    const plain = extractHtml(html, { url: URL, plain: true });
    expect(plain.plain).toBe(true);
    expect(plain.body_text.startsWith('Heading\n\nStar *power* and #tags.\n\n- not a list\n\nThis paragraph')).toBe(
      true,
    );
    expect(plain.body_text).not.toMatch(/Home|Footer text|newsletter/);
    expect(plain.body_markdown.split('\n\n').slice(0, 3)).toEqual([
      'Heading',
      'Star \\*power\\* and \\#tags.',
      '\\- not a list',
    ]);
    expect(plain).toMatchObject({
      title: 'Plain Story',
      author: 'Ann Writer',
      published_at: '2024-05-17T08:00:00Z',
      lang: 'en',
      links: ['https://news.example.com/home'],
    });
    // The full reading gives the same metadata and is not so marked.
    const full = extractHtml(html, { url: URL });
    expect(full.plain).toBeUndefined();
    expect(full).toMatchObject({ title: plain.title, author: plain.author, published_at: plain.published_at });
  });

  it("honours the page's robots directives and leaves out the markdown when asked", () => {
    const plain = extractHtml(page('<meta name="robots" content="noindex, nofollow">'), {
      url: URL,
      plain: true,
      markdown: false,
    });
    expect(plain.robots).toMatchObject({ noindex: true, nofollow: true });
    expect(plain.links).toEqual([]);
    expect(plain.body_markdown).toBe('');
    expect(plain.word_count).toBeGreaterThan(100);
  });
});
