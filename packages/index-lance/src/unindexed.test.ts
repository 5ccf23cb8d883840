import { describe, expect, it } from '@jest/globals';
import type { FtsNode } from './fts-query.js';
import { hasPhrase, hasPrefix, matchesRow, relax, withHeldPairs } from './unindexed.js';

const word = (token: string, column = 't_text'): FtsNode => ({ kind: 'match', token, column, boost: 1 });
const phrase = (text: string, column = 't_text'): FtsNode => ({ kind: 'phrase', tokens: text.split(' '), column });
const bool = (must: FtsNode[], should: FtsNode[] = [], mustNot: FtsNode[] = []): FtsNode => ({
  kind: 'bool',
  must,
  should,
  mustNot,
});

describe('the check of unindexed pages', () => {
  const row = { t_title: 'solar roof', t_text: 'solar roof ¶ a solar panel on the roof' };

  it('matches phrases only as adjacent tokens in order', () => {
    expect(matchesRow(phrase('solar panel'), row)).toBe(true);
    expect(matchesRow(phrase('panel solar'), row)).toBe(false);
    expect(matchesRow(phrase('roof a'), row)).toBe(false);
    expect(matchesRow(phrase('on roof'), row)).toBe(false);
    expect(matchesRow(phrase('solar roof', 't_title'), row)).toBe(true);
  });

  it('follows boolean semantics: must, must-not, and at least one should without a must', () => {
    expect(matchesRow(bool([word('solar')], [], [phrase('solar panel')]), row)).toBe(false);
    expect(matchesRow(bool([], [word('wind'), word('roof')]), row)).toBe(true);
    expect(matchesRow(bool([], [word('wind'), word('tide')]), row)).toBe(false);
    expect(matchesRow({ kind: 'boost', positive: word('roof'), negative: word('x', 'meta'), factor: 0.5 }, row)).toBe(
      true,
    );
  });

  it('relaxes phrases to their tokens and drops exclusions of phrases: a superset of the matches', () => {
    const tree = bool([phrase('panel solar')], [], [phrase('the roof'), word('coal')]);
    expect(hasPhrase(tree)).toBe(true);
    const relaxed = relax(tree);
    expect(hasPhrase(relaxed)).toBe(false);
    expect(matchesRow(relaxed, row)).toBe(true);
    expect(matchesRow(tree, row)).toBe(false);
  });

  it('matches a one-character word wherever the character is written: alone or first of a pair', () => {
    // 猫咪和小猫: the pairs 猫咪 咪和 和小 小猫, and 猫 alone where the run ends.
    const cat = (column = 't_text'): FtsNode => ({ kind: 'match', token: '猫', column, boost: 1, prefix: true });
    expect(matchesRow(cat(), { t_text: '猫咪 咪和 和小 小猫 猫' })).toBe(true);
    expect(matchesRow(cat(), { t_text: '我的 的猫咪 猫咪' })).toBe(true);
    expect(matchesRow(cat(), { t_text: '猫咪' })).toBe(true);
    // A pair it ends is not a place it begins; the same run always holds it first or alone too.
    expect(matchesRow(cat(), { t_text: '小猫' })).toBe(false);
    expect(matchesRow(cat(), { t_text: '猫咪咪' })).toBe(false);
    expect(matchesRow(cat('t_title'), { t_title: '狗', t_text: '猫' })).toBe(false);
    expect(matchesRow(word('猫'), { t_text: '猫咪' })).toBe(false);
  });

  it('asks a prefix of pages not folded yet only the pairs they hold, wherever it is in the tree', () => {
    const cat: FtsNode = { kind: 'match', token: '猫', column: 't_text', boost: 1, prefix: true };
    const tree = bool([word('狗')], [cat], [{ ...cat, column: 't_title' }]);
    expect(hasPrefix(tree)).toBe(true);
    expect(hasPrefix(bool([word('狗')], [phrase('猫咪')]))).toBe(false);
    const held = new Set(['t_text 猫咪', 't_text 猫粮', 't_title 猫砂', 't_text 小猫']);
    const trimmed = withHeldPairs(tree, (column, token) => held.has(`${column} ${token}`));
    const pairsOf = (node: FtsNode) => (node.kind === 'match' ? node.pairs : undefined);
    expect(trimmed.kind === 'bool' && trimmed.should.map(pairsOf)).toEqual([['猫', '猫咪', '猫粮']]);
    expect(trimmed.kind === 'bool' && trimmed.mustNot.map(pairsOf)).toEqual([['猫', '猫砂']]);
    expect(trimmed.kind === 'bool' && trimmed.must).toEqual([word('狗')]);
  });
});
