import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropDataText, linkShareOf, mainRegion, mainRegionSize, visibleChars } from './content.js';
import { extractHtml } from './extract-html.js';

const doc = (body: string): Document => parseHTML(`<html><body>${body}</body></html>`).document as unknown as Document;

describe('mainRegion', () => {
  it('keeps the declared <main> without chrome, comments, related links or hidden blocks', () => {
    const html =
      '<header>Site</header><nav><a href="/">Home</a></nav><main><h1>Thread</h1><p>First post.</p>' +
      '<div class="related-posts"><a href="/x">Other</a></div><div id="comments">Comment</div>' +
      '<p style="display:none">Hidden</p><p>Second post.</p></main><footer>Footer</footer>';
    const region = mainRegion(doc(html));
    expect(region?.element.localName).toBe('main');
    expect(region?.text).toBe('Thread\n\nFirst post.\n\nSecond post.');
    expect(mainRegionSize(doc(html))).toEqual({ chars: 'ThreadFirstpost.Secondpost.'.length, linkChars: 0 });
  });

  it('uses the body when there is no single main, and counts link text', () => {
    const size = mainRegionSize(doc('<div><a href="/a">abcd</a> efgh</div><aside>Side</aside>'));
    expect(size).toEqual({ chars: 8, linkChars: 4 });
    expect(mainRegion(doc('<div>Text</div><aside>Side</aside>'))?.text).toBe('Text');
  });

  it("uses a page's one <article> when it has no <main>, not when each item is one or the headline is outside", () => {
    const teasers = Array.from(
      { length: 4 },
      (_, i) => `<div class="teaser"><h3>Story ${i}</h3><p>Teaser text of story ${i}.</p></div>`,
    );
    const story = '<article><h1>Headline</h1><p>The story itself.</p></article>';
    const region = mainRegion(
      doc(`<div id="columns"><div id="left">${story}</div><div id="right">${teasers.join('')}</div></div>`),
    );
    expect(region?.element.localName).toBe('article');
    expect(region?.text).toBe('Headline\n\nThe story itself.');
    const items = teasers.map((teaser) => `<article>${teaser}</article>`).join('');
    expect(mainRegion(doc(`<div id="list">${items}</div>`))?.text).toContain('Story 3');
    // A category page whose featured post is its one <article>, under the category's own <h1>.
    const featured = `<h1>Recipes</h1><article><h2>Featured</h2><p>One post.</p></article>${teasers.join('')}`;
    expect(mainRegion(doc(featured))?.text).toContain('Story 3');
    const inMain = mainRegion(doc(`<main>${story}<p>Text of the main beside the article.</p></main><aside>x</aside>`));
    expect(inMain?.element.localName).toBe('main');
  });

  it('is the thread, not the post whose long log holds nearly all its text', () => {
    const log = Array.from(
      { length: 60 },
      (_, i) => `2024-05-03 10:09:${i} ERROR Error doing job: Future exception`,
    ).join('\n');
    const html =
      '<div id="thread"><div class="post"><p>Stuck on starting after the upgrade.</p></div>' +
      `<div class="post"><p>This is part of the log:</p><pre><code>${log}</code></pre></div>` +
      '<div class="post"><p>Try disabling the integration.</p></div></div>';
    const region = mainRegion(doc(html));
    expect(region?.element.id).toBe('thread');
    expect(region?.text).toContain('Stuck on starting');
    expect(region?.text).toContain('Try disabling');
    expect(region?.text).toContain('10:09:0 ERROR Error doing job: Future exception\n2024-05-03 10:09:1 ERROR');
  });
});

