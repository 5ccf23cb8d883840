import { describe, expect, it } from '@jest/globals';
import { to } from 'opencc-js/preset/t2cn';
import { holdsTraditional, SIMPLIFIED_CHARACTERS, simplifyHan } from './han-variants.js';
import { bigramQueryTokens, foldText, hasCjk, pairsBeginningWith, tokenize } from './tokenize.js';

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

  it('keeps a contraction of not one word, without its apostrophe, and splits at other apostrophes', () => {
    expect(tokenize("Who won't, isn’t and DIDN'T? We won.")).toEqual([
      'who',
      'wont',
      'isnt',
      'and',
      'didnt',
      'we',
      'won',
    ]);
    expect(tokenize("haven't")).not.toContain('haven');
    // An elided article and a name: the word after the apostrophe is found alone.
    expect(tokenize("l'état o'reilly l'n't")).toEqual(['l', 'etat', 'o', 'reilly', 'l', 'n', 't']);
    // Only a `t` that ends the word: not a possessive, a quote or `n't` without a word before it.
    expect(tokenize("rock 'n' roll, the dogs' toys, 'n't', can'tx")).toEqual([
      'rock',
      'n',
      'roll',
      'the',
      'dogs',
      'toys',
      'n',
      't',
      'can',
      'tx',
    ]);
    expect(tokenize("can't-miss won't🎉")).toEqual(['cant', 'miss', 'wont']);
  });

  it("drops an English clitic after a word's apostrophe, the possessive `'s` too", () => {
    expect(tokenize("Rust's model, you’re, I'm, we've, he'd, they'll")).toEqual([
      'rust',
      'model',
      'you',
      'i',
      'we',
      'he',
      'they',
    ]);
    // Only a clitic that ends the word, after a word: a name, a plural's possessive and a town stay.
    expect(tokenize("it'sx o'shea the dogs' toys 's-Hertogenbosch")).toEqual([
      'it',
      'sx',
      'o',
      'shea',
      'the',
      'dogs',
      'toys',
      's',
      'hertogenbosch',
    ]);
    expect(tokenize("Macy's🎉 sale")).toEqual(['macy', 'sale']);
  });

  it('keeps ++ or # written onto a one-letter word, and nowhere else', () => {
    expect(tokenize('C++ and C#, F#; C++17 or C#10 (i++)')).toEqual([
      'c++',
      'and',
      'c#',
      'f#',
      'c++',
      '17',
      'or',
      'c#',
      '10',
      'i++',
    ]);
    expect(tokenize('c#x c+++ abc# #rust issue#12 objective-c')).toEqual([
      'c',
      'x',
      'c',
      'abc',
      'rust',
      'issue',
      '12',
      'objective',
      'c',
    ]);
  });

  it('applies NFKC so full-width and ligature forms match plain ones', () => {
    expect(tokenize('ＡＢＣ１２３ ﬁle')).toEqual(['abc123', 'file']);
  });

  it('removes diacritics from Latin, Greek and Cyrillic but keeps vowel signs of other scripts', () => {
    expect(tokenize('Café Müller naïve Ελλάδα йод Ёлка')).toEqual(['cafe', 'muller', 'naive', 'ελλαδα', 'йод', 'елка']);
    // `й` and `ў` are letters of their own, not `и` and `у` with a mark: `мой` is not `мои`.
    expect(tokenize('Мой новый ЙОД, Беларусь: ўсё; ă ŭ')).toEqual(['мой', 'новый', 'йод', 'беларусь', 'ўсе', 'a', 'u']);
    expect(tokenize('हिन्दी')).toEqual(['हिन्दी']);
  });

  it('folds letters with a stroke and ligatures, which no decomposition takes apart', () => {
    expect(tokenize('Straße STRAẞE Łódź Øresund Ærø Œuvre Đà Nẵng Þór Ħamrun')).toEqual([
      'strasse',
      'strasse',
      'lodz',
      'oresund',
      'aero',
      'oeuvre',
      'da',
      'nang',
      'thor',
      'hamrun',
    ]);
    expect(foldText('Łódź')).toBe('lodz');
  });

  it('drops punctuation and emoji entirely', () => {
    expect(tokenize('🎉 … !!! — 👍🏽')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });

  it('leaves out characters that show nothing, inside a word too (soft hyphens, zero-width spaces)', () => {
    // `Bundes&shy;verfassungs&shy;gericht` is one word to a reader and to a query typed without them.
    expect(tokenize('Bundes\u00adverfassungs\u00adgericht')).toEqual(tokenize('Bundesverfassungsgericht'));
    expect(tokenize('inter\u200bnational co\u2060operate \ufeffstart\u200e')).toEqual([
      'international',
      'cooperate',
      'start',
    ]);
    // Variation selectors and joiners of emoji make no token of their own.
    expect(tokenize('I \u2764\ufe0f NY \u{1f468}\u200d\u{1f469} family')).toEqual(['i', 'ny', 'family']);
    // Persian's zero-width non-joiner inside a word, and a zero-width space inside a Chinese run.
    expect(tokenize('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645')).toEqual([
      '\u0645\u06cc\u062e\u0648\u0627\u0647\u0645',
    ]);
    expect(tokenize('搜索\u200b引擎')).toEqual(tokenize('搜索引擎'));
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

  it('segments Thai, Lao, Khmer and Myanmar runs into words, in both modes, and keeps Latin words apart', () => {
    for (const cjk of ['words', 'bigrams'] as const) {
      expect(tokenize('ภาษาไทยเป็นภาษาที่สวยงาม', { cjk })).toEqual(['ภาษา', 'ไทย', 'เป็น', 'ภาษา', 'ที่', 'สวยงาม']);
      expect(tokenize('ພາສາລາວເປັນພາສາທີ່ງາມ', { cjk })).toEqual(['ພາສາ', 'ລາວ', 'ເປັນ', 'ພາສາ', 'ທີ່', 'ງາມ']);
      expect(tokenize('ភាសាខ្មែរគឺជាភាសា', { cjk })).toContain('ភាសា');
      expect(tokenize('မြန်မာဘာသာစကားသည်လှပသည်', { cjk })).toContain('လှပ');
      expect(tokenize('abcภาษาไทย2024', { cjk })).toEqual(['abc', 'ภาษา', 'ไทย', '2024']);
    }
  });

  it('keeps Korean words whole, and makes character pairs of them for the index', () => {
    expect(tokenize('서울의 날씨가 좋습니다')).toEqual(['서울의', '날씨가', '좋습니다']);
    expect(tokenize('서울의 날씨', { cjk: 'bigrams' })).toEqual(['서울', '울의', '의', '날씨', '씨']);
    expect(bigramQueryTokens('서울').tokens).toEqual(['서울']);
  });

  it('is stable: tokenizing the joined tokens gives the same tokens (index and query sides agree)', () => {
    const text = 'Le Café de Flore — ＴＯＫＹＯ 東京タワー and 北京大学 re:Invent ภาษาไทยเป็นภาษาที่สวยงาม';
    const once = tokenize(text);
    expect(tokenize(once.join(' '))).toEqual(once);
  });

  it('folds text and detects CJK', () => {
    expect(foldText('ÉCOLE')).toBe('ecole');
    expect(hasCjk('abc')).toBe(false);
    expect(hasCjk('abcカ')).toBe(true);
  });

  it('turns CJK runs into character pairs and the last character when asked for bigrams', () => {
    expect(tokenize('北京天气，iPhone手机 猫 𠀋𠀌x', { cjk: 'bigrams' })).toEqual([
      '北京',
      '京天',
      '天气',
      '气',
      'iphone',
      '手机',
      '机',
      '猫',
      '𠀋𠀌',
      '𠀌',
      'x',
    ]);
    expect(tokenize('Café re:Invent', { cjk: 'bigrams' })).toEqual(tokenize('Café re:Invent'));
  });
});

describe('traditional Chinese', () => {
  it('is indexed as simplified, so either script finds the other', () => {
    const pairs = (text: string) => tokenize(text, { cjk: 'bigrams' });
    expect(pairs('臺灣的學生喜歡讀書')).toEqual(pairs('台湾的学生喜欢读书'));
    expect(bigramQueryTokens('經濟發展').tokens).toEqual(bigramQueryTokens('经济发展').tokens);
    expect(foldText('東京の天氣')).toBe('东京の天气');
    // Words keep their script: ICU's dictionary segments them as written.
    expect(tokenize('東京都に住んでいます')).toContain('東京');
    // Characters both scripts write, and other scripts, are left alone.
    expect(pairs('著名的后来')).toEqual(['著名', '名的', '的后', '后来', '来']);
    expect(tokenize('Straße café')).toEqual(['strasse', 'cafe']);
    expect(SIMPLIFIED_CHARACTERS).toBeGreaterThan(2500);
  });

  it('folds characters outside the Basic Multilingual Plane too, and leaves emoji alone', () => {
    const dicts: readonly unknown[] = to.cn?.[0] ?? [];
    const table = dicts.find((dict): dict is string => typeof dict === 'string' && dict.includes('乾 干'));
    const entries: string[][] = (table ?? '').split('|').map((entry: string) => entry.split(' '));
    const astral = entries.find(([t, s]) => t?.length === 2 && Array.from(t).length === 1 && s !== undefined);
    expect(astral).toBeDefined();
    expect(simplifyHan(`a${astral![0]}b`)).toBe(`a${Array.from(astral![1]!)[0]}b`);
    expect(holdsTraditional('emoji 😀 and 中文')).toBe(false);
    expect(simplifyHan('emoji 😀 學')).toBe('emoji 😀 学');
  });
});

describe('pairsBeginningWith', () => {
  it('gives the character and every pair of the index that it begins, in the tokens tokenize writes', () => {
    const tokens = pairsBeginningWith('猫');
    expect(tokens[0]).toBe('猫');
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.every((token) => token.startsWith('猫') && Array.from(token).length <= 2)).toBe(true);
    // Every pair a real run gives that begins with 猫, Chinese and Japanese.
    const written = ['小猫和猫咪吃猫粮', '猫々', '猫カフェ', '猫のしっぽ', '黒猫ー'].flatMap((text) =>
      tokenize(text, { cjk: 'bigrams' }).filter((token) => token.startsWith('猫')),
    );
    expect(written.length).toBeGreaterThan(5);
    for (const token of written) expect(tokens).toContain(token);
    expect(tokens).not.toContain('小猫');
    expect(tokens.length).toBeGreaterThan(20_000);
    expect(tokens.length).toBeLessThan(22_000);
  });

  it('pairs a Hangul syllable with Hangul syllables', () => {
    const tokens = pairsBeginningWith('집');
    for (const token of tokenize('우리집에 집들이', { cjk: 'bigrams' }).filter((t) => t.startsWith('집'))) {
      expect(tokens).toContain(token);
    }
    expect(tokens).toHaveLength(1 + 11_172);
  });
});

describe('bigramQueryTokens', () => {
  it('drops the last lone character of a final run and makes a final one-character run a prefix', () => {
    expect(bigramQueryTokens('北京天气')).toEqual({ tokens: ['北京', '京天', '天气'], lastIsPrefix: false });
    expect(bigramQueryTokens('猫')).toEqual({ tokens: ['猫'], lastIsPrefix: true });
    expect(bigramQueryTokens('北京 京')).toEqual({ tokens: ['北京', '京', '京'], lastIsPrefix: true });
    expect(bigramQueryTokens('手机 case')).toEqual({ tokens: ['手机', '机', 'case'], lastIsPrefix: false });
    expect(bigramQueryTokens('5个')).toEqual({ tokens: ['5', '个'], lastIsPrefix: true });
    expect(bigramQueryTokens('solar panel')).toEqual({ tokens: ['solar', 'panel'], lastIsPrefix: false });
    expect(bigramQueryTokens('🎉')).toEqual({ tokens: [], lastIsPrefix: false });
  });
});
