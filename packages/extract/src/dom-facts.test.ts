import { describe, expect, it } from '@jest/globals';
import { parseDocument } from './dom.js';
import { type DomFacts, readDomFacts } from './dom-facts.js';

const facts = (html: string) => readDomFacts(parseDocument(html, 'https://example.com/', 'linkedom').document);

describe('readDomFacts', () => {
  it('collects head and body elements in document order in one walk', () => {
    const f = facts(
      '<!DOCTYPE html><html lang="en"><head><title> A  title </title><base href="/b/"><meta name="a" content="1">' +
        '<link rel="canonical" href="/c"><script type="application/ld+json">{}</script></head>' +
        '<body><h1>Head line</h1><article><p><time datetime="2024-01-02">x</time><a href="/1">1</a></p></article>' +
        '<span class="byline">By Jane</span><a href="/2">2</a><meta name="b" content="2"></body></html>',
    );
    expect(f.docTitle).toBe('A title');
    expect(f.baseHref).toBe('/b/');
    expect(f.metas.map((m) => m.getAttribute('name'))).toEqual(['a', 'b']);
    expect(f.anchors.map((a) => a.getAttribute('href'))).toEqual(['/1', '/2']);
    expect(f.linkElements).toHaveLength(1);
    expect(f.jsonLdScripts).toHaveLength(1);
    expect(f.h1).toBe('Head line');
    expect(f.articleTime).toBe('2024-01-02');
    expect(f.bylines).toEqual(['By Jane']);
    expect(f.htmlLang).toBe('en');
  });

  it('measures how deep elements nest, across siblings and back up', () => {
    expect(facts('<html><head></head><body></body></html>').maxDepth).toBe(2);
    // html 1, body 2, div 3, section 4, p 5, b 6; the aside after them is 3 again.
    const f = facts(
      '<html><body><div><section><p><b>x</b></p></section><p>y</p></div><aside><i>z</i></aside></body></html>',
    );
    expect(f.maxDepth).toBe(6);
    expect(facts(`<html><body>${'<div>'.repeat(600)}x${'</div>'.repeat(600)}<p>after</p></body></html>`).maxDepth).toBe(
      602,
    );
  });

  it('leaves a dateline, a byline and an unclosed next heading out of an <h1>', () => {
    const f = facts(
      '<html><body><h1><a href="/p"><time datetime="2025-12-18">Dec 18 2025</time> Preparing a transition</a></h1>' +
        '<h1>Top Strategies<div><h3><span class="posted-on">Posted on July 1, 2024</span>' +
        '<span class="byline"> by infuy</span></h3></div></h1></body></html>',
    );
    expect(f.h1s).toEqual(['Preparing a transition', 'Top Strategies']);
  });

  it("leaves a heading's buttons out of an <h1>", () => {
    const f = facts(
      '<html><body><h1>Enum Result<button id="copy-path" title="Copy item path to clipboard">Copy item path</button></h1></body></html>',
    );
    expect(f.h1s).toEqual(['Enum Result']);
  });

  it('reads <h1> texts as shown: <br> is a space, hidden copies and permalink signs are left out', () => {
    const f = facts(
      '<html><body><h1>Logo</h1><h1>Data Analytics<br>Agency</h1>' +
        '<h1><span aria-hidden="true">Spin spin</span><span>Real words</span></h1><h1>API guide<a>¶</a></h1></body></html>',
    );
    expect(f.h1s).toEqual(['Logo', 'Data Analytics Agency', 'Real words', 'API guide']);
  });

  it('keeps the short texts around the first <h1>, where datelines are printed', () => {
    const f = facts(
      '<html><body><nav><a>Home</a></nav><span>News</span><h1><a href="/s">Story</a></h1>' +
        '<div><span>By Jane</span> <time>Dec 19, 2025</time></div><p>' +
        'long '.repeat(100) +
        '</p></body></html>',
    );
    expect(f.nearHeadline).toBe('Home\nNews\nStory\nBy Jane\nDec 19, 2025');
    expect(facts('<html><body><p>Dec 19, 2025</p></body></html>').nearHeadline).toBe('');
  });

  it("keeps the texts around the article's <h1> when a site's header has an <h1> of its own first", () => {
    // A header with a search box's <h1>, then a menu longer than the window after a headline.
    const menu = Array.from({ length: 100 }, (_, i) => `<li><a href="/m${i}">Menu entry ${i}</a></li>`).join('');
    const header = `<header><h1>Search</h1><ul>${menu}</ul></header>`;
    const article = '<span>Blog</span><h1>Trends in Psychiatry</h1><p>Share</p><p>December 24, 2024</p>';
    const f = facts(
      `<html><head><title>Trends in Psychiatry | APA</title></head><body>${header}${article}</body></html>`,
    );
    expect(f.nearHeadline).toBe(
      'Menu entry 95\nMenu entry 96\nMenu entry 97\nMenu entry 98\nMenu entry 99\nBlog\nShare\nDecember 24, 2024',
    );
    // Without a title to agree with, the first <h1> stays the headline.
    const untitled = facts(`<html><body>${header}${article}</body></html>`);
    expect(untitled.nearHeadline.startsWith('Menu entry 0\nMenu entry 1\n')).toBe(true);
    expect(untitled.nearHeadline).not.toContain('December 24, 2024');
  });

  it('keeps the words an element holds beside its blocks after the <h1>, each run a line', () => {
    // A hand-written blog: the post's date is loose text in its fieldset, between legend and body.
    const blog = facts(
      '<html><body><h1>Roger&#39;s Blog</h1><fieldset><legend>Advent of Code week 2</legend> 20 December 2025 ' +
        '<div class="body"><p>I did it again.</p></div></fieldset></body></html>',
    );
    expect(blog.nearHeadline).toBe('20 December 2025\nAdvent of Code week 2\nI did it again.');
    // A label beside an element of its own (GitHub's `Last active <relative-time>`) stays in the window.
    const gist = facts(
      '<html><body><h1>writeup.md</h1><div>Last active <relative-time>December 20, 2025</relative-time> <div>Star</div></div></body></html>',
    );
    expect(gist.nearHeadline).toBe('Last active\nDecember 20, 2025\nStar');
    // Before the <h1>: none.
    expect(facts('<html><body><div>Loose <p>x</p></div><h1>T</h1></body></html>').nearHeadline).toBe('x');
  });

  it('reads a line of words and inline elements around the <h1> whole, and its elements not again', () => {
    const f = facts(
      '<html><body><h1>Story</h1><p>by <b>Jon Foster</b> - 2025-09-13<br></p>' +
        '<div><span><span class="dot">●</span> December 23, 2025 <span>●</span></span><span>6 min read</span></div></body></html>',
    );
    expect(f.nearHeadline).toBe('by Jon Foster - 2025-09-13\n● December 23, 2025 ●\n6 min read');
  });

  it("does not take a revision's <time> as the article time", () => {
    const time = (inner: string): string | null =>
      facts(`<html><body><article>${inner}</article></body></html>`).articleTime;
    expect(
      time('<p>This page was last modified on <time datetime="2025-07-08">Jul 8, 2025</time> by contributors.</p>'),
    ).toBeNull();
    expect(time('<span>Updated:</span> <time datetime="2025-07-08">Jul 8</time>')).toBeNull();
    expect(time('<time itemprop="dateModified" datetime="2025-10-17">Oct 17, 2025</time>')).toBeNull();
    // The first <time> that is not a revision's: the publication after an update line.
    expect(
      time(
        '<p>Updated <time datetime="2025-07-08">Jul 8</time></p><p>Published on <time datetime="2024-01-02">Jan 2</time></p>',
      ),
    ).toBe('2024-01-02');
    expect(time('<p>Posted <time datetime="2024-01-02">Jan 2</time></p>')).toBe('2024-01-02');
  });

  it('takes only <time> inside article or main (or marked pubdate) as the article time', () => {
    expect(
      facts('<html><body><time datetime="2020-01-01">x</time><article>t</article></body></html>').articleTime,
    ).toBe(null);
    const after = '<html><body><article><p>t</p></article><time datetime="2020-01-01">x</time></body></html>';
    expect(facts(after).articleTime).toBeNull();
    expect(facts('<html><body><div><time pubdate datetime="2021-01-01">x</time></div></body></html>').articleTime).toBe(
      '2021-01-01',
    );
  });

  it('finds links after </html> and ignores template contents', () => {
    const f = facts(
      '<html><body><template><a href="/t">t</a></template><p>x</p></body></html><span><a href="/late">l</a></span>',
    );
    expect(f.anchors.map((a) => a.getAttribute('href'))).toEqual(['/late']);
  });

  it('walks very deep nesting without recursion', () => {
    const depth = 20_000;
    const f = facts(`<html><body>${'<div>'.repeat(depth)}<a href="/deep">d</a>${'</div>'.repeat(depth)}</body></html>`);
    expect(f.anchors).toHaveLength(1);
  });
});