describe('mainRegion pruning', () => {
  const links = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => `<li><a href="/${prefix}${i}">${prefix} ${i}</a></li>`).join('');

  it('drops link-dense blocks (menus without <nav>), keeps lists of items with headings or long titles', () => {
    const cards = Array.from({ length: 4 }, (_, i) => `<li><a href="/p${i}"><h2>Cup ${i}</h2></a></li>`).join('');
    const titles = Array.from(
      { length: 4 },
      (_, i) => `<li><a href="/r${i}">A long recipe title number ${i} with several words</a></li>`,
    ).join('');
    const html = `<div class="menu"><ul>${links(6, 'Shop')}</ul></div><p>Intro text of the page.</p><ul>${cards}</ul><ul>${titles}</ul>`;
    const text = mainRegion(doc(html))?.text ?? '';
    expect(text).not.toContain('Shop 1');
    expect(text).toContain('Intro text');
    expect(text).toContain('Cup 3');
    expect(text).toContain('recipe title number 3');
    expect(mainRegionSize(doc(html)).chars).toBe(visibleChars(text));
  });

  it("keeps a grid of cards that link their page by image and by title, drops a related list's thumbnails", () => {
    const card = (i: number, extra: string) =>
      `<div class="card"><a href="/desk-${i}"><img src="/d${i}.jpg" alt=""></a>` +
      `<a href="/desk-${i}">UPLIFT V3 Standing Desk ${i}</a>${extra}</div>`;
    const grid = Array.from({ length: 6 }, (_, i) => card(i, `<p>$${500 + i}</p>`)).join('');
    const related = Array.from({ length: 6 }, (_, i) => card(10 + i, '')).join('');
    const html =
      `<main><h1>Standing desks</h1><p>Desks for every room of the house, delivered.</p><div class="grid">${grid}</div>` +
      `<div class="more">${related}</div></main>`;
    const text = mainRegion(doc(html))?.text ?? '';
    expect(text).toContain('Standing Desk 5');
    expect(text).toContain('$505');
    expect(text).not.toContain('Standing Desk 12');
    expect(mainRegionSize(doc(html)).chars).toBe(visibleChars(text));
  });

  it("keeps a services page's cards that its design system names promos, drops a newsletter prompt", () => {
    const card = (name: string) =>
      `<div class="promo cmp-promo__services"><a class="cmp-promo-tracking" href="/services/${name}">` +
      `<h3 class="cmp-promo__content__title">${name}</h3></a><div class="cmp-promo__content__desc">` +
      `<p>Our ${name} teams help clients in every industry plan, build and run what comes next.</p></div></div>`;
    const html =
      `<main><h1>Services</h1><div class="grid">${['Audit', 'Tax', 'Consulting', 'Advisory'].map(card).join('')}</div>` +
      '<div class="newsletter-signup"><p>Get our insights in your inbox every week.</p></div></main>';
    const text = mainRegion(doc(html))?.text ?? '';
    expect(text).toContain('Our Audit teams help clients');
    expect(text).toContain('Advisory');
    expect(text).not.toContain('insights in your inbox');
  });

  it("drops a block named as the site's footer, keeps a card's or a section's footer", () => {
    const html =
      '<div class="content"><h1>Headline</h1><p>The story in a few sentences of its own.</p>' +
      '<div class="card"><p>Card text.</p><div class="card__footer">Posted 2 May</div></div>' +
      '<div id="section-footer">1. Tested under lab conditions.</div></div>' +
      '<div class="footer"><h3>Partners</h3><a href="http://a.example/">Partner A</a> Copyright 2022 Daily</div>' +
      '<div id="site-footer">About us</div>';
    const text = mainRegion(doc(html))?.text ?? '';
    expect(text).toContain('The story in a few sentences');
    expect(text).toContain('Posted 2 May');
    expect(text).toContain('Tested under lab conditions');
    expect(text).not.toContain('Partners');
    expect(text).not.toContain('Copyright');
    expect(text).not.toContain('About us');
  });

  it("drops a table-built page's column of links beside its text, not a data table's column of names", () => {
    const archive = Array.from({ length: 8 }, (_, i) => `<a href="/archive/${i}">Archive of month ${i}</a><br>`).join(
      '',
    );
    const posts =
      '<h2>First post</h2><p>The first post of this blog, long enough to be read as the page text, and it goes on.</p>' +
      '<h2>Second post</h2><p>The second post of this blog tells another story in more sentences than the first.</p>' +
      '<p>It also has a second paragraph, because posts on such old pages often ran long.</p>' +
      '<p>And a third one, with the weather, the food and a promise to write again next week.</p>';
    const layout = `<table><tr><td><h3>Archive</h3>${archive}</td><td>${posts}</td></tr></table>`;
    const text = mainRegion(doc(layout))?.text ?? '';
    expect(text).toContain('The first post of this blog');
    expect(text).not.toContain('Archive of month');
    // The column is links beside a cell of twice its text: a narrower text cell keeps it.
    const short = `<table><tr><td>${archive}</td><td><p>One post beside the archive, with a few sentences. It is not much longer than the archive itself, and so the two are read together.</p></td></tr></table>`;
    expect(mainRegion(doc(short))?.text).toContain('Archive of month 3');
    // A data table's cells are its data, whatever their links.
    const rows = Array.from(
      { length: 3 },
      (_, i) =>
        `<tr><td>${archive}</td><td>${'Package number ' + i + ' does something useful with files. '.repeat(12)}</td></tr>`,
    ).join('');
    const data = mainRegion(doc(`<table><tr><th>Links</th><th>Description</th></tr>${rows}</table>`))?.text ?? '';
    expect(data).toContain('Archive of month 5');
  });

  it('keeps a form or a block named comments when it holds most of the text, and the posts in it', () => {
    const posts = Array.from(
      { length: 5 },
      (_, i) => `<article id="comment-${i}"><p>Post ${i} with a few words of its own.</p></article>`,
    );
    const html = `<p>Thread title</p><div id="comments"><form>${posts.join('')}</form></div><div class="comments">Small box</div>`;
    const text = mainRegion(doc(html))?.text ?? '';
    expect(text).toContain('Post 0');
    expect(text).toContain('Post 4');
    expect(text).not.toContain('Small box');
  });

  it('keeps the hidden blocks of a page that hides all its content until a script shows it', () => {
    const lines = Array.from(
      { length: 6 },
      (_, i) => `<p>Batch ${i}: baked with simple ingredients, crunchy and light, made in small batches.</p>`,
    );
    const product = `<h1>Almond thins</h1>${lines.join('')}`;
    const menu = Array.from({ length: 30 }, (_, i) => `<li><a href="/c/${i}">Category number ${i}</a></li>`).join('');
    const html = `<header><ul>${menu}</ul></header><div style="display: none">${product}</div><div style="display: none!important;"><p>Your preference has been updated for this session.</p></div>`;
    const region = mainRegion(doc(html))?.text ?? '';
    expect(region).toContain('Almond thins');
    expect(region).toContain('made in small batches');
    expect(region).not.toContain('Category number');
    // With visible content beside them, hidden blocks stay out.
    const shown = `<main><p>${'Visible text of the page, long enough to be its content. '.repeat(2)}</p>${html}</main>`;
    expect(mainRegion(doc(shown))?.text).toBe(
      'Visible text of the page, long enough to be its content. '.repeat(2).trim(),
    );
  });

  it('drops comments and hidden blocks of a declared article whatever their size, keeps a big sidebar-named wrapper', () => {
    const comments = Array.from({ length: 8 }, (_, i) => `<li>Comment ${i} says quite a lot about the article.</li>`);
    const html = `<div class="main-with-sidebar"><p>The article text.</p><ol class="comment-list">${comments.join('')}</ol><div style="display:none">${comments.join('')}</div></div>`;
    const article = mainRegion(doc(html), true)?.text ?? '';
    expect(article).toBe('The article text.');
    expect(mainRegion(doc(html))?.text).toContain('Comment 7');
  });
});

