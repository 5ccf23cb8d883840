import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexHit, PageDocument } from '@quarry/core';
import { SIMHASH_NEAR_BITS, simhash, simhashDistance } from '@quarry/text';
import request from 'supertest';
import { createApp } from './app.js';
import { collapseNearCopies, sameHeadline } from './collapse.js';
import { createMcpBackend } from './mcp-backend.js';
import { createFixture, type Fixture, page } from './test-support/fixture.js';

/** An article of `words` pseudo-random words (seeded), mentioning otters every `every` words. */
function article(seed: number, words = 360, every = 40): string {
  let state = seed * 2_654_435_761;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state;
  };
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(i % every === 7 ? 'otter' : `w${next() % 5_000}`);
  return out.join(' ');
}

const withSimhash = (doc: PageDocument): PageDocument => ({ ...doc, simhash: simhash(doc.body_text) ?? undefined });
const hit = (id: string, hash?: string): IndexHit => ({
  id,
  url: `https://a.test/${id}`,
  title: id,
  snippet: '',
  domain: 'a.test',
  site_name: null,
  lang: 'en',
  score: 1,
  has_llms_txt: false,
  published_at: null,
  crawled_at: '2026-11-24T00:00:00Z',
  filetype: 'html',
  ...(hash ? { simhash: hash } : {}),
});

describe('collapseNearCopies', () => {
  it('keeps the first of each group of near-copies, in rank order', () => {
    const hits = [
      hit('a', '0000000000000000'),
      hit('b', 'ffffffffffffffff'),
      hit('a-copy', '000000000000000f'),
      hit('c'),
      hit('d'),
      hit('b-copy', 'fffffffffffffff0'),
      hit('far', '00000000000000ff'),
    ];
    expect(collapseNearCopies(hits).map((h) => h.id)).toEqual(['a', 'b', 'c', 'd', 'far']);
  });

  it('keeps a near-copy that names itself apart: pages of one template are not copies', () => {
    const hits = [
      { ...hit('a', '0000000000000000'), title: 'Invoice 3' },
      { ...hit('b', '0000000000000001'), title: 'Invoice 17' },
      { ...hit('c', '0000000000000003'), title: 'INVOICE  3 | Billing' },
      { ...hit('d', '0000000000000007'), title: 'Print: invoice 17' },
      { ...hit('e', '000000000000000f'), title: 'Invoice 31' },
    ];
    expect(collapseNearCopies(hits).map((h) => h.id)).toEqual(['a', 'b', 'e']);
    expect(sameHeadline('Otters', 'otters')).toBe(true);
    expect(sameHeadline('Page 1', 'Page 12')).toBe(false);
    // Mirrors naming themselves after the headline; a template's pages named so stay apart.
    expect(sameHeadline('Otters - Site C', 'Otters | Site D')).toBe(true);
    expect(sameHeadline('Print: Otters | Mirror', 'Otters — Site C')).toBe(true);
    expect(sameHeadline('Invoice 3 | Billing', 'Invoice 17 | Billing')).toBe(false);
    expect(sameHeadline('Otters - Site C', 'Beavers - Site C')).toBe(false);
    expect(sameHeadline('', '')).toBe(true);
    expect(sameHeadline('', 'Otters')).toBe(false);
  });

  it('keeps a near-copy of another file type: the PDF and the Word file of one text are two documents', () => {
    const hits = [
      { ...hit('report.pdf', '0000000000000000'), filetype: 'pdf' },
      { ...hit('report.doc', '0000000000000001'), filetype: 'doc', title: 'report.pdf' },
      { ...hit('report-copy.pdf', '0000000000000003'), filetype: 'pdf', title: 'report.pdf' },
    ];
    expect(collapseNearCopies(hits).map((h) => h.id)).toEqual(['report.pdf', 'report.doc']);
  });
});

