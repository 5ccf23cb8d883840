import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import {
  type FtsNode,
  formTokens,
  MAX_PHRASE_TOKENS,
  matchesNothing,
  planQuery,
  priorFactor,
  sqlString,
  stemsOnly,
  weighForms,
  whereClause,
  wordForms,
} from './fts-query.js';
import { UNSTEMMED } from './language-forms.js';
import { forLanguages } from './tree-languages.js';

const WEIGHTS = { langPriorityBoost: 1.25 };
/** The plan of a query as asked of an index of English pages and pages of languages not stemmed. */
const plan = (q: string, extra: Partial<IndexQuery> = {}, present = ['en', UNSTEMMED]) => {
  const planned = planQuery({ query: parseQuery(q), limit: 10, offset: 0, ...extra });
  const asked = (node: FtsNode | null) => node && forLanguages(node, new Set(present));
  return { ...planned, fts: asked(planned.fts), exclude: asked(planned.exclude) };
};

/** The search-column alternatives of a node, as `token` or `"phrase"` strings. */
function bodyForms(node: FtsNode | null): string[] {
  if (!node) return [];
  switch (node.kind) {
    case 'match':
      return node.column === 't_text' ? [node.token] : [];
    case 'phrase':
      return node.column === 't_text' ? [`"${node.tokens.join(' ')}"`] : [];
    case 'boost':
      return bodyForms(node.positive);
    case 'bool':
      return [...node.must, ...node.should].flatMap(bodyForms);
  }
}

