import { describe, expect, it } from '@jest/globals';
import { ENGLISH_STOP_WORDS } from '@quarry/text';
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

  it('matches words as written, without typos, and skips the stop words the query translation drops', () => {
    const settings = indexSettings({ searchCutoffMs: 150, maxTotalHits: 1090 });
    // The spec's AND: `sevan` must not find pages saying `seven` (the API corrects a word no page holds).
    expect(settings.typoTolerance).toEqual({ enabled: false });
    expect(settings.prefixSearch).toBe('disabled');
    expect(settings.stopWords).toEqual([...ENGLISH_STOP_WORDS]);
  });
});
