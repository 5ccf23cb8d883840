import { describe, expect, it } from '@jest/globals';
import { foldText, hasCjk, tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('lower-cases and splits ASCII text on anything that is not a letter or digit', () => {
    expect(tokenize('Hello, World! re:Invent e-mail 2024')).toEqual([
      'hello',
      'world',
      're',
      'invent',
      'e',
      'mail',
      '2024',
    ]);
  });

  it('applies NFKC so full-width and ligature forms match plain ones', () => {
    expect(tokenize('ＡＢＣ１２３ ﬁle')).toEqual(['abc123', 'file']);
  });

  it('removes diacritics from Latin, Greek and Cyrillic but keeps vowel signs of other scripts', () => {
    expect(tokenize('Café Müller naïve Ελλάδα йод')).toEqual(['cafe', 'muller', 'naive', 'ελλαδα', 'иод']);
    expect(tokenize('हिन्दी')).toEqual(['हिन्दी']);
  });

  it('drops punctuation and emoji entirely', () => {
    expect(tokenize('🎉 … !!! — 👍🏽')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });

  it('segments Chinese runs into words and keeps embedded Latin words apart', () => {
    const tokens = tokenize('我们使用搜索引擎，iPhone手机');
    expect(tokens).toContain('搜索');
    expect(tokens).toContain('引擎');
    expect(tokens).toContain('iphone');
    expect(tokens).toContain('手机');
    expect(tokens.join('')).toBe('我们使用搜索引擎iphone手机');
  });

  it('segments Japanese with kana as Japanese', () => {
    const tokens = tokenize('東京都に住んでいます。カタカナのテキスト');
    expect(tokens).toContain('東京');
    expect(tokens).toContain('テキスト');
    expect(tokens).not.toContain('。');
  });

  it('is stable: tokenizing the joined tokens gives the same tokens (index and query sides agree)', () => {
    const text = 'Le Café de Flore — ＴＯＫＹＯ 東京タワー and 北京大学 re:Invent';
    const once = tokenize(text);
    expect(tokenize(once.join(' '))).toEqual(once);
  });

  it('folds text and detects CJK', () => {
    expect(foldText('ÉCOLE')).toBe('ecole');
    expect(hasCjk('abc')).toBe(false);
    expect(hasCjk('abcカ')).toBe(true);
  });
});
