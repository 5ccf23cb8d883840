import { describe, expect, it, jest } from '@jest/globals';
import type { Seed, SeedStanding } from '@quarry/crawler';
import { REASON_NOTES, type ReasonCount } from '@quarry/queue';
import { reasonLines, seedReport, warnRefusedSeeds } from './seed-report.js';

/** Stats whose counts are the reasons' sums, as when no state has more than ten reasons. */
const counted = (reasons: ReasonCount[]) => {
  const sum = (state: ReasonCount['state']) =>
    reasons.filter((r) => r.state === state).reduce((total, r) => total + r.count, 0);
  return { reasons, skipped: sum('skipped'), failed: sum('failed') };
};

describe('seedReport', () => {
  it('says which seeds were new, queued again, left alone or not queued', () => {
    const report = seedReport([
      { url: 'http://a.test/', state: 'new', requeued: false },
      { url: 'http://b.test/', state: 'skipped', reason: 'blocked_address', requeued: true },
      { url: 'http://c.test/', state: 'failed', requeued: true },
      { url: 'http://d.test/', state: 'done', requeued: false },
      { url: 'http://e.test/', state: 'pending', requeued: false },
      { url: 'http://f.test/', state: 'unknown', requeued: false },
      { url: 'http://g.test/', state: 'done', requeued: true, widened: { pages: 80 } },
      { url: 'http://h.test/', state: 'failed', requeued: true, widened: { pages: 1 } },
    ]);
    expect(report.split('\n')).toEqual([
      'queued 1 new seed URL',
      'crawled again with a larger page budget, depth or scope: their pages are queued again (2):',
      '  http://g.test/ (80 pages)',
      '  http://h.test/ (1 page)',
      'queued again, as they ended skipped or failed (2):',
      '  http://b.test/ (was skipped: blocked_address)',
      '  http://c.test/ (was failed)',
      'left alone, already crawled with as large a budget, depth and scope (--recrawl AGE crawls pages again) (1):',
      '  http://d.test/',
      'already queued (1):',
      '  http://e.test/',
      "not queued, their site's page budget is spent (1):",
      '  http://f.test/',
    ]);
  });

  it('lists at most ten of a kind and counts the rest', () => {
    const done = Array.from({ length: 13 }, (_, i) => ({
      url: `http://a.test/${i}`,
      state: 'done' as const,
      requeued: false,
    }));
    const lines = seedReport(done).split('\n');
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('  ... and 3 more');
  });

  it('is empty when there were no seeds', () => {
    expect(seedReport([])).toBe('');
  });
});

describe('warnRefusedSeeds', () => {
  /** A crawler whose address policy refuses every seed (all at 127.0.0.1). */
  const refusing = {
    refusedSeeds: async (seeds: readonly Seed[]) => seeds.map((seed) => ({ seed, address: '127.0.0.1' })),
  };
  const warned = async (standings: SeedStanding[], crawlsHere: boolean) => {
    const seeds = standings.map(({ url }) => ({ url }) as Seed);
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const count = await warnRefusedSeeds(refusing, seeds, standings, crawlsHere);
      return { count, text: write.mock.calls.map(([chunk]) => String(chunk)).join('') };
    } finally {
      write.mockRestore();
    }
  };

  it('warns about the refused seeds left queued: new, queued again or already queued', async () => {
    const { count, text } = await warned(
      [
        { url: 'http://127.0.0.1:1/new', state: 'new', requeued: false },
        { url: 'http://127.0.0.1:1/again', state: 'skipped', reason: 'blocked_address', requeued: true },
        { url: 'http://127.0.0.1:1/pending', state: 'pending', requeued: false },
      ],
      false,
    );
    expect(count).toBe(3);
    expect(text.match(/It is queued: a crawler started with QUARRY_ALLOW_HOSTS=127\.0\.0\.1/g)).toHaveLength(3);
  });

  it('says nothing of a seed not queued: within a forgotten site, done, or its budget spent', async () => {
    const standings: SeedStanding[] = [
      { url: 'http://127.0.0.1:1/bbc-1.html', state: 'forgotten', requeued: false, site: '127.0.0.1:1' },
      { url: 'http://127.0.0.1:1/done', state: 'done', requeued: false },
      { url: 'http://127.0.0.1:1/spent', state: 'unknown', requeued: false },
    ];
    expect(await warned(standings, false)).toEqual({ count: 0, text: '' });
    expect(await warned(standings, true)).toEqual({ count: 0, text: '' });
  });
});