describe('readDomFacts author links', () => {
  it('takes a link to an author page as a byline, not other links', () => {
    const f = facts(
      '<html><body><a href="/news/">News</a><a href="https://blog.example.com/?author=102">太小心</a><a href="/author/jane-doe/">Jane Doe</a></body></html>',
    );
    expect(f.bylines).toEqual(['太小心', 'Jane Doe']);
  });
});

describe('readDomFacts bylines', () => {
  it("reads a byline card one line per block, the name element's line first", () => {
    const f = facts(
      '<html><body><h1>T</h1>' +
        '<div class="author-card"><div>Written By</div><div><div class="author-name">Stephen Jesudunsin</div>' +
        '<div class="author-role">AI Writer, Embarque</div></div></div>' +
        '<p class="byline"><span class="byline__role">Founder</span> <span class="byline__name">Mateusz Haberny</span></p>' +
        '</body></html>',
    );
    // The card and the byline each put their name element's line first; the name elements inside
    // are bylines of their own too (class `author-…`), the roles beside them are not.
    expect(f.bylines).toEqual([
      'Stephen Jesudunsin\nWritten By\nStephen Jesudunsin\nAI Writer, Embarque',
      'Stephen Jesudunsin',
      'Mateusz Haberny\nFounder Mateusz Haberny',
      'Mateusz Haberny',
    ]);
  });

  it('leaves out what an author box says beside the name: a job title, a company, a biography', () => {
    const f = facts(
      '<html><body><h1>T</h1><div class="post_author-list">' +
        '<a class="post_author-link"><div class="post_author-name">Corti</div><div class="post_author-title">AI platform for healthcare</div></a>' +
        '<a class="post_author-link"><div class="post_author-name">Joakim Edin</div><div class="post_author-company">Research</div></a>' +
        '</div><p class="writer_bio">Joakim writes about clinical language models.</p></body></html>',
    );
    expect(f.bylines.filter((b) => !b.includes('\n'))).toEqual(['Corti', 'Joakim Edin']);
  });

  it('leaves the tag and category links out of a byline', () => {
    const f = facts(
      '<html><body><h1>T</h1>' +
        '<div class="byline"><span><a class="tag" href="/blog/tag/personal-finance">Personal finance</a></span> ' +
        '<span>January 31, 2025</span></div>' +
        '<div class="byline"><a href="https://example.com/category/news">News</a> <a href="/author/jane">Jane Doe</a></div>' +
        '</body></html>',
    );
    expect(f.bylines).toEqual(['January 31, 2025', 'Jane Doe', 'Jane Doe']);
  });

  it("reads an author box's first line only, and a container that happens to carry the class not at all", () => {
    const bio = `<p>${'Bence writes about web performance and accessibility. '.repeat(6)}</p>`;
    const f = facts(`<html><body><div class="blog-author"><h4>Bence Kovács</h4>${bio}</div></body></html>`);
    expect(f.bylines).toEqual(['Bence Kovács']);
    const container = facts(`<html><body><div class="author-page"><h4>Posts</h4>${bio.repeat(6)}</div></body></html>`);
    expect(container.bylines).toEqual([]);
  });

  it('takes an itemprop name inside an author element as its name', () => {
    const f = facts(
      '<html><body><section itemprop="author"><div>A</div><a itemprop="name" href="/u/1">AjayJunkies</a><em>Greenhorn</em></section></body></html>',
    );
    expect(f.bylines[0]?.split('\n')[0]).toBe('AjayJunkies');
    const meta = facts(
      '<html><body><div itemprop="author" itemscope><meta itemprop="name" content="julian"><span>J</span> Offline</div></body></html>',
    );
    expect(meta.bylines[0]?.split('\n')[0]).toBe('julian');
  });

  it('keeps a label and a name after the headline as a text byline, and nothing else', () => {
    const f = facts(
      '<html><body><nav><a>By Product Type</a><span>By Jane Roe</span></nav><h1>Headline</h1>' +
        '<span class="meta"> By <a href="/producers/sofia-gonzalez">Sofia Gonzalez</a></span>' +
        '<p>By the way, this is prose.</p><p>By 2030 Most Cars</p><h3>Written by Cassidy Horton</h3><p>By Ann Lee</p></body></html>',
    );
    expect(f.textBylines).toEqual(['By Sofia Gonzalez', 'Written by Cassidy Horton']);
  });

  it('takes the name of a byline dated on its line, the date after the name or before the label', () => {
    const read = (html: string): string[] => facts(`<html><body><h1>Headline</h1>${html}</body></html>`).textBylines;
    expect(read('<div class="m-article__meta"> by <span>ALLIN ONE</span> on <span>Jan 22, 2025</span> </div>')).toEqual(
      ['By ALLIN ONE'],
    );
    // Markup's white space runs past the label's 60 characters, the line read squashed.
    expect(
      read('<p>by Jon Foster\n              -\n             \n      2025-09-13<br> Updated: 2025-09-13</p>'),
    ).toEqual(['By Jon Foster']);
    expect(
      read('<div><time datetime="2017-03-01">03/01/2017</time> by Agatha Caleo, Candidate Representative</div>'),
    ).toEqual(['By Agatha Caleo']);
    expect(read('<p>Written by Ann Lee | 22 January 2025</p>')).toEqual(['By Ann Lee']);
    // A sentence that opens with `By` and has no date after its name, a date that is no byline's.
    expect(read('<p>By Friday Morning, 300 people had left the square.</p>')).toEqual([]);
    expect(read('<div><time>2025-09-13</time> by the river, where the town began</div>')).toEqual([]);
  });

  it('reads text bylines after a lower heading that the title holds when the page has no <h1>', () => {
    const page = (heading: string): DomFacts =>
      facts(
        '<html><head><title>Homestead gardening makes rural communities more self-reliant | District</title></head><body>' +
          `<div class="headline_section">${heading}</div><p>By <strong>Md Aynal Haque</strong></p></body></html>`,
      );
    const titled = page('<h4>Homestead gardening makes rural communities more self-reliant</h4>');
    expect(titled.titledSubheading).toBe('Homestead gardening makes rural communities more self-reliant');
    expect(titled.textBylines).toEqual(['By Md Aynal Haque']);
    // The window around the headline starts there: the dateline under it is read.
    expect(titled.nearHeadline).toContain('By Md Aynal Haque');
    // A heading the title does not hold is a section's, not the headline.
    const untitled = page('<h4>Latest district news</h4>');
    expect(untitled.titledSubheading).toBe('');
    expect(untitled.textBylines).toEqual([]);
    // A heading that links elsewhere is a teaser's.
    const teaser = page(
      '<h3><a href="/news/other">Homestead gardening makes rural communities more self-reliant</a></h3>',
    );
    expect(teaser.titledSubheading).toBe('');
  });

  it("gives the window around the headline to a later <h1> the title holds, over a lower heading's", () => {
    // A stream of cards fills the window after the lower heading before the `<h1>` comes.
    const cards = Array.from({ length: 40 }, (_, i) => `<p>Story card ${i} about another launch of a cargo ship</p>`);
    const f = facts(
      '<html><head><title>Space ship breaks up over Siberia</title></head><body>' +
        `<h3>Space ship breaks up over Siberia</h3>${cards.join('')}` +
        '<h1>Space ship breaks up over Siberia</h1><p>December 2, 2016</p></body></html>',
    );
    expect(f.titledSubheading).toBe('Space ship breaks up over Siberia');
    expect(f.nearHeadline).toContain('December 2, 2016');
  });

  it('takes a byline label and the name in the element after it', () => {
    const read = (html: string): string[] => facts(`<html><body><h1>Headline</h1>${html}</body></html>`).textBylines;
    expect(
      read('<div><p>Last updated</p><time>Aug 04, 2025</time></div><div><p>Written by</p><p>Edzel Tabing</p></div>'),
    ).toEqual(['By Edzel Tabing']);
    expect(read('<h2>Article by</h2><div>Matias Heikkilä</div>')).toEqual(['By Matias Heikkilä']);
    expect(read('<div><span>By</span><span>Daryl Austin</span></div>')).toEqual(['By Daryl Austin']);
    expect(read('<p><b>Author:</b> <a href="/a/ann">Ann van der Berg</a></p>')).toEqual(['By Ann van der Berg']);
    // Labels of something else, a name with more after it, a sentence, or no headline before it.
    expect(read('<span>Sort by</span><span>Most Recent</span>')).toEqual([]);
    expect(read('<span>By</span><span>Daryl Austin, Staff Writer</span>')).toEqual([]);
    expect(read('<span>Author</span><span>the team behind this guide</span>')).toEqual([]);
    expect(
      facts('<html><body><span>By</span><span>Jane Roe</span><h1>Headline</h1></body></html>').textBylines,
    ).toEqual([]);
  });

  it("reads a thread's microdata author and the first post's data-author", () => {
    const f = facts(
      '<html><body><article data-author="Kevin"><div itemprop="author" itemscope itemtype="https://schema.org/Person">' +
        '<span itemprop="name">Rick</span></div></article>' +
        '<div itemscope itemtype="https://schema.org/DiscussionForumPosting"><div itemprop="author" itemscope>' +
        '<span itemprop="name">JosephF</span><em>Member</em></div></div><article data-author="Ann"></article></body></html>',
    );
    // The first author element belongs to a Person item in no thread item: not the thread's.
    expect(f.threadAuthor).toBe('JosephF\nJosephFMember');
    expect(f.postAuthor).toBe('Kevin');
  });

  it("reads a thread's starter from the one label that names it, not from a page of threads", () => {
    // XenForo: the thread's header names its starter for screen readers; the posts below may be
    // another page's, another poster's first.
    const header = (name: string) =>
      `<ul class="listInline"><li><span class="u-srOnly">Thread starter</span> <a href="/members/1" class="username">${name}</a></li>` +
      '<li><span class="u-srOnly">Start date</span> <a href="/threads/1"><time datetime="2025-06-14T08:33:11-0400">Jun 14, 2025</time></a></li></ul>';
    const thread = facts(
      `<html><body><h1>Graphics card guide</h1>${header('SamuelMIz')}<article data-author="Ralston18"><p>Reply.</p></article></body></html>`,
    );
    expect(thread.threadAuthor).toBe('SamuelMIz');
    expect(thread.postAuthor).toBe('Ralston18');
    // Said for each thread of a list, or of no user name: none.
    const list = facts(`<html><body><h1>Forum</h1>${header('Perseus Legend')}${header('B. Diddy')}</body></html>`);
    expect(list.threadAuthor).toBeNull();
    const sentence = facts(
      '<html><body><span>Thread starter</span><span>this is where the discussion: begins</span></body></html>',
    );
    expect(sentence.threadAuthor).toBeNull();
  });

  it("reads the page's own microdata date, not a teaser card's that describes another page", () => {
    const url = 'https://example.com/blog/our-story';
    const at = (body: string, head = '') => {
      const html = `<html><head>${head}</head><body>${body}</body></html>`;
      return readDomFacts(parseDocument(html, url, 'linkedom').document, url);
    };
    const own = (inner = '') =>
      `<article itemscope itemtype="https://schema.org/BlogPosting">${inner}<h1>Our story</h1>` +
      '<time itemprop="datePublished" datetime="2024-03-01">March 1</time><p>Text.</p></article>';
    const datesIn = (f: DomFacts) =>
      f.metas.filter((m) => m.getAttribute('itemprop') === 'datePublished').map((m) => m.getAttribute('content'));
    // A card that is a link to the article it describes.
    const linked =
      '<a href="/blog/outlook-2026" itemscope itemtype="https://schema.org/NewsArticle">' +
      '<meta itemprop="datePublished" content="December 2, 2025"><h3 itemprop="name">Outlook 2026</h3></a>';
    const teased = at(`<aside>${linked}</aside>${own()}`);
    expect(teased.itempropDate).toBe('2024-03-01');
    expect(datesIn(teased)).toEqual([]);
    // Cards side by side, and one card naming another page as its URL.
    const card = (path: string, date: string) =>
      `<div itemscope itemtype="https://schema.org/BlogPosting"><meta itemprop="url" content="${path}">` +
      `<span itemprop="datePublished" content="${date}">${date}</span><h3><a href="${path}">Post</a></h3></div>`;
    expect(
      at(`<section>${card('/blog/a', '2025-01-01')}${card('/blog/b', '2025-02-01')}</section>${own()}`).itempropDate,
    ).toBe('2024-03-01');
    expect(at(`<section>${card('/blog/a', '2025-01-01')}</section>${own()}`).itempropDate).toBe('2024-03-01');
    // The page's own item naming its own URL or canonical, a WebPage item, a forum's posts.
    expect(at(own('<meta itemprop="url" content="/blog/our-story/">')).itempropDate).toBe('2024-03-01');
    const canonical = '<link rel="canonical" href="https://www.example.com/story">';
    expect(at(own('<link itemprop="url" href="https://example.com/story">'), canonical).itempropDate).toBe(
      '2024-03-01',
    );
    const page = at(
      '<div itemscope itemtype="https://schema.org/WebPage"><meta itemprop="datePublished" content="2023-05-06"></div>',
    );
    expect(datesIn(page)).toEqual(['2023-05-06']);
    const post = (id: number, date: string) =>
      `<article itemscope itemtype="https://schema.org/Comment"><a itemprop="url" href="/threads/t.1/post-${id}">#${id}</a>` +
      `<time itemprop="datePublished" datetime="${date}">${date}</time><p>Post.</p></article>`;
    expect(at(`<h1>Thread</h1>${post(1, '2022-07-09')}${post(2, '2022-07-10')}`).itempropDate).toBe('2022-07-09');
  });
});