describe('search collapses near-copies', () => {
  let fx: Fixture;
  const originals = [1, 2, 3, 4, 5, 6].map((n) =>
    withSimhash(page(`https://site${n}.test/otters`, { body_text: article(n), title: `Otters, part ${n}` })),
  );
  // Copies of the first two under other URLs: another date line, a print view with a footer.
  const copies = [
    withSimhash(
      page('https://mirror.test/otters-1', {
        body_text: `Updated 14 March 2024. ${article(1)}`,
        title: 'Otters, part 1 | Mirror',
      }),
    ),
    withSimhash(
      page('https://site1.test/print/otters', {
        body_text: `${article(1)} Printed from site1.test`,
        title: 'Print: otters — part 1',
      }),
    ),
    withSimhash(
      page('https://mirror.test/otters-2', { body_text: `Posted 2 May 2025. ${article(2)}`, title: 'Otters, part 2' }),
    ),
  ];
  const search = (query: Record<string, string>) =>
    request(createApp(fx.deps()))
      .get('/api/v1/search')
      .query({ q: 'otter', ...query });

  beforeAll(async () => {
    fx = await createFixture([...originals, ...copies]);
  });
  afterAll(async () => {
    await fx?.cleanup();
  });

  it('has copies within the threshold and originals far apart (the premise)', () => {
    const [a, b] = originals;
    for (const [doc, copy] of [
      [a, copies[0]],
      [a, copies[1]],
      [b, copies[2]],
    ] as const) {
      expect(simhashDistance(doc!.simhash!, copy!.simhash!)).toBeLessThanOrEqual(SIMHASH_NEAR_BITS);
    }
    expect(simhashDistance(a!.simhash!, b!.simhash!)).toBeGreaterThan(SIMHASH_NEAR_BITS);
  });

  it('shows one result per page, and counts them so in total', async () => {
    const res = await search({ limit: '20' });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    expect(res.body.results).toHaveLength(6);
    const hosts = res.body.results.map((r: { url: string }) => r.url);
    // One of each group: the first two pages appear once, under whichever URL ranked best.
    expect(hosts.filter((u: string) => /site1\.test|mirror\.test\/otters-1/.test(u))).toHaveLength(1);
    expect(hosts.filter((u: string) => /site2\.test|mirror\.test\/otters-2/.test(u))).toHaveLength(1);
  });

  it('fills a page to its limit and pages through one list without repeats', async () => {
    const all = (await search({ limit: '20' })).body.results.map((r: { id: string }) => r.id);
    const pages: string[] = [];
    for (const offset of [0, 2, 4, 6]) {
      const res = await search({ limit: '2', offset: String(offset) });
      // The same total on every page, however little of the ranking it shows, and exact.
      expect(res.body.total).toBe(6);
      expect(res.headers['quarry-total']).toBeUndefined();
      expect(res.body.results.length).toBe(offset < 6 ? 2 : 0);
      pages.push(...res.body.results.map((r: { id: string }) => r.id));
    }
    expect(pages).toEqual(all);
  });

  /** The fixture's index, counting up to its bound and estimating past it (the embedded one: 1,091 matches). */
  function estimatingDeps() {
    const deps = fx.deps();
    const index = deps.index;
    const estimating = new Proxy(index, {
      get: (target, key) => {
        if (key === 'search') {
          return async (query: Parameters<typeof index.search>[0]) => ({
            ...(await index.search(query)),
            totalIsEstimate: true,
          });
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { ...deps, index: estimating };
  }

  it('says when the index only estimated the total', async () => {
    const res = await request(createApp(estimatingDeps())).get('/api/v1/search').query({ q: 'otter' });
    expect(res.status).toBe(200);
    expect(res.headers['quarry-total']).toBe('estimate');
  });

  it('says so through MCP too (total_is_estimate), and that an exact total is exact', async () => {
    const args = { q: 'otter', limit: 10, offset: 0, match: 'any' as const };
    const estimated = await createMcpBackend(estimatingDeps()).search(args);
    expect(estimated).toMatchObject({ total_is_estimate: true });
    expect(estimated.total).toBeGreaterThan(0);
    expect(await createMcpBackend(fx.deps()).search(args)).toMatchObject({ total_is_estimate: false });
  });
});

describe('search collapses the head of a long ranking and pages through the rest', () => {
  let fx: Fixture;
  // Five pages that rank first (otters everywhere), each with a near-copy, then 120 others.
  const top = [1, 2, 3, 4, 5].flatMap((n) => [
    withSimhash(page(`https://top${n}.test/a`, { body_text: article(100 + n, 360, 8), title: `Top ${n}` })),
    withSimhash(
      page(`https://copy${n}.test/a`, { body_text: `Updated today. ${article(100 + n, 360, 8)}`, title: `Top ${n}` }),
    ),
  ]);
  const rest = Array.from({ length: 120 }, (_, n) =>
    withSimhash(page(`https://rest${n}.test/a`, { body_text: article(1_000 + n, 360, 300) })),
  );

  beforeAll(async () => {
    fx = await createFixture([...top, ...rest]);
  });
  afterAll(async () => {
    await fx?.cleanup();
  });

  it('serves each page once, one of each near-copy pair, across the end of the collapsed head, and counts them so', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 140; offset += 20) {
      const res = await request(createApp(fx.deps()))
        .get('/api/v1/search')
        .query({ q: 'otter', limit: '20', offset: String(offset) });
      expect(res.status).toBe(200);
      // The index counts 130 matches; the five copies met at the top of the ranking are not shown,
      // so a client paging up to `total` never asks for an empty page.
      expect(res.body.total).toBe(125);
      expect(res.body.results.length).toBe(offset < 120 ? 20 : offset < 125 ? 5 : 0);
      seen.push(...res.body.results.map((r: { url: string }) => r.url));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(125);
    for (let n = 1; n <= 5; n += 1) {
      expect(seen.filter((u) => u === `https://top${n}.test/a` || u === `https://copy${n}.test/a`)).toHaveLength(1);
    }
  });
});

describe('search reaches as deep with any page size when the head is mostly near-copies', () => {
  let fx: Fixture;
  // 99 copies of one page rank first (otters everywhere), then 1,050 others: the collapsed head
  // holds 2 results, so collapsed position p is the index's rank p + 98.
  const copies = Array.from({ length: 99 }, (_, n) =>
    withSimhash(page(`https://copy${n}.test/a`, { body_text: article(7, 360, 8), title: 'Otters' })),
  );
  const rest = Array.from({ length: 1_050 }, (_, n) =>
    withSimhash(page(`https://rest${n}.test/a`, { body_text: article(2_000 + n, 360, 300) })),
  );

  beforeAll(async () => {
    fx = await createFixture([...copies, ...rest]);
  }, 120_000);
  afterAll(async () => {
    await fx?.cleanup();
  });

  it('serves the same results at each position to pages of 10 and of 100, down to the index reach', async () => {
    const app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '100000' }));
    const urls = async (offset: number, limit: number): Promise<string[]> => {
      const res = await request(app)
        .get('/api/v1/search')
        .query({ q: 'otter', limit: String(limit), offset: String(offset) });
      expect(res.status).toBe(200);
      return res.body.results.map((r: { url: string }) => r.url);
    };
    const byHundred: string[] = [];
    for (let offset = 0; offset <= 900; offset += 100) byHundred.push(...(await urls(offset, 100)));
    const byTen: string[] = [];
    for (let offset = 0; offset <= 990; offset += 10) byTen.push(...(await urls(offset, 10)));
    // Positions 0 to 991: the index's ranks up to 1,089, less the 98 copies collapsed.
    expect(byTen).toHaveLength(992);
    expect(new Set(byTen).size).toBe(992);
    expect(byHundred).toHaveLength(992);
    expect(byTen).toEqual(byHundred);
    expect(byTen.filter((u) => u.startsWith('https://copy'))).toHaveLength(1);
  }, 120_000);
});
