import { afterEach, describe, expect, it } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { AnalysisPool, MIN_SHARED_PAGES } from './analysis-pool.js';
import { toRow } from './rows.js';

const LIMITS = { snippetSourceChars: 100, maxIndexedChars: 5000, titleRepeat: 2 };

/** Pages in English, German and Chinese, each with its own words. */
function pages(n: number): PageDocument[] {
  return Array.from({ length: n }, (_, i) => {
    const lang = ['en', 'de', 'zh'][i % 3]!;
    const body =
      lang === 'zh'
        ? `搜索引擎第${i}页，记者报道了天气和交通的情况。`
        : `Page ${i} says that running engines were tested in ${lang === 'de' ? 'Straßen' : 'streets'} and libraries.`;
    return makePage(`p${i}`, `https://s${i % 5}.example.org/${i}`, `Title ${i}`, body, { lang });
  });
}

describe('AnalysisPool', () => {
  let pool: AnalysisPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('turns a large write into the rows this thread would make, in order, with a share on a worker', async () => {
    pool = new AnalysisPool(LIMITS, 2);
    const docs = pages(MIN_SHARED_PAGES * 2 + 7);
    const rows = await pool.rows(docs);
    expect(rows.map((row) => row.id)).toEqual(docs.map((doc) => doc.id));
    expect(rows).toEqual(docs.map((doc) => toRow(doc, LIMITS)));
  });

  it('analyses small writes here, and starts again after close', async () => {
    pool = new AnalysisPool(LIMITS, 1);
    const small = pages(3);
    expect(await pool.rows(small)).toEqual(small.map((doc) => toRow(doc, LIMITS)));
    const large = pages(MIN_SHARED_PAGES);
    expect(await pool.rows(large)).toEqual(large.map((doc) => toRow(doc, LIMITS)));
    await pool.close();
    expect(await pool.rows(large)).toEqual(large.map((doc) => toRow(doc, LIMITS)));
  });

  it('analyses here the share of a worker stopped while it had it', async () => {
    pool = new AnalysisPool(LIMITS, 1);
    const docs = pages(MIN_SHARED_PAGES * 4);
    const pending = pool.rows(docs);
    await pool.close();
    expect(await pending).toEqual(docs.map((doc) => toRow(doc, LIMITS)));
    // And the next large write starts the pool again.
    expect((await pool.rows(docs.slice(0, MIN_SHARED_PAGES))).length).toBe(MIN_SHARED_PAGES);
  });

  it('answers concurrent writes each with its own rows', async () => {
    pool = new AnalysisPool(LIMITS, 1);
    const [a, b] = [pages(MIN_SHARED_PAGES + 1), pages(MIN_SHARED_PAGES + 40).slice(20)];
    const [ra, rb] = await Promise.all([pool.rows(a), pool.rows(b)]);
    expect(ra.map((row) => row.id)).toEqual(a.map((doc) => doc.id));
    expect(rb.map((row) => row.id)).toEqual(b.map((doc) => doc.id));
  });

  it('lets the event loop run while it analyses a small write of long pages here', async () => {
    pool = new AnalysisPool({ ...LIMITS, maxIndexedChars: 400_000 }, 0);
    // Long pages: each takes milliseconds, the write far more than one slice.
    const long = pages(40).map((doc) => ({ ...doc, body_text: `${doc.body_text} `.repeat(2000) }));
    let turns = 0;
    let spinning = true;
    const spin = () => {
      if (!spinning) return;
      turns += 1;
      setImmediate(spin);
    };
    setImmediate(spin);
    const started = performance.now();
    const rows = await pool.rows(long);
    const tookMs = performance.now() - started;
    spinning = false;
    expect(rows).toEqual(long.map((doc) => toRow(doc, { ...LIMITS, maxIndexedChars: 400_000 })));
    // Turns between slices (none if the write were analysed in one go); how many depends on the
    // machine's speed, so only a few are asked of the 100 ms or more the write takes.
    expect(tookMs).toBeGreaterThan(100);
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
