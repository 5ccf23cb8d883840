import { describe, expect, it } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import { type FtsNode, planQuery, weighForms } from './fts-query.js';
import { UNSTEMMED } from './language-forms.js';
import { forLanguages } from './tree-languages.js';

const tree = (q: string) => planQuery({ query: parseQuery(q), limit: 10, offset: 0 }).fts!;

/** The tokens and phrases a tree asks, with the languages a form is asked for. */
function asked(node: FtsNode): string[] {
  switch (node.kind) {
    case 'match':
      return [`${node.token}${node.languages ? ` [${node.languages.join(' ')}]` : ''}`];
    case 'phrase':
      return [`"${node.tokens.join(' ')}"${node.languages ? ` [${node.languages.join(' ')}]` : ''}`];
    case 'boost':
      return asked(node.positive);
    case 'bool':
      return [...node.must, ...node.should, ...node.mustNot].flatMap(asked);
  }
}

describe('forLanguages', () => {
  it("asks a word's stems in a language while the index has pages of it", () => {
    expect(asked(forLanguages(tree('Москвы'), new Set(['en', 'ru'])))).toEqual(['москвы', 'москв [ru]']);
    expect(asked(forLanguages(tree('"метро Москвы"'), new Set(['ru'])))).toEqual([
      '"метро москвы"',
      '"метр москв" [ru]',
    ]);
    // No Russian page: the word as it was asked before there were stems of languages.
    expect(forLanguages(tree('Москвы'), new Set(['en', UNSTEMMED]))).toEqual({
      kind: 'match',
      token: 'москвы',
      column: 't_text',
      boost: 1,
    });
  });

  it('drops the stems of absent languages from excluded words too, and from the forms that weigh a word', () => {
    const excluding = tree('метро -Москвы (a OR b)');
    expect(asked(forLanguages(excluding, new Set(['en'])))).not.toContain('москв [ru]');
    expect(asked(forLanguages(excluding, new Set(['ru'])))).toContain('москв [ru]');
    const weighed = weighForms(
      forLanguages(tree('baristas (a OR b)'), new Set(['en', 'es', UNSTEMMED])),
      (_, token) => ({ barista: 10, baristas: 5, barist: 20 })[token] ?? 0,
      1000,
    );
    const forms = JSON.stringify(weighed);
    expect(forms).toContain('"forms":["barista","baristas","barist"]');
    // German and Dutch pages hold `baristas` as typed: no form of their own here.
    expect(forms).not.toContain('"de"');
  });
});
