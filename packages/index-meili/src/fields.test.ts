import { describe, expect, it } from '@jest/globals';
import { FIELD, indexSettings } from './fields.js';

describe('indexSettings', () => {
  it('ranks newest crawl first among equals and for searches without a query word', () => {
    const { rankingRules } = indexSettings({ searchCutoffMs: 150, maxTotalHits: 1090 });
    // A placeholder search (a filter alone, or exclusions alone: `site:a.org -draft`) skips the
    // rules that need query words and applies only `sort` and the custom rule, the crawl time.
    const placeholder = rankingRules?.filter(
      (rule) => !['words', 'typo', 'proximity', 'attribute', 'exactness'].includes(rule),
    );
    expect(placeholder).toEqual(['sort', `${FIELD.crawledAtSecs}:desc`]);
    expect(rankingRules?.at(-1)).toBe(`${FIELD.crawledAtSecs}:desc`);
  });
});
