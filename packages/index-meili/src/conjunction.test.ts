import { describe, expect, it } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import { phraseText, termText, translateConjunction } from './conjunction.js';
import { toDnf } from './dnf.js';
import { TITLE_FIELDS } from './fields.js';

function translate(q: string) {
  const [conjunction, ...rest] = toDnf(parseQuery(q).root, 16);
  expect(rest).toHaveLength(0);
  const translated = translateConjunction(conjunction!);
  if (translated === null) throw new Error(`${q} translated to nothing`);
  return translated;
}

describe('translateConjunction', () => {
  it('writes terms and phrases as Meilisearch q syntax', () => {
    expect(translate('solar cells')).toEqual({ q: 'solar cells', attributesToSearchOn: undefined, conditions: [] });
    expect(translate('"solar cells" efficiency').q).toBe('"solar cells" efficiency');
  });

  it('puts exclusions first, as -word for one lower-case token and -"..." otherwise', () => {
    expect(translate('solar -roof').q).toBe('-roof solar');
    expect(translate('solar -"roof tiles"').q).toBe('-"roof tiles" solar');
    // Meilisearch's `-` negates one token: anything it could split is excluded as a phrase.
    expect(translate('solar -e-mail').q).toBe('-"e-mail" solar');
    // A hard separator (`:`, `;`, `, `) inside an excluded phrase would start another phrase, still
    // excluded: `-"re:invent"` excluded every page saying `re` or `invent`.
    expect(translate('solar -re:invent').q).toBe('-"re invent" solar');
    expect(translate('solar -"hello, world"').q).toBe('-"hello world" solar');
    expect(translate('solar -"3.5 kg"').q).toBe('-"3.5 kg" solar');
    expect(translate('solar -iPhone').q).toBe('-"iPhone" solar');
    expect(translate('太阳能 -屋顶').q).toBe('-"屋顶" 太阳能');
    expect(translate('solar -2024').q).toBe('-2024 solar');
  });

  it('never lets user text become an operator it was not meant as', () => {
    expect(termText('a"b')).toBe('a b');
    expect(termText('-leading')).toBe('leading');
    expect(termText('in-word-dash')).toBe('in-word-dash');
    expect(termText('x "-y')).toBe('x y');
    expect(phraseText('say "hi" -now')).toBe('say hi -now');
    const tricky = translateConjunction({
      positives: [
        { type: 'term', text: '-"oops', field: 'any' },
        { type: 'phrase', text: 'a "b" c', field: 'any' },
      ],
      negatives: [],
    });
    expect(tricky?.q).toBe('oops "a b c"');
    expect(tricky?.q.split('"')).toHaveLength(3);
  });

  it('drops clauses without a letter or digit, and a conjunction left without positive clauses', () => {
    expect(translate('dogs 🎉 bark').q).toBe('dogs bark');
    expect(translate('dogs -🎉').q).toBe('dogs');
    expect(translateConjunction(toDnf(parseQuery('🎉').root, 16)[0]!)).toBeNull();
    expect(translateConjunction(toDnf(parseQuery('intitle:🎉 -x').root, 16)[0]!)).toBeNull();
  });

  it('drops stop words, which Meilisearch has not indexed, and asks nothing of a query of them alone', () => {
    // A stop word ending q was looked up as a word no page has; alone, q was a placeholder (every page).
    expect(translate('dogs the').q).toBe('dogs');
    expect(translate('how to get there').q).toBe('get');
    expect(translate('dogs "the who" -the').q).toBe('dogs');
    // A phrase keeps its stop words beside other words.
    expect(translate('"lord of the rings"').q).toBe('"lord of the rings"');
    for (const q of ['the who', '"to be or not to be"', 'intitle:"the who"']) {
      expect(translateConjunction(toDnf(parseQuery(q).root, 16)[0]!)).toBeNull();
    }
  });

  it('skips clauses with nothing left to search', () => {
    const q = translateConjunction({
      positives: [
        { type: 'term', text: '"', field: 'any' },
        { type: 'term', text: 'kept', field: 'any' },
      ],
      negatives: [{ type: 'term', text: '---', field: 'any' }],
    })?.q;
    expect(q).toBe('kept');
  });

  it('searches only titles when every positive clause is a title clause', () => {
    const t = translate('intitle:solar intitle:"annual report"');
    expect(t.q).toBe('solar "annual report"');
    expect(t.attributesToSearchOn).toEqual(TITLE_FIELDS);
    expect(t.conditions).toEqual([]);
  });

  it('excludes title clauses with a filter on title words', () => {
    const t = translate('intitle:solar -intitle:draft');
    expect(t.attributesToSearchOn).toEqual(TITLE_FIELDS);
    expect(t.q).toBe('solar');
    expect(t.conditions).toEqual(['NOT (title_words = "draft")']);
    expect(translate('solar -intitle:"Draft Notes"').conditions).toEqual([
      'NOT ((title_words = "draft") AND (title_words = "notes"))',
    ]);
  });

  it('searches every field and filters on title words for mixed conjunctions', () => {
    const mixed = translate('intitle:Solar cells');
    expect(mixed.attributesToSearchOn).toBeUndefined();
    expect(mixed.q).toBe('Solar cells');
    expect(mixed.conditions).toEqual(['title_words = "solar"']);

    // An any-field exclusion must hold in bodies too, so titles alone cannot be searched.
    const withExclusion = translate('intitle:solar -roof');
    expect(withExclusion.attributesToSearchOn).toBeUndefined();
    expect(withExclusion.q).toBe('-roof solar');
    expect(withExclusion.conditions).toEqual(['title_words = "solar"']);

    expect(translate('cells intitle:"Café Solaire"').conditions).toEqual([
      '(title_words = "cafe") AND (title_words = "solaire")',
    ]);
    expect(translate('电池 intitle:搜索引擎').conditions).toEqual([
      '(title_words = "搜索") AND (title_words = "引擎")',
    ]);
  });

  it('is a placeholder search for a filter-only query', () => {
    expect(translateConjunction({ positives: [], negatives: [] })).toEqual({
      q: '',
      attributesToSearchOn: undefined,
      conditions: [],
    });
  });
});
