import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { type FastPlan, type FastQuery, forLanguages, planFast, unfiltered } from './fast-plan.js';
import { UNSTEMMED } from './language-forms.js';

/** The plan of a query as every plan is planned, with the stemmed languages of every page. */
const planned = (q: string, extra: Partial<IndexQuery> = {}) =>
  planFast({ query: parseQuery(q), limit: 10, offset: 0, ...extra });
/** The plan of a query as asked of an index of English pages and pages of languages not stemmed. */
const plan = (q: string, extra: Partial<IndexQuery> = {}, present = ['en', UNSTEMMED]) => {
  const fast = planned(q, extra);
  return fast && forLanguages(fast, new Set(present));
};
/** A query as `kind(all|any): tokens @column [pages]`. */
const show = (query: FastQuery) =>
  `${query.kind}${query.kind === 'match' ? (query.all ? '(all)' : '(any)') : ''}: ${query.tokens.join(' ')} @${query.column}${pagesOf(query)}`;
const pagesOf = ({ languages }: FastQuery) =>
  languages === undefined
    ? ''
    : 'except' in languages
      ? ' [other pages]'
      : languages.only.includes('en')
        ? ' [stemmed pages]'
        : ` [${languages.only.join(' ')} pages]`;

describe('planFast', () => {
  it('asks words joined by AND as one match of every word, stemmed and as typed where they differ', () => {
    expect(plan('solar panels')?.alternatives.map(show)).toEqual([
      'match(all): solar panel @t_text',
      'match(all): solar panels @t_text',
    ]);
    expect(plan('solar heat')?.alternatives.map(show)).toEqual(['match(all): solar heat @t_text']);
  });

  it('asks one word with two forms of English pages in its stem and of the others in both forms, apart', () => {
    expect(plan('panels')?.alternatives.map(show)).toEqual([
      'match(any): panel @t_text [stemmed pages]',
      'match(any): panel panels @t_text [other pages]',
    ]);
    expect(plan('panels')?.forms).toEqual([['panel', 'panels']]);
    expect(plan('intitle:panels')?.alternatives.map(show)).toEqual([
      'match(any): panel @t_title [stemmed pages]',
      'match(any): panel panels @t_title [other pages]',
    ]);
    expect(plan('heat')?.alternatives.map(show)).toEqual(['match(all): heat @t_text']);
    expect(plan('heat')?.forms).toBeUndefined();
  });

  it('leaves stop words out of an AND with other words, and requires them when they are all there is', () => {
    expect(plan('the volcano')?.alternatives.map(show)).toEqual(['match(all): volcano @t_text']);
    expect(plan('the who')?.alternatives.map(show)).toEqual(['match(all): the who @t_text']);
  });

  it('asks OR-joined words and match=any sentences as one match of any word, of English pages in stems and of the others in every form', () => {
    const library = plan('library OR museums');
    expect(library?.alternatives.map(show)).toEqual([
      'match(any): librari museum @t_text [stemmed pages]',
      'match(any): librari library museum museums @t_text [other pages]',
    ]);
    expect(library?.forms).toEqual([
      ['librari', 'library'],
      ['museum', 'museums'],
    ]);
    expect(plan('how do glaciers melt', { match: 'any' })?.alternatives.map(show)).toEqual([
      'match(any): glacier melt @t_text [stemmed pages]',
      'match(any): glacier glaciers melt @t_text [other pages]',
    ]);
    // Every form the same: one query of every page.
    expect(plan('solar OR heat')?.alternatives.map(show)).toEqual(['match(any): solar heat @t_text']);
    // Words sharing a stem each count, as BM25 with query term frequency (CISI nDCG@10 0.308 → 0.349).
    expect(plan('title OR titles')?.alternatives.map((a) => show(a).split(' @')[0])).toEqual([
      'match(any): titl titl',
      'match(any): titl title titl titles',
    ]);
    // A phrase alone is a hard constraint under match=any too: asked as in an AND.
    expect(plan('"boundary layer"', { match: 'any' })?.alternatives.map(show)).toEqual([
      'phrase: boundari layer @t_text',
      'phrase: boundary layer @t_text',
    ]);
  });

  it('asks a match=any question with a word of several tokens as its tokens, each optional, in one query', () => {
    // `heat-transfer` as a phrase sent the question to the general plan (46 ms against 6 at 100,000 pages).
    expect(plan('how is heat-transfer measured', { match: 'any' })?.alternatives.map(show)).toEqual(
      plan('how is heat transfer measured', { match: 'any' })?.alternatives.map(show),
    );
    // Its stop words go as the question's do; Chinese text stays a phrase (the general plan's).
    expect(plan('state-of-the-art', { match: 'any' })?.alternatives.map(show)).toEqual([
      'match(any): state art @t_text',
    ]);
    expect(plan('搜索引擎 search', { match: 'any' })).toBeNull();
    // Words joined with OR read such a word so too: `heat-transfer OR flow` is `heat OR transfer OR flow`;
    // a stop word written as a side of the OR stays one (the spec's `A OR B` matches either).
    expect(plan('heat-transfer OR flow')?.alternatives.map(show)).toEqual(
      plan('heat OR transfer OR flow')?.alternatives.map(show),
    );
    expect(plan('the OR flow')?.alternatives.map(show)).toEqual(['match(any): the flow @t_text']);
    expect(plan('state-of-the-art OR flow')?.alternatives.map(show)).toEqual(['match(any): state art flow @t_text']);
    // In an AND a word of several tokens is a run the matches must hold.
    expect(plan('heat-transfer measured')?.alternatives[0]?.phrases).toEqual([['heat', 'transfer']]);
  });

  it('asks one phrase, or one word of several tokens, as a phrase', () => {
    expect(plan('"boundary layer"')?.alternatives.map(show)).toEqual([
      'phrase: boundari layer @t_text',
      'phrase: boundary layer @t_text',
    ]);
    expect(plan('搜索引擎')?.alternatives.map(show)).toEqual(['phrase: 搜索 索引 引擎 @t_text']);
    expect(plan('re:invent')?.alternatives.map(show)).toEqual(['phrase: re invent @t_text']);
  });

  it('asks intitle: words of the title column', () => {
    expect(plan('intitle:heat')?.alternatives.map(show)).toEqual(['match(all): heat @t_title']);
    expect(plan('intitle:heat intitle:transfer', { match: 'any' })?.alternatives.map(show)).toEqual([
      'match(all): heat transfer @t_title',
    ]);
  });

  it('subtracts excluded words in every form', () => {
    const fast = plan('flow -turbulent -eddies');
    expect(fast?.alternatives.map(show)).toEqual(['match(all): flow @t_text']);
    expect(fast?.exclude && show(fast.exclude)).toBe('match(any): turbul turbulent eddi eddies @t_text');
  });

  it('leaves -intitle: exclusions to the general plan (the fast one checks exclusions against the body)', () => {
    expect(plan('flow -intitle:turbulent')).toBeNull();
    expect(plan('flow -turbulent')?.exclude).not.toBeNull();
  });

  it('asks phrases beside words as a match of every token, the phrases to be checked among the candidates', () => {
    const runs = (q: string) =>
      plan(q)?.alternatives.map((a) => `${show(a)} | ${(a.phrases ?? []).map((run) => run.join(' ')).join(' / ')}`);
    expect(runs('"boundary layer" flows')).toEqual([
      'match(all): boundari layer flow @t_text | boundari layer',
      'match(all): boundary layer flows @t_text | boundary layer',
    ]);
    expect(plan('"boundary layer" flows')?.forms).toEqual([
      ['boundari', 'boundary'],
      ['layer', 'layer'],
      ['flow', 'flows'],
    ]);
    // Stop words stay in a phrase and are left out beside it; a word of several tokens is a run too.
    expect(runs('"the who" the live')).toEqual(['match(all): the who live @t_text | the who']);
    expect(runs('re:invent cloud')).toEqual(['match(all): re invent cloud @t_text | re invent']);
    expect(runs('"solar panel" "wind farm"')).toEqual([
      'match(all): solar panel wind farm @t_text | solar panel / wind farm',
    ]);
  });

  it('leaves every other shape to the general plan', () => {
    for (const q of [
      'heat intitle:transfer',
      'flow -"boundary layer"',
      'heat (transfer OR flow)',
      'site:example.com',
      '"solar panel" OR wind',
      // One CJK character: a prefix of pairs (see charPrefix), alone, quoted, beside words, excluded.
      '猫',
      '"猫"',
      'intitle:猫',
      '猫 OR 狗',
      '北京 猫',
      '北京 -猫',
      // Several tokens ending in one CJK character, a prefix too (see openEnd).
      '3月9日',
      '"5个"',
      '北京 "2024年"',
    ]) {
      expect([q, plan(q)]).toEqual([q, null]);
    }
    expect(plan('"solar panel" wind', { match: 'any' })).toBeNull();
    expect(plan('猫', { match: 'any' })).toBeNull();
    expect(plan('猫咪')).not.toBeNull();
    expect(plan('"3月9"')).not.toBeNull();
  });

  it("asks a word's stems in each stemmed language of that language's pages, when the index has them", () => {
    const russian = ['en', 'ru', UNSTEMMED];
    expect(plan('москва', {}, russian)?.alternatives.map(show)).toEqual([
      'match(all): москва @t_text [other pages]',
      'match(all): москв @t_text [ru pages]',
    ]);
    // Required words: the English stems and the words as typed of every page, a language's stems of its own.
    expect(plan('станция метро в Москве', {}, russian)?.alternatives.map(show)).toEqual([
      'match(all): станция метро в москве @t_text',
      'match(all): станц метр в москв @t_text [ru pages]',
    ]);
    expect(plan('станция метро', {}, russian)?.forms).toEqual([
      ['станция', 'станц'],
      ['метро', 'метр'],
    ]);
    // Languages whose stems are the English ones join the English pages (`stromnetz` in German too).
    const german = ['en', 'de', 'fr', 'es', UNSTEMMED];
    expect(plan('Stromnetze', {}, german)?.alternatives.map(show)).toEqual([
      'match(any): stromnetz @t_text [stemmed pages]',
      'match(any): stromnetz stromnetze @t_text [other pages]',
    ]);
    expect(plan('Stromnetze', {}, german)?.alternatives[0]?.languages).toEqual({
      only: expect.arrayContaining(['en', 'de']),
    });
    expect(plan('baristas OR cafe', {}, german)?.alternatives.map(show)).toEqual([
      'match(any): barista cafe @t_text [stemmed pages]',
      'match(any): barista baristas cafe @t_text [other pages]',
      'match(any): baristas caf @t_text [de it nl pages]',
      'match(any): barist caf @t_text [es fr nb nn no pt sv pages]',
    ]);
    // One language's pages alone: asked of every page, as an index of English pages is.
    expect(plan('москвы', {}, ['ru'])?.alternatives.map(show)).toEqual(['match(all): москв @t_text']);
    // Phrases: in each language's stems too.
    expect(plan('"метро Москвы"', {}, russian)?.alternatives.map(show)).toEqual([
      'phrase: метро москвы @t_text',
      'phrase: метр москв @t_text [ru pages]',
    ]);
  });

  it('asks an index whose oldest pages predate the stems of other languages their words as typed too', () => {
    const fast = planned('москвы OR метро')!;
    const pages = (typedToo: boolean) =>
      forLanguages(fast, new Set(['en', 'ru', UNSTEMMED]), typedToo).alternatives.map((a) => a.languages);
    expect(pages(false)).toEqual([{ except: expect.arrayContaining(['ru']) }, { only: ['ru'] }]);
    expect(pages(true)).toEqual([{ except: expect.not.arrayContaining(['ru']) }, { only: ['ru'] }]);
  });

  it("excludes a word's stems in the languages whose pages the index has", () => {
    expect(plan('метро -Москвы', {}, ['en', 'ru'])?.exclude?.tokens).toEqual(['москвы', 'москв']);
    expect(plan('метро -Москвы')?.exclude?.tokens).toEqual(['москвы']);
  });

  it('asks every form of every page when the scan of unfolded pages answers (it scores filtered parts apart)', () => {
    const every = (fast: FastPlan | null) => fast && unfiltered(fast).alternatives.map(show);
    expect(every(planned('panels'))).toEqual([expect.stringMatching(/^match\(any\): panel panels .*@t_text$/)]);
    expect(every(planned('москвы'))).toEqual(['match(any): москвы москв @t_text']);
    expect(every(planned('метро москвы'))).toEqual([
      'match(all): метро москвы @t_text',
      'match(all): метр москв @t_text',
    ]);
  });
});
