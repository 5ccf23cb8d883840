import { expect } from '@jest/globals';
import type { IndexHit } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { makeSnippet } from '@quarry/text';
import { eachPlan } from './testing/each-plan.js';

const filler = 'The committee met on Tuesday and read the minutes of the last meeting aloud. '.repeat(12);
const pages = () => [
  makePage('deep', 'https://a.example.org/1', 'Newsletters', `${filler}Email marketing keeps customers coming back.`),
  makePage(
    'hyphen',
    'https://b.example.org/2',
    'Campaigns',
    `${filler}E-mail marketing for small shops, step by step.`,
  ),
  makePage('other', 'https://c.example.org/3', 'Shops', 'Marketing on social networks, in short posts.'),
  makePage('zh', 'https://d.example.org/4', '天气', `${'会议记录。'.repeat(60)}北京今天的天气晴朗，明天有雨。`, {
    lang: 'zh',
  }),
];

/** The snippet of a hit whose snippet the index left to the caller, made as the API makes it. */
const madeSnippet = (hit: IndexHit): string =>
  makeSnippet(
    hit.opening ?? '',
    (hit.snippetTerms ?? []).map((text) => ({ text })),
  );

/**
 * A query asked with `snippets: false` (the API's first 30 results of a question, of which it
 * shows 10) gets its hits without snippets, with the opening and the words the index read the
 * query as: the snippet made from them is the one the index makes, on every plan.
 */
eachPlan('snippets left to the caller', pages, async (_ids, index) => {
  const asked = [
    ['e-mail marketing', 'all'],
    ['email marketing customers', 'any'],
    ['北京天气', 'all'],
    ['site:a.example.org', 'all'],
  ] as const;
  for (const [q, match] of asked) {
    const query = { query: parseQuery(q), match, limit: 10, offset: 0 } as const;
    const made = await index.search(query);
    const left = await index.search({ ...query, snippets: false });
    expect(left.hits.map((hit) => hit.id)).toEqual(made.hits.map((hit) => hit.id));
    expect(made.hits.length).toBeGreaterThan(0);
    for (const [i, hit] of left.hits.entries()) {
      expect(hit.snippet).toBe('');
      expect(hit.snippetTerms).toBeDefined();
      expect(made.hits[i]?.snippetTerms).toBeUndefined();
      expect(madeSnippet(hit)).toBe(made.hits[i]?.snippet);
    }
  }
  // The words as the index searched them: a Chinese run split into its words, and the snippet
  // around them, not the page's opening.
  const zh = await index.search({ query: parseQuery('北京天气'), limit: 10, offset: 0, snippets: false });
  expect(zh.hits[0]?.snippetTerms).toEqual(['北京', '天气']);
  expect(madeSnippet(zh.hits[0]!)).toContain('北京今天的天气');
  const deep = await index.search({ query: parseQuery('email marketing'), limit: 10, offset: 0, snippets: false });
  expect(deep.hits.map(madeSnippet).every((snippet) => /e-?mail marketing/i.test(snippet))).toBe(true);
});
