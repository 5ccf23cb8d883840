// Generated pages whose shape once made a step of extraction grow faster than the page (see
// packages/extract/src/hostile-pages.test.ts): how long each takes, against the crawler's 30 s limit.
const wrap = (body, head = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

/** [name, html] pairs, each about as large as the ones that took minutes before. */
export function hostilePages() {
  const keywords = 'Cheap flights - '.repeat(20_000);
  return [
    ['5,000 nested <div>s', wrap(`${'<div>'.repeat(5_000)}<p>Deep.</p>${'</div>'.repeat(5_000)}`)],
    ['20,000 unclosed <p><b><i>', wrap(`<h1>Unclosed</h1>${'<p><b><i>word '.repeat(20_000)}`)],
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
  ];
}
