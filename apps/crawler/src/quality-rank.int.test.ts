import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type PageDocument, pageIdForUrl } from '@quarry/core';
import { extractHtml } from '@quarry/extract';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';

const ORIGIN = 'https://gazette.example';

/** A news site's front page: a line of introduction and the day's headlines as links. */
const FRONT_PAGE = `<!doctype html><html lang="en"><head><title>The Tundra Gazette</title></head><body>
<header><a href="/">The Tundra Gazette</a><nav><a href="/news/">News</a> <a href="/about/">About</a></nav></header>
<main><h1>Today</h1><ul>${[
  'Walrus colonies return to the northern beaches',
  'Counting walrus calves from the air',
  'Walrus tusks and what they tell us',
  'Ice roads open a week early',
  'The ptarmigan turns white again',
  'Reindeer herders meet in the valley',
]
  .map((headline, i) => `<li><a href="/news/${i}.html">${headline}</a> <span>24 Nov</span></li>`)
  .join('')}</ul></main><footer>© 2026 The Tundra Gazette</footer></body></html>`;

/** An article that mentions the walrus once, among many other words. */
const ARTICLE = `<!doctype html><html lang="en"><head><title>Sea ice report</title></head><body><article><h1>Sea ice report</h1>
${Array.from(
  { length: 10 },
  (_, i) =>
    `<p>Report ${i + 1}: the sea ice along the coast grew thicker this week, and the research station measured the temperature of the water every morning${i === 4 ? ', while a walrus rested on the floe beside the boat' : ''}.</p>`,
).join('\n')}</article></body></html>`;

/**
 * A page as the crawler stores it; `bodyText` replaces the extracted text where a test needs the
 * link text indexed whatever the extractor keeps of a link list.
 */
function document(path: string, html: string, bodyText?: string): PageDocument {
  const url = `${ORIGIN}${path}`;
  const page = extractHtml(html, { url, markdown: false });
  return {
    id: pageIdForUrl(url),
    url,
    title: page.title,
    body_text: bodyText ?? page.body_text,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: '2026-11-24T08:00:00Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: 'gazette.example',
    word_count: page.word_count,
    ...(page.quality < 1 ? { quality: page.quality } : {}),
  };
}

describe('the quality prior ranks an article above a link list for a word of its link text', () => {
  let dir: string;
  let withPrior: LanceSearchIndex;
  let withoutPrior: LanceSearchIndex;
  const headlines = (FRONT_PAGE.match(/<main>([\s\S]*)<\/main>/)?.[1] ?? '').replace(/<[^>]+>/g, ' ');
  const front = document('/', FRONT_PAGE, headlines.replace(/\s+/g, ' ').trim());
  const article = document('/sea-ice.html', ARTICLE);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-quality-'));
    withPrior = await LanceSearchIndex.open({ path: join(dir, 'with') });
    withoutPrior = await LanceSearchIndex.open({ path: join(dir, 'without') });
    await withPrior.upsert([front, article]);
    // The control: the same two pages, as if the front page had running text.
    const { quality: _dropped, ...frontAsArticle } = front;
    await withoutPrior.upsert([frontAsArticle, article]);
  });
  afterAll(async () => {
    await withPrior?.close();
    await withoutPrior?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ranked = async (index: LanceSearchIndex) =>
    (await index.search({ query: parseQuery('walrus'), limit: 10, offset: 0 })).hits.map((h) => h.url);

  it('gives the front page a prior below 1 and the article none', () => {
    expect(front.body_text).toMatch(/walrus/i);
    expect(front.quality).toBeLessThan(1);
    expect(article.quality).toBeUndefined();
  });

  it('ranks the article first, where the front page would win without the prior', async () => {
    expect(await ranked(withoutPrior)).toEqual([front.url, article.url]);
    expect(await ranked(withPrior)).toEqual([article.url, front.url]);
  });
});