describe('extractHtml main content', () => {
  const post = (i: number) =>
    `<div class="post"><div class="meta">user${i}</div><p>Reply number ${i} says something useful about the question, with details.</p></div>`;

  it('takes the whole main region of a forum thread, not the one post Readability picks', () => {
    const first = `<div class="post"><p>${'The opening post explains the problem at length, with commas, clauses and detail. '.repeat(4)}</p></div>`;
    const html = `<html><head><title>Thread</title></head><body><nav><a href="/">Forum</a></nav><main>${first}${Array.from({ length: 12 }, (_, i) => post(i)).join('')}</main></body></html>`;
    const page = extractHtml(html, { url: 'https://forum.example.com/t/1' });
    expect(page.body_text).toContain('The opening post');
    expect(page.body_text).toContain('Reply number 11');
    expect(page.body_text).not.toContain('Forum');
    expect(page.body_markdown).toContain('Reply number 11');
  });

  it('reads a page after a stray <![CDATA[ as browsers do: a comment up to its first >', () => {
    // A broken forum template (wcxb 4311) wrote one before the page; the parser hid everything after it.
    const html =
      '<html><head><title>Thread</title></head><body><![CDATA[\n<div id="top"></div>' +
      `<main><h1>Thread</h1>${'<p>The first post asks which graphics card to buy, and why that one.</p>'.repeat(6)}</main></body></html>`;
    expect(extractHtml(html, { url: 'https://forum.example.com/t/1' }).body_text).toContain('which graphics card');
  });
});