describe('reasonLines', () => {
  it('lists skip then failure reasons with counts and examples, aligned', () => {
    expect(
      reasonLines(
        counted([
          { state: 'failed', reason: 'http_404', count: 3, examples: ['http://a.test/x'] },
          { state: 'skipped', reason: 'blocked_address', count: 12, examples: ['http://b.test/', 'http://b.test/2'] },
          { state: 'skipped', reason: 'noindex', count: 1, examples: ['http://c.test/'] },
        ]),
      ),
    ).toEqual([
      'skipped, by reason:',
      '       12  blocked_address  e.g. http://b.test/ http://b.test/2',
      '        1  noindex          e.g. http://c.test/',
      'failed, by reason:',
      '        3  http_404  e.g. http://a.test/x',
    ]);
  });

  it('says what the duplicate reasons mean', () => {
    expect(
      reasonLines(
        counted([
          { state: 'skipped', reason: 'duplicate', count: 2, examples: ['http://a.test/index.html'] },
          { state: 'skipped', reason: 'canonical_elsewhere', count: 1, examples: ['http://a.test/amp/'] },
        ]),
      ),
    ).toEqual([
      'skipped, by reason:',
      '        2  duplicate            e.g. http://a.test/index.html',
      '        1  canonical_elsewhere  e.g. http://a.test/amp/',
      '  duplicate: the same main text is indexed under another URL (its canonical or shortest one)',
      '  canonical_elsewhere: the page names another URL of its site as canonical; that URL is crawled instead',
    ]);
  });

  it('counts the URLs of the reasons beyond those listed on an other reasons line, so the rows add up', () => {
    const failures = Array.from({ length: 10 }, (_, n) => ({
      state: 'failed' as const,
      reason: `http_${400 + n}`,
      count: 1,
      examples: [`http://a.test/${n}`],
    }));
    const lines = reasonLines({
      reasons: [{ state: 'skipped', reason: 'duplicate', count: 2, examples: ['http://a.test/d'] }, ...failures],
      skipped: 2,
      failed: 13,
    });
    expect(lines.filter((line) => line.includes('other reasons'))).toEqual(['        3  other reasons']);
    expect(lines.indexOf('        3  other reasons')).toBe(lines.indexOf('failed, by reason:') + 11);
  });

  it('lists the sitemaps and feeds apart from the pages skipped, so each list adds up to its count', () => {
    // The audit's crawl: "5 skipped (and 1 sitemap missing or empty)" above these lines.
    expect(
      reasonLines(
        counted([
          { state: 'skipped', reason: 'duplicate', count: 5, examples: ['http://a.test/index.html'] },
          { state: 'skipped', reason: 'no_sitemap', count: 1, examples: ['http://a.test/sitemap.xml'] },
          { state: 'failed', reason: 'http_404', count: 1, examples: ['http://a.test/x'] },
        ]),
      ),
    ).toEqual([
      'skipped, by reason:',
      '        5  duplicate  e.g. http://a.test/index.html',
      '  duplicate: the same main text is indexed under another URL (its canonical or shortest one)',
      'failed, by reason:',
      '        1  http_404  e.g. http://a.test/x',
      'sitemaps and feeds, by reason:',
      '        1  no_sitemap  e.g. http://a.test/sitemap.xml',
      `  no_sitemap: ${REASON_NOTES.no_sitemap}`,
    ]);
  });

  it('says how many URLs a state holds when the stats list none of its reasons', () => {
    // The distributed queue may hold URLs in a state whose reasons it counted away.
    expect(reasonLines({ reasons: [], skipped: 0, failed: 4 })).toEqual([
      'failed, by reason:',
      '        4  other reasons',
    ]);
  });

  it('never counts below zero (distributed reasons count over the crawl’s life)', () => {
    const reasons = [{ state: 'skipped' as const, reason: 'noindex', count: 5, examples: ['http://a.test/'] }];
    expect(reasonLines({ reasons, skipped: 2, failed: 0 })).toEqual([
      'skipped, by reason:',
      '        5  noindex  e.g. http://a.test/',
    ]);
  });
});