describe('planQuery', () => {
  it('searches the one search column, stemmed and exact where they differ', () => {
    const { fts } = plan('panels');
    expect(bodyForms(fts)).toEqual(['panel', 'panels']);
    expect(fts?.kind).toBe('bool');
    const columns = fts?.kind === 'bool' ? fts.should.map((n) => (n.kind === 'match' ? n.column : '')) : [];
    expect(columns).toEqual(['t_text', 't_text']);
    const title = plan('intitle:panels').fts;
    expect(title?.kind === 'bool' && title.should.map((n) => (n.kind === 'match' ? n.column : ''))).toEqual([
      't_title',
      't_title',
    ]);
  });

  it('requires words in `all` mode but lets stop words only score', () => {
    const { fts } = plan('the volcano');
    expect(fts?.kind).toBe('bool');
    if (fts?.kind !== 'bool') return;
    expect(fts.must.flatMap(bodyForms)).toEqual(['volcano']);
    expect(fts.should.flatMap(bodyForms)).toEqual(['the']);
  });

  it('keeps a stop word as one side of an OR, but not the stop-word parts of a word', () => {
    expect(bodyForms(plan('the OR volcano').fts)).toEqual(['the', 'volcano']);
    expect(bodyForms(plan('back-to-back OR volcano').fts)).toEqual(['back', 'back', 'volcano']);
  });

  it('requires stop words when they are all there is', () => {
    const { fts } = plan('the who');
    expect(fts?.kind === 'bool' && fts.must.length).toBe(2);
  });

  it('makes words optional in `any` mode while phrases, intitle: and exclusions stay hard', () => {
    const { fts } = plan('how does "solar panel" work intitle:energy -coal', { match: 'any' });
    expect(fts?.kind).toBe('bool');
    if (fts?.kind !== 'bool') return;
    expect(fts.must).toHaveLength(2);
    expect(fts.must[0]?.kind).toBe('phrase'); // one form: stemmed and typed are the same
    expect(bodyForms(fts.must[0]!)).toEqual(['"solar panel"']);
    expect(fts.should.flatMap(bodyForms)).toEqual(['how', 'doe', 'does', 'work']);
    expect(fts.mustNot.flatMap(bodyForms)).toEqual(['coal']);
  });

  it('asks a word of several tokens as its tokens, each optional, in `any` mode and OR groups, but not Chinese text', () => {
    const { fts } = plan('e-mail "spam filter" 搜索引擎', { match: 'any' });
    expect(fts?.kind).toBe('bool');
    if (fts?.kind !== 'bool') return;
    expect(fts.must.flatMap(bodyForms)).toEqual(['"spam filter"']);
    expect(fts.should.flatMap(bodyForms)).toEqual(['e', 'mail', '"搜索 索引 引擎"']);
    // Alone too: `state-of-the-art` is its words less the stop words, not one phrase.
    expect(bodyForms(plan('state-of-the-art', { match: 'any' }).fts)).toEqual(['state', 'art']);
    expect(bodyForms(plan('state-of-the-art').fts)).toEqual(['"state of the art"']);
    // An OR of words reads them so too; in an AND the word is a phrase.
    expect(bodyForms(plan('e-mail OR spam').fts)).toEqual(['e', 'mail', 'spam']);
    expect(bodyForms(plan('e-mail spam').fts)).toEqual(['"e mail"', 'spam']);
  });

  it('turns a word of several tokens and CJK text into phrases', () => {
    expect(bodyForms(plan('re:invent').fts)).toEqual(['"re invent"']);
    expect(bodyForms(plan('搜索引擎').fts)).toEqual(['"搜索 索引 引擎"']);
  });

  it('asks a word of one CJK character as a prefix of pairs, quoted, in the title and excluded too', () => {
    const prefix = (node: FtsNode | null) =>
      node?.kind === 'match' && node.prefix ? `${node.token}@${node.column}` : null;
    expect(prefix(plan('猫').fts)).toBe('猫@t_text');
    expect(prefix(plan('"猫"').fts)).toBe('猫@t_text');
    expect(prefix(plan('intitle:猫').fts)).toBe('猫@t_title');
    expect(prefix(plan('집').fts)).toBe('집@t_text');
    const excluded = plan('北京 -猫').fts;
    expect(excluded?.kind === 'bool' && excluded.mustNot.map(prefix)).toEqual(['猫@t_text']);
    // Longer words are phrases of pairs, which find them anywhere; Latin letters are no prefix.
    for (const q of ['猫咪', '"小猫"', 'a', 'x 5']) expect([q, prefix(plan(q).fts)]).toEqual([q, null]);
  });

  it('asks a phrase ending in a lone CJK character as its other tokens in a row and that character as a prefix', () => {
    // The index holds `3 月 9 日` where the run ends (`3月9日，`), `3 月 9 日报 …` where it goes on.
    const date = { kind: 'phrase', tokens: ['3', '月', '9'], column: 't_text' };
    expect(plan('3月9日').fts).toEqual({
      kind: 'bool',
      must: [date, { kind: 'match', token: '日', column: 't_text', boost: 1, prefix: true }],
      should: [{ kind: 'phrase', tokens: ['3', '月', '9', '日'], column: 't_text' }],
      mustNot: [],
    });
    expect(plan('"5个"').fts).toEqual({
      kind: 'bool',
      must: [
        { kind: 'match', token: '5', column: 't_text', boost: 1 },
        { kind: 'match', token: '个', column: 't_text', boost: 1, prefix: true },
      ],
      should: [{ kind: 'phrase', tokens: ['5', '个'], column: 't_text' }],
      mustNot: [],
    });
    // A character whose pair ends the phrase is no prefix: the pair is there.
    expect(plan('"人工智能"').fts).toEqual({ kind: 'phrase', tokens: ['人工', '工智', '智能'], column: 't_text' });
  });

  it('leaves the priors out of the tree: they multiply scores, which the engine boost does not', () => {
    expect(plan('tea', { langPriority: 'fr' }).fts).toEqual({
      kind: 'match',
      token: 'tea',
      column: 't_text',
      boost: 1,
    });
  });

  it('answers exclusions with a filter as a listing of the filtered pages less those any exclusion matches', () => {
    const single = plan('site:example.com -gitlab');
    expect(single.fts).toBeNull();
    expect(single.where).toBe("array_has_any(sites, ['example.com'])");
    expect(bodyForms(single.exclude)).toEqual(['gitlab']);
    // Each exclusion as search matches it: both forms of a word, a phrase, a title word.
    const { exclude } = plan('filetype:pdf -drafts -"for sale" -intitle:old', { match: 'any' });
    expect(exclude?.kind === 'bool' && exclude.must.length === 0 && exclude.mustNot.length === 0).toBe(true);
    expect(bodyForms(exclude)).toEqual(['draft', 'drafts', '"for sale"']);
    expect(exclude?.kind === 'bool' && exclude.should.at(-1)).toEqual({
      kind: 'match',
      token: 'old',
      column: 't_title',
      boost: 1,
    });
    // A word that analyses to nothing beside exclusions leaves exclusions only.
    expect(bodyForms(plan('site:example.com 🎉 -gitlab').exclude)).toEqual(['gitlab']);
    expect(plan('gitlab -github').exclude).toBeNull();
    expect(plan('site:example.com').exclude).toBeNull();
  });

  it('matches nothing when no clause has a word', () => {
    const query = { query: parseQuery('🎉'), limit: 10, offset: 0 };
    expect(matchesNothing(query, planQuery(query))).toBe(true);
    const filters = { query: parseQuery('site:example.com'), limit: 10, offset: 0 };
    expect(matchesNothing(filters, planQuery(filters))).toBe(false);
    const exclusions = { query: parseQuery('site:example.com -gitlab'), limit: 10, offset: 0 };
    expect(matchesNothing(exclusions, planQuery(exclusions))).toBe(false);
  });
});

