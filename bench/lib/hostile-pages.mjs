// Generated pages whose shape once made a step of extraction grow faster than the page (see
// packages/extract/src/hostile-pages.test.ts): how long each takes, against the crawler's 30 s limit.
const PARAGRAPH = 'Some words of the article that make a paragraph long enough to count as text.';
const times = (n, part) => Array.from({ length: n }, (_, i) => part(i)).join('');
const wrap = (body, head = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

/** [name, html] pairs, each about as large as the ones that took minutes before. */
export function hostilePages() {
  const keywords = 'Cheap flights - '.repeat(20_000);
  return [
    ['5,000 nested <div>s', wrap(`${'<div>'.repeat(5_000)}<p>Deep.</p>${'</div>'.repeat(5_000)}`)],
    [
      '7,000 nested <div>s of a few words each',
      wrap(`${'<div>some words here '.repeat(7_000)}${'</div>'.repeat(7_000)}`),
    ],
    ['20,000 unclosed <p><b><i>', wrap(`<h1>Unclosed</h1>${'<p><b><i>word '.repeat(20_000)}`)],
    // Without the paragraphs' closing (see the htmlparser2 patch), inline elements nest for good.
    ['20,000 unclosed <span><b><i>', wrap(`<h1>Unclosed</h1>${'<span><b><i>word '.repeat(20_000)}`)],
    [
      '20,000 nested <section>s of a heading and a paragraph',
      wrap(
        `<article><h1>Parts</h1>${'<section><h2>Part</h2><p>A sentence of some thirty characters, with a comma.</p>'.repeat(20_000)}${'</section>'.repeat(20_000)}</article>`,
      ),
    ],
    [
      '480 KB Chinese paragraph',
      wrap(`<article><h1>标题</h1><p>${'中文字是一种文字，我们今天说。'.repeat(32_000)}</p></article>`),
    ],
    ['1,000,000 digits', wrap(`<article><h1>Pi</h1><p>3.${'1415926535'.repeat(100_000)}</p></article>`)],
    ['title of 20,000 parts', wrap(`<h1>${keywords}</h1><p>Text.</p>`, `<title>${keywords}</title>`)],
    ['300,000 &nbsp;', wrap(`<article><h1>Gap</h1><p>a${'&nbsp;'.repeat(300_000)}b</p></article>`)],
    ['10,000 nested <table><tr><td>', wrap(`${'<table><tr><td>'.repeat(10_000)}x`)],
    [
      'list of 50,000 empty items',
      wrap(`<article><h1>Items</h1><p>Text.</p><ul>${'<li>'.repeat(50_000)}</ul></article>`),
    ],
    [
      '20,000 footnote references',
      wrap(
        `<article><h1>Notes</h1><p>${'word<sup><a href="#fn1">1</a></sup> '.repeat(20_000)}</p><ol><li id="fn1">The note.</li></ol></article>`,
      ),
    ],
    [
      '20,000 headings linking to their contents entries',
      wrap(
        `<article><h1>Headings</h1><ul>${times(20_000, (i) => `<li><a id="toc${i}" href="#h${i}">Heading ${i}</a></li>`)}</ul>${times(20_000, (i) => `<h2 id="h${i}"><a href="#toc${i}">Heading ${i}</a></h2><p>${PARAGRAPH}</p>`)}</article>`,
      ),
    ],
    [
      '20,000 MathJax 2 formulas',
      wrap(
        `<article><h1>Formulas</h1><p>${PARAGRAPH}</p><p>${times(20_000, (i) => `<span class="MathJax_Preview"></span><span id="MathJax-Element-${i}-Frame">x</span><script type="math/tex" id="MathJax-Element-${i}">x_${i}</script> `)}</p></article>`,
      ),
    ],
    [
      '20,000 streamed React parts',
      wrap(
        `<article><h1>Streamed</h1><p>${PARAGRAPH}</p>${times(20_000, (i) => `<template id="P:${i}"></template>`)}</article>${times(20_000, (i) => `<div hidden id="S:${i}"><p>Part ${i}.</p></div>`)}`,
      ),
    ],
    [
      '40,000 skip links in one parent',
      wrap(
        `<article><h1>Skips</h1>${times(40_000, () => `<a href="#main">Skip to content</a><p>${PARAGRAPH}</p>`)}</article>`,
      ),
    ],
    [
      '20,000 posts with poster panels',
      wrap(
        `<main><h1>Topic</h1>${times(20_000, (i) => `<div class="postprofile"><dl><dt><a href="/u${i}" class="username">user${i}</a></dt><dd>Posts: ${i}</dd></dl></div><div class="postbody"><p>Post ${i} text.</p></div>`)}</main>`,
      ),
    ],
    [
      '300,000 inline elements in a paragraph',
      wrap(`<article><h1>Spans</h1><p>${'<span>w</span>'.repeat(300_000)}</p></article>`),
    ],
    [
      'code block of 20,000 highlighted lines',
      wrap(
        `<article><h1>Code</h1><p>${PARAGRAPH}</p><pre><code>${times(20_000, (i) => `<span class="line"><span class="ln">${i}</span>code ${i}</span>\n`)}</code></pre></article>`,
      ),
    ],
    [
      '3 KB table of 50 cells spanning 999,999,999',
      wrap(
        `<article><h1>Table</h1><p>${PARAGRAPH}</p><table>${'<tr><td rowspan="999999999" colspan="999999999">a</td></tr>'.repeat(50)}</table></article>`,
      ),
    ],
    [
      'table of 20,000 cells over 2,000 rows of one',
      wrap(
        `<article><h1>Table</h1><p>${PARAGRAPH}</p><table><tr>${'<td>x</td>'.repeat(20_000)}</tr>${'<tr><td>y</td></tr>'.repeat(2_000)}</table></article>`,
      ),
    ],
    [
      '20,000 paragraphs 250 list items deep',
      wrap(
        `<article><h1>Deep</h1><p>${PARAGRAPH}</p>${'<ol><li>'.repeat(250)}${'<p>para</p>'.repeat(20_000)}${'</li></ol>'.repeat(250)}</article>`,
      ),
    ],
    [
      '20,000 unclosed <b>s, then 20,000 links',
      wrap(
        `<article><h1>Links</h1><p>${PARAGRAPH}</p><p>${'<b>bold '.repeat(20_000)}${'<a href="/l">link</a> '.repeat(20_000)}</p></article>`,
      ),
    ],
    [
      "20,000 copyright lines at an article's end",
      wrap(
        `<article><h1>Notice</h1>${`<p>${PARAGRAPH}</p>`.repeat(5)}${'<p>© 2025 Example Inc.</p>'.repeat(20_000)}</article>`,
      ),
    ],
    [
      '5,000 labelled lists of related posts',
      wrap(
        `<article><h1>Related</h1>${`<p>${PARAGRAPH}</p>`.repeat(5)}${'<h3>Related posts</h3><ul><li><a href="/a">Another post of the site</a></li><li><a href="/b">One more post of the site</a></li></ul>'.repeat(5_000)}</article>`,
      ),
    ],
    [
      '20,000 labels of one form control',
      wrap(
        `<article><h1>Form</h1><p>${PARAGRAPH}</p>${'<label for="email">Email address</label>'.repeat(20_000)}<input id="email"></article>`,
      ),
    ],
    [
      '5,000 nested blocks named as search filters',
      wrap(
        `<main><h1>Nested</h1>${`<p>${PARAGRAPH}</p>`.repeat(5)}${'<div class="filters"><a href="/f">Option</a> word '.repeat(5_000)}${'</div>'.repeat(5_000)}</main>`,
      ),
    ],
    [
      '5,000 nested lower headings of the title, no <h1>',
      wrap(
        `${'<h2>Space ship breaks up over Siberia '.repeat(5_000)}${'</h2>'.repeat(5_000)}<p>By Ann Lee</p>`,
        '<title>Space ship breaks up over Siberia</title>',
      ),
    ],
    [
      '20,000 prompts to sign in',
      wrap(
        `<article><h1>Prompts</h1>${`<p>${PARAGRAPH}</p>`.repeat(5)}${'<p>You must <a href="/login">log in</a> to answer this question.</p>'.repeat(20_000)}</article>`,
      ),
    ],
    [
      '5,000 nested prompts to sign in',
      wrap(
        `<article><h1>Prompts</h1><p>${PARAGRAPH}</p>${'<div>Please <a href="/l">log in</a> to see '.repeat(5_000)}${'</div>'.repeat(5_000)}</article>`,
      ),
    ],
    [
      '20,000 advertisement labels',
      wrap(
        `<article><h1>Ads</h1><p>${PARAGRAPH}</p>${'<div><span>Advertisement</span></div><p>Text between the ads.</p>'.repeat(20_000)}</article>`,
      ),
    ],
    [
      'table cell of 50,000 lines parted by <br>',
      wrap(
        `<article><h1>Table</h1><p>${PARAGRAPH}</p><table><tr><td>${'line<br>'.repeat(50_000)}</td><td>end</td></tr></table></article>`,
      ),
    ],
  ];
}
