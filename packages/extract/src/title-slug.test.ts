import { describe, expect, it } from '@jest/globals';
import { slugCoverage, slugWords } from './title-slug.js';

describe('slugWords', () => {
  it('reads the last path segment made of words, without ids and extensions', () => {
    expect(slugWords('https://www.reddit.com/r/x/comments/1rjl74r/best_laptop_for_college/')).toEqual([
      'best',
      'laptop',
      'for',
      'college',
    ]);
    expect(slugWords('https://x.org/threads/what-to-look-for-t17351/')).toEqual(['what', 'to', 'look', 'for']);
    expect(slugWords('https://x.org/blog/metasploit-wrap-up-12-19-2025.html')).toEqual([
      'metasploit',
      'wrap',
      'up',
      '12',
      '19',
    ]);
  });

  it('gives nothing for URLs without a slug', () => {
    expect(slugWords('https://example.com/')).toEqual([]);
    expect(slugWords('https://example.com/portfolio/')).toEqual([]);
    // One word and a CMS's suffix making the slug unique: a logo's `Salon` would cover it whole.
    expect(slugWords('https://www.salon.com/2015/salon-1/')).toEqual([]);
    expect(slugWords('https://example.com/top-10-laptops')).toEqual(['top', '10', 'laptops']);
    expect(slugWords('https://example.com/dp/B0D1PC8551')).toEqual([]);
    expect(slugWords('not a url')).toEqual([]);
  });
});

describe('slugCoverage', () => {
  it('is the share of slug words a title has, plurals folded', () => {
    const slug = slugWords('https://www.rei.com/c/backpacking-packs');
    expect(slugCoverage(slug, 'Backpacking Packs')).toBe(1);
    expect(slugCoverage(slug, 'Backpacking pack for overnight trips')).toBe(1);
    expect(slugCoverage(slug, 'Hiking gear')).toBe(0);
    expect(slugCoverage([], 'Anything')).toBe(0);
  });
});