describe('wordForms', () => {
  it('cuts a phrase, or a word of many parts, to its first tokens in each form', () => {
    const words = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 'running' : 'cats'));
    const forms = wordForms(words.join(' '));
    expect(forms.map((tokens) => tokens.length)).toEqual([MAX_PHRASE_TOKENS, MAX_PHRASE_TOKENS]);
    expect(forms[1]).toEqual(words.slice(0, MAX_PHRASE_TOKENS));
    expect(wordForms(Array(2048).fill('a').join('-'))).toEqual([Array(MAX_PHRASE_TOKENS).fill('a')]);
    // A phrase within the bound is searched whole.
    expect(wordForms('the cats sat')).toEqual([
      ['the', 'cat', 'sat'],
      ['the', 'cats', 'sat'],
    ]);
  });
});

describe('stemsOnly', () => {
  /** The excluded words' search-column alternatives. */
  const excluded = (node: FtsNode | null): string[] =>
    node?.kind === 'bool' ? [...node.mustNot.flatMap(bodyForms), ...node.must.flatMap(excluded)] : [];

  it('asks each word of two forms in its stem only, in ANDs, ORs and beside phrases; excluded words keep both', () => {
    expect(bodyForms(stemsOnly(plan('nutrition panels')!.fts!))).toEqual(['nutrit', 'panel']);
    expect(bodyForms(stemsOnly(plan('nutrition OR panels')!.fts!))).toEqual(['nutrit', 'panel']);
    expect(bodyForms(stemsOnly(plan('"solar heat" panels', { match: 'any' })!.fts!))).toEqual([
      '"solar heat"',
      'panel',
    ]);
    const tree = plan('nutrition -panels')!.fts!;
    expect(excluded(stemsOnly(tree))).toEqual(excluded(tree));
    expect(excluded(tree)).toEqual(['panel', 'panels']);
  });
});

