import { afterEach, describe, expect, it } from '@jest/globals';
import { IMPORT_HELPERS, type LineParser, localLineParser, pooledLineParser } from './line-parser.js';

/** Lines of every kind: English, Chinese (segmented word count), no lang (detected), and bad ones. */
function lines(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const at = { crawled_at: '2026-11-20T10:00:00Z' };
    switch (i % 5) {
      case 0:
        return JSON.stringify({ url: `https://a.org/${i}`, title: `T${i}`, body_text: `Airships ${i} flew`, ...at });
      case 1:
        return JSON.stringify({
          url: `https://b.cn/${i}`,
          title: '标题',
          body_text: '我们喜欢iPhone手机',
          lang: 'zh',
          ...at,
        });
      case 2:
        return JSON.stringify({
          url: `https://c.de/${i}`,
          title: 'T',
          body_text: 'Die Straßen sind heute sehr voll',
          ...at,
        });
      case 3:
        return `{"url": "https://d.org/${i}", "title": 7}`;
      default:
        return 'not json';
    }
  });
}

describe('pooledLineParser', () => {
  let parser: LineParser | undefined;
  afterEach(async () => {
    await parser?.close();
  });

  it('parses chunks on workers and here as this thread alone would, each chunk in its order', async () => {
    parser = pooledLineParser(2);
    const here = localLineParser(IMPORT_HELPERS);
    const chunks = Array.from({ length: 6 }, (_, i) => lines(40 + i));
    const results = await Promise.all(chunks.map((chunk) => parser!.parse(chunk)));
    for (const [i, chunk] of chunks.entries()) expect(results[i]).toEqual(await here.parse(chunk));
    expect(results[0]![1]).toMatchObject({ ok: true, doc: { lang: 'zh', word_count: 4 } });
    expect(results[0]![3]).toMatchObject({ ok: false, reason: expect.stringContaining('title') });
  });

  it('parses here the chunk of a worker stopped while it had it', async () => {
    parser = pooledLineParser(1);
    const chunk = lines(50);
    const pending = parser.parse(chunk);
    await parser.close();
    expect(await pending).toEqual(await localLineParser(IMPORT_HELPERS).parse(chunk));
    // The next chunk starts the pool again.
    expect(await parser.parse(chunk)).toHaveLength(50);
  });
});