describe('extractHtml on a news page whose story is its one <article>', () => {
  const dir = join(import.meta.dirname, '../../../../shared/testdata/readability-pages/heise');
  const run = existsSync(join(dir, 'source.html')) ? it : it.skip;

  run("reads heise's story, not the columns of teasers and ads beside it", () => {
    const html = readFileSync(join(dir, 'source.html'), 'utf8');
    const page = extractHtml(html, { url: 'https://www.heise.de/mac-and-i/meldung/2596987.html' });
    expect(page.body_text).toContain('1Password kostet aktuell knapp 50 Euro im Mac App Store');
    expect(page.body_text).not.toContain('Heft 2/2015');
    expect(page.body_text).not.toContain('Vorige');
    expect(page.body_text).not.toContain('Apple stopft Sicherheitslücken');
  });
});

describe('dropDataText', () => {
  const state =
    '{&quot;painterId&quot;:&quot;AsinGrid&quot;,&quot;asins&quot;:[&quot;B0CXGXT6W8&quot;,&quot;B0CYNFWD2R&quot;],&quot;hostPageType&quot;:&quot;BROWSE&quot;}';
  it("removes the elements that hold only a script's data, not code samples or short text", () => {
    const root = doc(
      `<div class="grid-state hidden">${state}</div><pre>${state}</pre><p><code>${state}</code></p>` +
        '<p>{"a": 1}</p><p>Headphones for every budget, from earbuds to studio monitors.</p>',
    ).body;
    expect(dropDataText(Array.from(root.querySelectorAll('*')))).toBe(1);
    expect(root.querySelector('.grid-state')).toBeNull();
    expect(root.querySelector('pre')?.textContent).toContain('painterId');
    expect(root.querySelector('code')?.textContent).toContain('painterId');
    expect(root.textContent).toContain('{"a": 1}');
  });

  it("keeps the data out of a page's main text", () => {
    const html =
      '<html><head><title>Headphones</title></head><body><main><h1>Headphones</h1>' +
      `<p>${'Headphones for every budget, from earbuds to studio monitors, tested by our editors. '.repeat(5)}</p>` +
      `<div class="grid-state" style="display:none">${state}</div><span>${state}</span></main></body></html>`;
    const { body_text } = extractHtml(html, { url: 'https://shop.example.com/headphones' });
    expect(body_text).toContain('studio monitors');
    expect(body_text).not.toContain('painterId');
  });
});

describe('linkShareOf', () => {
  it('is the share of visible text inside links', () => {
    const el = doc('<div id="x"><a href="/a">abcd</a> efgh <p>ij<a href="/b">kl</a></p><a>mn</a></div>').getElementById(
      'x',
    );
    expect(el && linkShareOf(el)).toBeCloseTo(6 / 14);
    expect(linkShareOf(doc('<div id="y"> </div>').getElementById('y') as Element)).toBe(0);
  });
});

const WCXB = join(import.meta.dirname, '../../../../shared/testdata/wcxb-dev/dev');
const wcxbPresent = existsSync(WCXB);
if (!wcxbPresent) console.warn(`wcxb main-content tests skipped: ${WCXB} is absent`);
const withWcxb = wcxbPresent ? describe : describe.skip;

/** A WCXB dev page and its URL (each test names its half: a page of half B is a regression check, not a tuning one). */
function wcxbPage(id: string): { html: string; url: string } {
  const truth = JSON.parse(readFileSync(join(WCXB, 'ground-truth', `${id}.json`), 'utf8')) as { url: string };
  return { html: gunzipSync(readFileSync(join(WCXB, 'html', `${id}.html.gz`))).toString('utf8'), url: truth.url };
}

withWcxb('extractHtml when Readability falls back to the menus', () => {
  it('takes the main region of a shop category page whose Readability article is mostly links', () => {
    // wcxb-dev 3002 (REI, climbing shoes): Readability keeps the site's menus (77% link text); the
    // main region holds the product grid and is a third of its size.
    const { html, url } = wcxbPage('3002');
    const page = extractHtml(html, { url });
    expect(page.body_text).not.toContain('REI Accessibility Statement');
    expect(page.body_text).not.toContain('Backpacking Packs');
    expect(page.body_text).toContain('Tarantulace Climbing Shoes - Men');
    expect(page.body_text).toContain('111 reviews with an average rating of 4.5 out of 5 stars');
  });
});

