import { describe, expect, it } from '@jest/globals';
import { makeSnippet, queryTermsIn } from './snippet.js';

const filler = (n: number, word = 'lorem'): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('makeSnippet', () => {
  it('returns a short text whole, with whitespace collapsed', () => {
    expect(makeSnippet('  A short\n\ntext. ', [{ text: 'short' }])).toBe('A short text.');
  });

  it('centres on the query terms, cut at word boundaries with ellipses', () => {
    const text = `${filler(200)} The Solar panel market grew quickly this year. ${filler(200, 'ipsum')}`;
    const snippet = makeSnippet(text, [{ text: 'solar' }, { text: 'market' }]);
    expect(snippet).toContain('Solar panel market');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(320);
    expect(snippet.length).toBeGreaterThanOrEqual(160);
    const words = snippet.slice(1, -1).trim().split(' ');
    for (const word of words.slice(0, -1)) expect(text.split(/\s+/)).toContain(word);
  });

  it('opens at the start of the sentence the first hit is in, when that is close before it', () => {
    const text = `${filler(100)} The old pump failed in March. Engineers replaced the valve in April. ${filler(100)}`;
    expect(makeSnippet(text, [{ text: 'valve' }])).toMatch(/^…Engineers replaced the valve/);
    // `e.g.` before a lower-case word ends no sentence; nor does a sentence start after the hit count.
    const abbreviated = `${filler(100)} Some pumps failed, e.g. the ones with a brass valve. Later ones were fine. ${filler(100)}`;
    expect(makeSnippet(abbreviated, [{ text: 'valve' }])).not.toMatch(/^…(?:the ones|Later)/);
    expect(makeSnippet(abbreviated, [{ text: 'valve' }])).toContain('brass valve');
  });

  it('never opens with a word of punctuation alone', () => {
    // Text tokenized with spaces around its punctuation, as some corpora and extracted tables are.
    for (let pad = 0; pad < 24; pad++) {
      const text = `${filler(40)} ${'numbers from 0 to 5 . the ( method ) , in all ; cases - '.repeat(12)}${'y'.repeat(pad + 1)} target word ${filler(80)}`;
      const snippet = makeSnippet(text, [{ text: 'target' }]);
      expect(snippet).toContain('target');
      expect(snippet).toMatch(/^…[\p{L}\p{N}]/u);
    }
  });

  it('shows the last word of the window whole, whatever the distance between the words', () => {
    // The window holds hits up to maxChars less the lead, and the lead (and a word start moved back)
    // pushed the last one past the snippet's end: `…recommend that you get travel…` for `insurance`.
    const lost: number[] = [];
    for (let gap = 200; gap <= 300; gap++) {
      const between = 'x'.repeat(gap - 12);
      const text = `${filler(60)} A sentence about travel then ${between} insurance here ${filler(60)}`;
      const snippet = makeSnippet(text, [{ text: 'travel insurance' }]);
      expect(snippet.length).toBeLessThanOrEqual(320);
      expect(snippet).toContain('travel');
      if (!/\binsurance\b/.test(snippet)) lost.push(gap);
    }
    expect(lost).toEqual([]);
  });

  it('prefers the window holding the most distinct terms', () => {
    const text = `${filler(100)} alpha ${filler(100)} alpha beta gamma ${filler(100)} gamma`;
    expect(makeSnippet(text, [{ text: 'alpha beta gamma' }])).toContain('alpha beta gamma');
  });

  it('prefers the window whose words are close together, with what follows them, to one opened by a stray mention', () => {
    const text =
      'Nintendo shocked the world this year by announcing Super Mario Run, its first mobile game. ' +
      'It is a game you can play on your phone with one hand, so what is not to love? Thankfully, now we know ' +
      'when you can get it: Super Mario Run will launch on iPhone on December 15, for a flat fee of $9.99. ' +
      `You can play a sample of the game modes for free before you buy. ${filler(80)}`;
    const snippet = makeSnippet(
      text,
      ['mario', 'flat', 'fee'].map((word) => ({ text: word })),
    );
    expect(snippet).toContain('for a flat fee of $9.99.');
    expect(snippet).not.toContain('announcing');
    // A word's first mention (its definition) over a passage that repeats it.
    const defined = `The okapi is a forest giraffe of the Congo. ${filler(60)} The okapi eats leaves; okapi calves hide; an okapi runs. ${filler(60)}`;
    expect(makeSnippet(defined, [{ text: 'okapi' }])).toMatch(/^The okapi is a forest giraffe/);
  });

  it('matches case- and diacritic-insensitively', () => {
    const text = `${filler(100)} Le Café Müller est ouvert ${filler(100)}`;
    expect(makeSnippet(text, [{ text: 'cafe muller' }])).toContain('Café Müller');
  });

  it('matches a word holding a letter folded to two (ß, æ, œ, þ), and shows it as written', () => {
    const text = `${filler(100)}. Das Haus meines Urgroßvaters wurde in der Fußgängerzone begrüßt, nahe dem Æsop-Œuvre von Þórr. ${filler(100)}`;
    const asked = { Urgroßvaters: 'Urgroßvaters', urgrossvaters: 'Urgroßvaters', Fußgängerzone: 'Fußgängerzone' };
    const more = { begrüßt: 'begrüßt,', Æsop: 'Æsop-Œuvre', œuvre: 'Æsop-Œuvre', Þórr: 'von Þórr.' };
    for (const [word, shown] of Object.entries({ ...asked, ...more })) {
      const snippet = makeSnippet(text, [{ text: word }]);
      expect(snippet).toContain(shown);
      expect(snippet.startsWith('…')).toBe(true);
    }
    expect(makeSnippet(text, [{ text: 'meines Urgroßvaters' }])).toMatch(/^…Das Haus meines Urgroßvaters/);
  });

  it('shows a last word holding letters folded to two whole, whatever the distance between the words', () => {
    // Each ß is two characters folded: the word found in the folded text ends later than as written.
    const lost: number[] = [];
    for (let gap = 200; gap <= 300; gap++) {
      const text = `${filler(60)} Ein Satz über Reisen ${'x'.repeat(gap - 12)} Großstraßenmaßstäbe hier ${filler(60)}`;
      const snippet = makeSnippet(text, [{ text: 'reisen großstraßenmaßstäbe' }]);
      expect(snippet.length).toBeLessThanOrEqual(320);
      if (!/Großstraßenmaßstäbe/.test(snippet)) lost.push(gap);
    }
    expect(lost).toEqual([]);
  });

  it('matches full-width letters, and full-width punctuation does not hide a word', () => {
    const text = `${filler(100)} ＣＡＦＥ（Ｍｕｌｌｅｒ），ouvert ${filler(100)}`;
    expect(makeSnippet(text, [{ text: 'cafe muller' }])).toContain('ＣＡＦＥ（Ｍｕｌｌｅｒ）');
    expect(makeSnippet(`${filler(100)}，ouvert，${filler(100)}`, [{ text: 'ouvert' }])).toContain('，ouvert，');
  });

  it('finds Chinese words inside unsegmented text', () => {
    const text = `${'这是一段很长的新闻文本，讲述了城市的发展。'.repeat(30)}我们使用搜索引擎查找资料。${'天气晴朗，适合出行。'.repeat(30)}`;
    const snippet = makeSnippet(text, [{ text: '搜索引擎' }]);
    expect(snippet).toContain('搜索引擎');
    expect(snippet.length).toBeLessThanOrEqual(320);
  });

  it('finds a Chinese word written in the other script, traditional or simplified', () => {
    const traditional = `${'這是一段很長的新聞文本，講述了城市的發展。'.repeat(30)}我們使用搜索引擎查找資料。${'天氣晴朗，適合出行。'.repeat(30)}`;
    expect(makeSnippet(traditional, [{ text: '资料' }])).toContain('查找資料');
    const simplified = `${'这是一段很长的新闻文本，讲述了城市的发展。'.repeat(30)}我们使用搜索引擎查找资料。${'天气晴朗，适合出行。'.repeat(30)}`;
    expect(makeSnippet(simplified, [{ text: '資料' }])).toContain('查找资料');
    expect(makeSnippet(traditional, [{ text: '資料' }])).toContain('查找資料');
    expect(makeSnippet(traditional, [{ text: '"搜索引擎查找资料"' }])).toContain('搜索引擎查找資料');
  });

  it('finds a Japanese verb or adjective in another form, as search finds it', () => {
    const filler = '今日はいい天気でした。公園を散歩して、友達と話しました。'.repeat(12);
    const text = `${filler}昨日は東京で寿司を食べました。とても新しかったです。${filler}`;
    for (const q of ['食べる', '寿司を食べたい', '新しい']) {
      expect([q, makeSnippet(text, [{ text: q }])]).toEqual([q, expect.stringContaining('新しかった')]);
    }
  });

  it('finds Thai words inside runs of text', () => {
    const text = `${'ภาษาไทยเป็นภาษาที่สวยงาม มีตัวอักษรของตัวเอง '.repeat(20)}ต้มยำกุ้งเป็นอาหารที่มีชื่อเสียง ${'ประเทศไทยมีประวัติศาสตร์ยาวนาน '.repeat(20)}`;
    const snippet = makeSnippet(text, [{ text: 'ต้มยำกุ้ง' }]);
    expect(snippet).toContain('ต้มยำกุ้ง');
    expect(snippet.length).toBeLessThanOrEqual(320);
  });

  it('finds a word holding soft hyphens or a zero-width space, and shows it without them', () => {
    const text = `${filler(100)} The Home Repair Assis\u00adtance Pro\u200bgram opens in March. ${filler(100)}`;
    const snippet = makeSnippet(text, [{ text: 'assistance program' }]);
    expect(snippet).toContain('Home Repair Assistance Program opens');
    expect(queryTermsIn(text, [{ text: 'assistance program' }])).toMatchObject({ found: 2, of: 2 });
  });

  it('falls back to the start of the text when no term occurs', () => {
    const text = filler(300);
    const snippet = makeSnippet(text, [{ text: 'absent' }]);
    expect(snippet.startsWith('lorem0 lorem1')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(320);
  });

  it('respects custom bounds, including hits near the end of the text', () => {
    const text = `${filler(300)} finale`;
    const snippet = makeSnippet(text, [{ text: 'finale' }], { minChars: 50, maxChars: 100 });
    expect(snippet.length).toBeLessThanOrEqual(100);
    expect(snippet.length).toBeGreaterThanOrEqual(50);
    expect(snippet.endsWith('finale')).toBe(true);
  });

  it('never exceeds maxChars on text without spaces', () => {
    const snippet = makeSnippet('x'.repeat(5000), [{ text: 'y' }]);
    expect(snippet.length).toBeLessThanOrEqual(320);
  });
});

describe('queryTermsIn', () => {
  it('counts the distinct query words a text shows, as whole words, case and accents folded', () => {
    expect(queryTermsIn('The first Solar cells; solar again.', [{ text: 'solar panels' }])).toEqual({
      found: 1,
      of: 2,
      phrasesFound: 0,
      phrases: 1,
    });
    expect(queryTermsIn('Café owners', [{ text: 'cafe' }, { text: 'owners' }])).toEqual({
      found: 2,
      of: 2,
      phrasesFound: 0,
      phrases: 0,
    });
    expect(queryTermsIn('solarium', [{ text: 'solar' }])).toMatchObject({ found: 0, of: 1 });
    expect(queryTermsIn('Die Fußgängerzone', [{ text: 'Fussgängerzone' }])).toMatchObject({ found: 1, of: 1 });
    expect(queryTermsIn('New Solar-panels here', [{ text: 'solar panels' }])).toMatchObject({ phrasesFound: 1 });
  });

  it("does not find a word in the start of a contraction of not (`won` in `won't`)", () => {
    expect(queryTermsIn("We won't say. We haven't.", [{ text: 'won' }, { text: 'haven' }])).toMatchObject({
      found: 0,
      of: 2,
    });
    expect(queryTermsIn("We won't say, a safe haven.", [{ text: 'won' }, { text: 'haven' }])).toMatchObject({
      found: 1,
    });
    // The contraction itself is found, with either apostrophe or none, alone and in a phrase.
    expect(queryTermsIn('They won’t, or wont', [{ text: "won't" }])).toMatchObject({ found: 1, of: 1 });
    expect(queryTermsIn("Cats won't purr", [{ text: "won't purr" }])).toMatchObject({ phrasesFound: 1 });
    const text = `Hopes won't win votes. ${'Filler words go here. '.repeat(30)}She won the vote.`;
    expect(makeSnippet(text, [{ text: 'won' }, { text: 'vote' }], { maxChars: 80 })).toContain('won the vote');
  });

  it("finds a phrase whose page writes a clitic onto one of its words (`Rust's ownership`)", () => {
    expect(queryTermsIn("Rust's ownership model", [{ text: 'rust ownership' }])).toMatchObject({ phrasesFound: 1 });
    expect(queryTermsIn('RUST’S OWNERSHIP', [{ text: 'rust ownership' }])).toMatchObject({ phrasesFound: 1 });
    expect(queryTermsIn("Rust'd ownership", [{ text: 'rust ownership' }])).toMatchObject({ phrasesFound: 1 });
    expect(queryTermsIn("Rust'x ownership", [{ text: 'rust ownership' }])).toMatchObject({ phrasesFound: 0 });
  });

  it('finds a language written with symbols (`C++`, `C#`), a version number after it too', () => {
    expect(queryTermsIn('Modern C++17 and C# code', [{ text: 'c++' }, { text: 'c#' }])).toMatchObject({
      found: 2,
      of: 2,
    });
    expect(queryTermsIn('Modern Cx++ and AC# code', [{ text: 'c++' }, { text: 'c#' }])).toMatchObject({ found: 0 });
  });

  it('finds a word written in two parts joined by a hyphen (`COVID-19` for `covid19`), not in a longer chain', () => {
    expect(
      queryTermsIn('COVID-19 shots by e\u2011mail', [{ text: 'covid19' }, { text: 'email' }, { text: 'shots' }]),
    ).toMatchObject({ found: 3, of: 3 });
    expect(queryTermsIn('a x-covid-19 case, co-vid19x, covid 19', [{ text: 'covid19' }])).toMatchObject({ found: 0 });
    const text = `${filler(200)} Reminders go out by E-mail the day before. ${filler(200, 'ipsum')}`;
    expect(makeSnippet(text, [{ text: 'email' }])).toContain('Reminders go out by E-mail the day before.');
    // And a hyphenated query word written as one word on the page.
    const joined = `A book club. ${filler(200)} Download the eBook for free. ${filler(200, 'ipsum')}`;
    expect(makeSnippet(joined, [{ text: 'e-book' }])).toContain('Download the eBook for free.');
    expect(queryTermsIn('the eBook', [{ text: 'e-book' }])).toMatchObject({ phrasesFound: 1, phrases: 1 });
  });

  it('finds a number written in groups for its digits, and its digits for the number in groups', () => {
    expect(queryTermsIn('Grants of $10,000 and 1.250.000 €', [{ text: '10000' }, { text: '1250000' }])).toMatchObject({
      found: 2,
      of: 2,
    });
    expect(queryTermsIn('Rows 10 and 000; v1.234.567', [{ text: '10000' }, { text: '1234567' }])).toMatchObject({
      found: 0,
    });
    const text = `${filler(200)} Each team gets 10 000 euros a year. ${filler(200, 'ipsum')}`;
    expect(makeSnippet(text, [{ text: '10000' }])).toContain('Each team gets 10 000 euros a year.');
    const plain = `${filler(200)} Each team gets 10000 dollars a year. ${filler(200, 'ipsum')}`;
    expect(makeSnippet(plain, [{ text: '$10,000' }])).toContain('Each team gets 10000 dollars a year.');
    expect(queryTermsIn('gets 10000 dollars', [{ text: '10,000' }])).toMatchObject({ phrasesFound: 1, phrases: 1 });
  });

  it('leaves stop words out unless the query has nothing else', () => {
    expect(queryTermsIn('the cat', [{ text: 'the dog' }])).toMatchObject({ found: 0, of: 1 });
    expect(queryTermsIn('to be', [{ text: 'to be or not' }])).toMatchObject({ found: 2, of: 4 });
  });
});

describe('word forms in snippets', () => {
  it('finds a query word in another form of its English stem', () => {
    const text = `${filler(200)} the crawler handles robots files politely ${filler(200, 'ipsum')}`;
    const snippet = makeSnippet(text, [{ text: 'handling' }, { text: 'file' }]);
    expect(snippet).toContain('the crawler handles robots files politely');
    expect(queryTermsIn('The crawler Handles robots files', [{ text: 'handling' }, { text: 'file' }])).toMatchObject({
      found: 2,
      of: 2,
    });
  });

  it('finds a Russian query word in another form of its Snowball stem', () => {
    const text = `${'Город живёт своей жизнью. '.repeat(20)}Новая станция метро открыта. ${'Погода хорошая. '.repeat(20)}`;
    expect(makeSnippet(text, [{ text: 'новый' }, { text: 'станции' }])).toContain('Новая станция метро открыта');
    expect(queryTermsIn('Новая станция', [{ text: 'новый' }])).toMatchObject({ found: 1, of: 1 });
  });

  it('prefers the words as typed where other forms show as many words', () => {
    const text = `${filler(100)} one shoe here ${filler(100, 'ipsum')} the shoes as typed ${filler(100, 'dolor')}`;
    expect(makeSnippet(text, [{ text: 'shoes' }])).toContain('the shoes as typed');
    // More of the query's words in other forms still win.
    const more = `${filler(100)} a shoe ${filler(100, 'ipsum')} she runs in her shoes ${filler(100, 'dolor')}`;
    expect(makeSnippet(more, [{ text: 'run shoe' }])).toContain('she runs in her shoes');
  });

  it('does not take a word sharing only the first letters for a form', () => {
    // `happen` starts with the first letters of `happy`'s stem (`happi`), not with the stem.
    expect(queryTermsIn('it may happen', [{ text: 'happy' }])).toMatchObject({ found: 0, of: 1 });
    expect(queryTermsIn('happier days', [{ text: 'happy' }])).toMatchObject({ found: 0, of: 1 });
    expect(queryTermsIn('a runway', [{ text: 'running' }])).toMatchObject({ found: 0, of: 1 });
  });
});

describe('phrases in snippets', () => {
  it("shows the query's phrase where the page has it, over its words scattered earlier", () => {
    const scattered = 'The flow near the wall changes; a thin layer forms at the boundary of the plate.';
    const text = `${filler(60)} ${scattered} ${filler(120, 'ipsum')} measured the Boundary-Layer flow at Mach 2 ${filler(120, 'dolor')}`;
    expect(makeSnippet(text, [{ text: 'boundary layer flow' }])).toContain('the Boundary-Layer flow at Mach 2');
    // Without the phrase, the first window with every word is shown.
    expect(makeSnippet(text, [{ text: 'boundary' }, { text: 'layer' }, { text: 'flow' }])).toContain(scattered);
  });

  it('shows a phrase of stop words, and a Chinese phrase', () => {
    const text = `${filler(100)} to be or not to be, that is the question ${filler(100, 'ipsum')}`;
    expect(makeSnippet(text, [{ text: 'to be or not to be' }])).toContain('to be or not to be, that is');
    const zh = `${'今天天气很好，我们去公园散步。'.repeat(20)}北京天气预报说明天下雨。${'其他内容很多。'.repeat(40)}`;
    expect(makeSnippet(zh, [{ text: '北京天气' }])).toContain('北京天气预报');
  });

  it('finds a phrase of more than 32 words whole, and not where only its first words are', () => {
    const phrase = filler(40, 'w');
    const text = `${filler(200)} ${phrase.replace('w0 w1', 'W0, w1')} ${filler(200, 'ipsum')}`;
    expect(makeSnippet(text, [{ text: phrase }])).toContain('W0, w1 w2');
    expect(queryTermsIn(text, [{ text: phrase }])).toMatchObject({ phrasesFound: 1, phrases: 1 });
    const cut = text.replace('w38 w39', 'w38 x39');
    expect(queryTermsIn(cut, [{ text: phrase }])).toMatchObject({ found: 39, phrasesFound: 0, phrases: 1 });
  });

  it('answers on a long page that repeats the start of a long phrase without it', () => {
    // Took seconds when each occurrence of the first word was matched against the whole phrase.
    const page = 'zq '.repeat(350_000);
    const clauses = [{ text: `${'zq '.repeat(1000)}qz` }];
    expect(makeSnippet(page, clauses)).toBe(`${'zq '.repeat(106).trim()}…`);
    expect(queryTermsIn(page, clauses)).toEqual({ found: 1, of: 2, phrasesFound: 0, phrases: 1 });
  });
});