describe('weighForms', () => {
  /** The boost of each search-column match, by token. */
  const boosts = (node: FtsNode): Record<string, number> => {
    switch (node.kind) {
      case 'match':
        return { [node.token]: node.boost };
      case 'phrase':
        return {};
      case 'boost':
        return boosts(node.positive);
      case 'bool':
        return Object.assign({}, ...[...node.must, ...node.should, ...node.mustNot].map(boosts));
    }
  };
  const idf = (n: number, pages: number) => Math.log(1 + (pages - n + 0.5) / (n + 0.5));

  it('brings each form of a word to the IDF of the pages holding either form', () => {
    const { fts } = plan('computing cloud -grids');
    expect(formTokens(fts!)).toEqual([
      ['t_text', 'comput'],
      ['t_text', 'computing'],
    ]);
    const counts: Record<string, number> = { comput: 300, computing: 20 };
    const weighed = boosts(weighForms(fts!, (_, token) => counts[token] ?? 0, 1000));
    expect(weighed.comput).toBeCloseTo(idf(320, 1000) / idf(300, 1000), 10);
    expect(weighed.computing).toBeCloseTo(idf(320, 1000) / idf(20, 1000), 10);
    // A word of one form, and excluded words (they do not score), keep the engine's weights.
    expect(weighed.cloud).toBe(1);
    expect([weighed.grid, weighed.grids]).toEqual([1, 1]);
  });

  it('leaves forms no page holds, phrases and an empty index as they are', () => {
    const { fts } = plan('computing "cloud computing"');
    const weighed = boosts(weighForms(fts!, (_, token) => (token === 'comput' ? 50 : 0), 1000));
    expect(weighed.computing).toBe(1);
    expect(weighed.comput).toBeCloseTo(1, 10);
    expect(boosts(weighForms(fts!, () => 5, 0))).toEqual(boosts(fts!));
  });

  it('counts the title column for intitle: words', () => {
    expect(formTokens(plan('intitle:panels').fts!)).toEqual([
      ['t_title', 'panel'],
      ['t_title', 'panels'],
    ]);
  });
});

describe('priorFactor', () => {
  it('divides pages in other languages than lang_priority by its boost and multiplies by the quality bucket', () => {
    const page = (lang: string, quality = 1) => ({ lang, quality });
    expect(priorFactor(page('fr'), 'fr', WEIGHTS, true)).toBe(1);
    expect(priorFactor(page('en'), 'fr', WEIGHTS, true)).toBeCloseTo(0.8);
    expect(priorFactor(page('en'), undefined, WEIGHTS, true)).toBe(1);
    expect(priorFactor(page('en', 0.3), undefined, WEIGHTS, true)).toBe(0.25);
    expect(priorFactor(page('en', 0.5), 'fr', WEIGHTS, true)).toBeCloseTo(0.4);
    expect(priorFactor(page('en', 0.8), undefined, WEIGHTS, true)).toBe(0.75);
    expect(priorFactor(page('en', 0.3), undefined, WEIGHTS, false)).toBe(1);
  });
});

describe('whereClause', () => {
  it('filters language, sites with subdomains, filetype families and crawl time', () => {
    const where = whereClause({
      query: parseQuery('x site:a.org site:b.org filetype:doc'),
      lang: 'de',
      site: 'example.com',
      crawledAfter: '2026-01-01T00:00:00Z',
      limit: 10,
      offset: 0,
    });
    expect(where).toBe(
      "lang = 'de' AND array_has_any(sites, ['a.org', 'b.org']) AND array_has_any(sites, ['example.com']) " +
        "AND filetype IN ('doc', 'docx', 'odt') AND crawled_ms >= 1767225600000",
    );
  });

  it('escapes quotes so a value cannot leave its string literal', () => {
    expect(sqlString("x' OR 1=1 --")).toBe("'x'' OR 1=1 --'");
    const where = whereClause({ query: parseQuery('x'), site: "evil.com') OR (1=1", limit: 10, offset: 0 });
    expect(where).toBe("array_has_any(sites, ['evil.com'') OR (1=1'])");
  });

  it('is null without filters', () => {
    expect(whereClause({ query: parseQuery('x'), limit: 10, offset: 0 })).toBeNull();
  });
});