withWcxb('extractHtml on a thread whose posts are named comments', () => {
  it("reads old Reddit's posts, not its sidebar", () => {
    // wcxb-dev 0562 (old.reddit.com, half B; found dogfooding): `<div class="thing comment"
    // data-author>` posts in `<div class="commentarea">`, each post's text in a `<form>`.
    const { html, url } = wcxbPage('0562');
    const text = extractHtml(html, { url }).body_text;
    expect(text).toContain('Might this also be a potential cure for tinnitus');
    expect(text).toContain('Pretty sure I was born with this.');
    expect(text).not.toContain('Submission Rules');
  });
});

withWcxb('markdown of documentation pages', () => {
  it("leaves out mdBook's keyboard help and the example lines its reader hides", () => {
    // wcxb-dev 0499 (an mdBook): `<div id="mdbook-help-popup">` before the chapter, which
    // Readability kept; 2860 (the Rust book): `<span class="boring">fn main() {</span>` in examples.
    const book = wcxbPage('0499');
    const page = extractHtml(book.html, { url: book.url });
    expect(page.body_text).not.toContain('Keyboard shortcuts');
    // The chapter's own heading is its title (Readability drops the first that repeats the title).
    expect(page.body_markdown).toMatch(/^## What This Series Covers$/m);
    const rust = wcxbPage('2860');
    const md = extractHtml(rust.html, { url: rust.url }).body_markdown;
    expect(md).toContain('```rust\nlet s = 3.to_string();\n```');
    expect(md).not.toContain('#![allow(unused)]');
  });

  it("leaves out the sidebar and menus when the <html> element's class names one (mdBook, a shop)", () => {
    // mozilla/readability#835: Readability's unlikely-candidate rule spares <body> but not <html>;
    // a `sidebar-visible` (mdBook) or `footer-sticky-1` root dropped the whole page, and the search
    // that follows keeps sidebars and menus. wcxb-dev 2996 (the Rust book, its table of contents
    // filled in), 0601 (a shop's header menu).
    const book = wcxbPage('2996');
    const chapter = extractHtml(book.html, { url: book.url }).body_text;
    expect(chapter).toContain('Most errors aren’t serious enough to require the program to stop entirely.');
    expect(chapter).not.toContain('Foreword');
    const shop = wcxbPage('0601');
    const product = extractHtml(shop.html, { url: shop.url }).body_text;
    expect(product).toContain('Capture crystal-clear close-ups of birds');
    expect(product).not.toContain('European region');
  });

  it("keeps Gatsby's highlighted code lines apart", () => {
    // wcxb-dev 4401 (legacy.reactjs.org): `<span class="gatsby-highlight-code-line">` lines without newlines.
    const { html, url } = wcxbPage('4401');
    const page = extractHtml(html, { url });
    expect(page.body_text).toContain('which we\'ll call "count"\n  const [count, setCount] = useState(0);');
  });

  it("fences Sphinx's code blocks in their language and drops the headings' permalinks", () => {
    // wcxb-dev 0662 (Flask quickstart): `<div class="highlight-python"><div class="highlight"><pre>`
    // with no <code>, and `<a class="headerlink">¶</a>` in every heading.
    const { html, url } = wcxbPage('0662');
    const md = extractHtml(html, { url }).body_markdown;
    expect(md).toContain('## A Minimal Application\n');
    expect(md).toContain('```python\nfrom flask import Flask\n\napp = Flask(__name__)\n');
    expect(md).not.toContain('¶');
    expect(md).not.toMatch(/^#+ .*\]\([^)]*#/m);
  });

  it("keeps the lines of Stripe's code blocks, each a <div> in the <pre>, in the markdown and the text", () => {
    // wcxb-dev 0680 (Stripe's API reference): the markdown ran each JSON block into one line, and the
    // text read each of its lines as a paragraph, without its indentation.
    const { html, url } = wcxbPage('0680');
    const page = extractHtml(html, { url });
    const block = '{\n  "id": "ch_3MmlLrLkdIwHu7ix0snN0B15",\n  "object": "charge",\n  "amount": 1099,\n';
    expect(page.body_markdown).toContain(`\`\`\`\n${block}`);
    expect(page.body_text).toContain(block);
  });

  it("unwraps a heading from a link to its own anchor and keeps the kernel's plain <pre> as code", () => {
    // wcxb-dev 0667 (the Rust book): `<h3><a class="header" href="#the-stack-and-the-heap">`.
    const rust = wcxbPage('0667');
    expect(extractHtml(rust.html, { url: rust.url }).body_markdown).toMatch(/^### The Stack and the Heap$/m);
    // wcxb-dev 2874 (kernel.org, submitting patches): a `<pre>` of commands with no language.
    const kernel = wcxbPage('2874');
    const md = extractHtml(kernel.html, { url: kernel.url }).body_markdown;
    expect(md).toMatch(/^## Obtain a current source tree$/m);
    expect(md).toMatch(/^```\ngit clone git:\/\/git\.kernel\.org/m);
  });
});

describe('mainRegion on pages of items', () => {
  it('drops the search filters beside the items and a block the page shows twice', () => {
    const cards = Array.from(
      { length: 4 },
      (_, i) => `<div class="card"><a href="/p${i}">Product number ${i}</a><span>$${i}9.99</span></div>`,
    ).join('');
    const facets = Array.from(
      { length: 5 },
      (_, i) => `<li><label><input type="checkbox"><span>Brand ${i}</span></label></li>`,
    ).join('');
    const intro = 'Our shoes are made for walking, running and everything in between, in every size. '.repeat(2);
    const html =
      `<div class="content"><h1>Shoes</h1><div class="m"><p>${intro}</p></div><div class="d"><p>${intro}</p></div>` +
      `<div class="filters"><ul>${facets}</ul></div><div class="grid">${cards}</div></div>`;
    const text = mainRegion(doc(html))?.text ?? '';
    expect(text).toContain('Product number 3');
    expect(text).not.toContain('Brand 2');
    expect(text.split('Our shoes are made').length).toBe(3);
  });
});

withWcxb('extractHtml on a Discourse thread', () => {
  it('reads the thread whose one post quotes a long log, with its log and its posters', () => {
    // wcxb-dev 0503 (Home Assistant's forum): the second post's 230-line traceback is 90% of the
    // thread's text; the region had been narrowed to that log alone, and card controls took the
    // name of the poster of three posts.
    const { html, url } = wcxbPage('0503');
    const text = extractHtml(html, { url }).body_text;
    expect(text).toContain('I have just installed version 2024.5.0');
    expect(text).toContain('Looks like it’s something to do with the tuya_local integration');
    expect(text).toContain(
      'Traceback (most recent call last):\n  File "/usr/local/lib/python3.12/concurrent/futures/thread.py"',
    );
    expect(text).toMatch(/^raoul \(raoul\)/);
  });
});

withWcxb('extractHtml on forum threads', () => {
  it.each([
    // 0519 (AVForums): Readability drops each post's panel (a link and a picture) and its dated header.
    ['0519', ['Chris Hall · Sep 21, 2024', 'lgans316 · Sep 21, 2024', 'Ed Selley · Sep 21, 2024']],
    // 0528 (AVS Forum, nested replies): the main region drops each post's <header>, name and all.
    ['0528', ['eljaycanuck\n', 'JosephF\n', 'bud16415\n']],
    // 0558 (MyBB): each poster is named only in a panel whose statistics are <br> lines.
    ['0558', ['StarredSkies\n\n2019-02-23, 09:14 PM', 'vbgamer45\n\n2019-02-24, 06:39 PM']],
    // 0546 (Invision): each poster is named in the panel and in the quote button's JSON.
    ['0546', ['ron1cne\n', 'paul2009\n']],
  ])('keeps who wrote each post of %s', (id, headers) => {
    const { html, url } = wcxbPage(id);
    const text = extractHtml(html, { url }).body_text;
    for (const header of headers) expect(text).toContain(header);
  });

  it.each([
    // 0558 (MyBB): panel statistics as <br> lines, and its own wording of an edit note.
    ['0558', ['Posts: 116', 'Reputation:', 'This post was last modified']],
    // 0546 (Invision): the thread's one signature, and each date's short form (`August 26, 20241 yr`).
    ['0546', ['Tip of the week', '20241 yr']],
    // 0560 (Tapatalk): the copy of each post's date written for machines.
    ['0560', ['2006-08-08T22:13+00:00']],
  ])('leaves the post chrome of %s out', (id, gone) => {
    const { html, url } = wcxbPage(id);
    const text = extractHtml(html, { url }).body_text;
    for (const chrome of gone) expect(text).not.toContain(chrome);
  });
});
