// A page document for the index's child-process tests (writer-child.mjs, page-writer-child.mjs):
// page `n` of `host`, with the fields every page carries set to their plain values.
export function testPage(n, { host, title, text, lang = 'en', words }) {
  return {
    id: `doc${n}`,
    url: `https://${host}/${n}`,
    title,
    body_text: text,
    lang,
    author: null,
    published_at: null,
    crawled_at: '2026-11-01T00:00:00Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: host,
    word_count: words,
  };
}
