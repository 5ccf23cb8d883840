/**
 * Measures the near-copy threshold (SIMHASH_NEAR_BITS) on the shared Readability pages
 * (../shared/testdata/readability-pages): copies of a real page with another date line or footer
 * must come within it, and different pages must not. Prints the figures docs/crawler.md quotes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { extractHtml } from '@quarry/extract';
import { SIMHASH_NEAR_BITS, simhash, simhashDistance } from '@quarry/text';

const DIR = join(import.meta.dirname, '../../../../shared/testdata/readability-pages');
const present = existsSync(DIR);
if (!present) console.warn(`near-copy measurement skipped: ${DIR} is absent`);
const d = present ? describe : describe.skip;

/** The page as published, and as republished later: another date line, another footer, or both. */
const edition = (date: string, footer: string) => (text: string) =>
  `Posted on ${date}\n\n${text}\n\n© ${footer} The Example Gazette. All rights reserved.`;
const ORIGINAL = edition('12 March 2024', '2025');
const COPIES = {
  date: edition('14 March 2024', '2025'),
  footer: edition('12 March 2024', '2026 · Last edited 24 November 2026'),
  both: edition('14 March 2024', '2026 · Last edited 24 November 2026'),
};
/** Pages of at least this many words, where a changed line is a small part of the text. */
const LONG_PAGE_WORDS = 300;

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const shingles = (w: string[]): Set<string> => new Set(w.slice(2).map((_, i) => `${w[i]} ${w[i + 1]} ${w[i + 2]}`));

d('SimHash near-copy threshold on the shared Readability pages', () => {
  const pages = present
    ? readdirSync(DIR).map((name) => {
        const html = readFileSync(join(DIR, name, 'source.html'), 'utf8');
        const text = extractHtml(html, { url: 'http://fakehost/test/page.html', markdown: false }).body_text;
        // Each page's hash once: the pairwise check below compares them (some 8,000 pairs).
        return { name, text, hash: hashOf(text), words: words(text).length, shingles: shingles(words(text)) };
      })
    : [];

  it('collapses copies with another date line or footer', () => {
    // Each page's copies hashed once, counted for the long pages and for all.
    const copyDistances = new Map(
      pages.map((p) => {
        const original = hashOf(ORIGINAL(p.text));
        return [p, Object.values(COPIES).map((copy) => simhashDistance(original, hashOf(copy(p.text))))];
      }),
    );
    const near = (pick: (p: (typeof pages)[number]) => boolean) => {
      const distances = pages.filter(pick).flatMap((p) => copyDistances.get(p) ?? []);
      return { within: distances.filter((x) => x !== null && x <= SIMHASH_NEAR_BITS).length, of: distances.length };
    };
    const long = near((p) => p.words >= LONG_PAGE_WORDS);
    const all = near(() => true);
    console.log(
      `near-copies within ${SIMHASH_NEAR_BITS} bits: ${long.within} of ${long.of} (pages of ${LONG_PAGE_WORDS}+ words), ` +
        `${all.within} of ${all.of} (all ${pages.length} pages)`,
    );
    expect(pages.length).toBeGreaterThanOrEqual(60);
    expect(long.within / long.of).toBeGreaterThanOrEqual(0.9);
    expect(all.within / all.of).toBeGreaterThanOrEqual(0.75);
  });

  it('never collapses different pages', () => {
    // Several of Readability's synthetic test pages share one lorem-ipsum text (identical, or
    // 83-92% of shingles): those are copies. Pages sharing under half their shingles are different.
    let closestDifferent = 64;
    let closestArticles = 64;
    let pairs = 0;
    for (let i = 0; i < pages.length; i += 1) {
      for (let j = i + 1; j < pages.length; j += 1) {
        const a = pages[i]!;
        const b = pages[j]!;
        const shared = jaccard(a.shingles, b.shingles);
        if (shared >= 0.5) continue;
        pairs += 1;
        const dist = simhashDistance(a.hash, b.hash) ?? 64;
        closestDifferent = Math.min(closestDifferent, dist);
        if (shared < 0.1) closestArticles = Math.min(closestArticles, dist);
      }
    }
    console.log(
      `different pages (${pairs} pairs sharing under half their shingles): closest ${closestDifferent} bits apart; ` +
        `sharing under a tenth: closest ${closestArticles}`,
    );
    expect(pairs).toBeGreaterThan(1_800);
    expect(closestDifferent).toBeGreaterThan(SIMHASH_NEAR_BITS);
  });
});

function hashOf(text: string): string {
  const hash = simhash(text);
  if (hash === null) throw new Error('a page without words');
  return hash;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const s of a) if (b.has(s)) common += 1;
  const union = a.size + b.size - common;
  return union === 0 ? 1 : common / union;
}
