import { describe, expect, it } from '@jest/globals';
import { CHUNK_DEFAULTS, chunkText } from './chunk.js';
import { markdownFromText, markdownHeadings, markdownLines, stripInlineMarkup } from './markdown.js';
import { selectPassages } from './passages.js';
import { scoreChunks } from './score.js';
import { countTokens } from './tokens.js';

const MARKDOWN = [
  '# Growing tomatoes',
  'Tomatoes like sun. They need water every day in summer.',
  '## Soil',
  'Use **rich** soil with [compost](https://example.com/compost). Drain it well.',
  '## Pests',
  'Aphids eat the leaves. Spray them with soapy water.',
].join('\n\n');
const TEXT = [
  'Growing tomatoes',
  'Tomatoes like sun. They need water every day in summer.',
  'Soil',
  'Use rich soil with compost. Drain it well.',
  'Pests',
  'Aphids eat the leaves. Spray them with soapy water.',
].join('\n\n');

describe('markdownHeadings', () => {
  it('reads ATX and setext headings without their inline markup, skipping fenced code', () => {
    const md = '# A *bold* [link](x)\n\nText\n\nSetext\n------\n\n```\n# not a heading\n```\n### C ###';
    expect(markdownHeadings(md)).toEqual([
      { level: 1, text: 'A bold link' },
      { level: 2, text: 'Setext' },
      { level: 3, text: 'C' },
    ]);
  });
});

describe('markdownLines', () => {
  it('reads list, quote and task markers away and marks headings', () => {
    expect(markdownLines('> quoted *text*\n1. [x] done\n- [link](u)\n### Head')).toEqual([
      { text: 'quoted text' },
      { text: 'done' },
      { text: 'link' },
      { text: 'Head', headingLevel: 3 },
    ]);
  });

  it('drops closing #s only after a space, as CommonMark, and breaks lines at \\r and U+2028', () => {
    expect(markdownHeadings('# C#\r## Title ##  \u2028### ###\n# foo \\#\n#5 bolt')).toEqual([
      { level: 1, text: 'C#' },
      { level: 2, text: 'Title' },
      { level: 1, text: 'foo #' },
    ]);
  });

  it('reads a heading line of many spaces and a line break other than \\n quickly', () => {
    // Each took seconds with a heading pattern that backtracked over the spaces (time grew as their count to the 4th).
    expect(markdownLines(`## ${' '.repeat(400)}\u2028x`)).toEqual([{ text: 'x' }]);
    expect(markdownLines(`## Title${' '.repeat(400)}\rx`)).toEqual([{ text: 'Title', headingLevel: 2 }, { text: 'x' }]);
  });

  it('reads a line of 100,000 brackets or angle brackets quickly, as it is', () => {
    // Each of these took seconds with link and tag patterns that scanned to the line's end from every bracket.
    for (const line of ['['.repeat(100_000), '!['.repeat(50_000), '<'.repeat(100_000), '[]('.repeat(50_000)]) {
      expect(markdownLines(line)).toEqual([{ text: line.replace(/\s+/g, ' ') }]);
    }
  });
});

describe('stripInlineMarkup', () => {
  it('keeps the text of links and images, whatever their targets and titles', () => {
    expect(
      stripInlineMarkup(
        'A [link](https://x.test/a "Title") and ![an image](a b.png \'t\') in [![icon](/i.png)](/x), ' +
          '[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) [b](<c d>) <b>bold</b> a < b',
      ),
    ).toBe('A link and an image in icon, Foo b bold a < b');
  });
});

describe('markdownFromText', () => {
  it('makes paragraphs, keeps line breaks and escapes what would read as markup', () => {
    expect(markdownFromText('# not a heading\nsecond line\n\n\n1. not a list\n\n- dash')).toBe(
      '\\# not a heading  \nsecond line\n\n1\\. not a list\n\n\\- dash',
    );
  });
});

describe('chunkText', () => {
  it('follows the headings of the markdown and keeps each heading path', () => {
    const chunks = chunkText(TEXT, { markdown: MARKDOWN });
    expect(chunks.map((c) => c.headingPath)).toEqual([
      ['Growing tomatoes'],
      ['Growing tomatoes', 'Soil'],
      ['Growing tomatoes', 'Pests'],
    ]);
    expect(TEXT.slice(chunks[1]!.start, chunks[1]!.end)).toBe('Soil\n\nUse rich soil with compost. Drain it well.');
  });

  it('takes headings where the markdown has them, not from a table of contents repeating them', () => {
    const md =
      'Contents\n\n- [Soil](#soil)\n- [Pests](#pests)\n\n## Soil\n\nUse rich soil.\n\n## Pests\n\nAphids eat leaves.';
    const text = 'Contents\n\nSoil\nPests\n\nSoil\n\nUse rich soil.\n\nPests\n\nAphids eat leaves.';
    const chunks = chunkText(text, { markdown: md, targetTokens: 12 });
    const pathOf = (words: string) => chunks.find((c) => text.slice(c.start, c.end).includes(words))?.headingPath;
    expect(pathOf('Contents')).toEqual([]);
    expect(pathOf('Use rich soil.')).toEqual(['Soil']);
    expect(pathOf('Aphids eat leaves.')).toEqual(['Pests']);
  });

  it('aligns a line a few lines ahead only when the lookahead holds it once, whatever comes after', () => {
    const text = 'Soil\n\nUse rich soil with compost.';
    const after = Array.from({ length: 300 }, (_, i) => `Other line ${i}.`).join('\n\n');
    const markdown = (later: string) =>
      `Intro one.\n\nIntro two.\n\nIntro three.\n\n## Soil\n\nUse rich soil with compost.\n\n${later}`;
    const pathOf = (md: string) => chunkText(text, { markdown: md, targetTokens: 8 }).at(-1)?.headingPath;
    // `Soil` again 300 lines on, past the 200 lines looked ahead: the heading is still found.
    expect(pathOf(markdown(`${after}\n\nSoil`))).toEqual(['Soil']);
    // Again within them, it could be either: the heading is not taken.
    expect(pathOf(markdown('Soil\n\nMore.'))).toEqual([]);
    // Only past them: not looked for.
    expect(pathOf(`${after}\n\n## Soil\n\nUse rich soil with compost.`)).toEqual([]);
  });

  it('never cuts a sentence, even one longer than the target', () => {
    const long = `Long ${'word '.repeat(60).trim()}.`;
    const text = `Short one. ${long} Another short one.`;
    const chunks = chunkText(text, { targetTokens: 20 });
    const texts = chunks.map((c) => text.slice(c.start, c.end));
    expect(texts).toEqual(['Short one.', long, 'Another short one.']);
    expect(chunks[1]!.tokens).toBeGreaterThan(20);
  });

  it('keeps a sentence whole across the line breaks of a wrapped paragraph', () => {
    const text =
      'Stationary bikes are ideal for those seeking a comfortable cardio workout that can be\n' +
      'adjusted to their fitness level and goals. Rowers train the whole body.\n' +
      'Treadmills suit walkers.\n\nStrength comes next.';
    const chunks = chunkText(text, { targetTokens: 12 });
    const texts = chunks.map((c) => text.slice(c.start, c.end));
    expect(texts[0]).toBe(
      'Stationary bikes are ideal for those seeking a comfortable cardio workout that can be\nadjusted to their fitness level and goals.',
    );
    // A line that starts a sentence of its own, after a full stop, is no continuation.
    expect(texts).toContain('Treadmills suit walkers.');
    expect(texts.every((t) => !/^\p{Ll}/u.test(t))).toBe(true);
    // A heading after a paragraph that filled half a chunk opens the next chunk with its sentence.
    const sections = 'A paragraph long enough to fill half of a small chunk on its own.\nPests\naphids eat leaves.';
    const markdown =
      'A paragraph long enough to fill half of a small chunk on its own.\n\n## Pests\n\naphids eat leaves.';
    const parts = chunkText(sections, { markdown, targetTokens: 24 }).map((c) => sections.slice(c.start, c.end));
    expect(parts).toEqual([
      'A paragraph long enough to fill half of a small chunk on its own.',
      'Pests\naphids eat leaves.',
    ]);
  });

  it('has an empty heading path without markdown', () => {
    expect(chunkText(TEXT).every((c) => c.headingPath.length === 0)).toBe(true);
  });
});

describe('selectPassages', () => {
  it('returns the best passages in page order within the budget, with exact offsets', () => {
    const passages = selectPassages({ bodyText: TEXT, bodyMarkdown: MARKDOWN, query: 'aphids soapy', maxTokens: 40 });
    expect(passages[0]?.text).toContain('Aphids eat the leaves');
    expect(passages[0]?.heading_path).toEqual(['Growing tomatoes', 'Pests']);
    expect(passages[0]!.score).toBeGreaterThan(0);
    for (const p of passages) expect(TEXT.slice(p.start, p.end)).toBe(p.text);
    expect(passages.reduce((sum, p) => sum + countTokens(p.text), 0)).toBeLessThanOrEqual(40);
  });

  it('leaves out passages without a query word and falls back to the opening when none has one', () => {
    expect(selectPassages({ bodyText: TEXT, bodyMarkdown: MARKDOWN, query: 'compost', maxTokens: 500 })).toHaveLength(
      1,
    );
    const opening = selectPassages({ bodyText: TEXT, query: 'zebra', maxTokens: 500 });
    expect(opening[0]?.start).toBe(0);
    expect(opening.every((p) => p.score === 0)).toBe(true);
  });

  it('takes the opening in a row: a later, shorter chunk that fits is no part of it', () => {
    // One sentence, which no chunk cuts, longer than the budget.
    const long = `${Array.from({ length: 40 }, (_, i) => `rivers and hills ${i}`).join(', ')}.`;
    const text = ['A short opening line.', long, 'A short closing line.'].join('\n\n');
    const budget = countTokens('A short opening line.') + 20;
    const opening = selectPassages({ bodyText: text, query: 'zebra', maxTokens: budget });
    expect(opening.map((p) => p.text)).toEqual(['A short opening line.']);
    // An opening that is one sentence longer than the budget: its first words, up to the budget.
    const sentence = `${Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')}.`;
    const cut = selectPassages({ bodyText: `${sentence}\n\nA short closing line.`, query: 'zebra', maxTokens: 30 });
    expect(cut).toHaveLength(1);
    expect(cut[0]!.start).toBe(0);
    expect(cut[0]!.text.startsWith('word0 word1')).toBe(true);
    expect(cut[0]!.tokens).toBeLessThanOrEqual(30);
    expect(cut[0]!.tokens).toBeGreaterThan(20);
    expect(cut[0]!.score).toBe(0);
  });

  it('scores Chinese text with the search tokenizer', () => {
    const text = '今天天气很好。\n\n搜索引擎可以找到网页。\n\n我们喜欢吃苹果。';
    const passages = selectPassages({ bodyText: text, query: '搜索引擎', maxTokens: 16 });
    expect(passages).toHaveLength(1);
    expect(passages[0]?.text).toContain('搜索引擎可以找到网页。');
    expect(passages[0]?.text).not.toContain('苹果');
  });

  it('matches English words stemmed, as search does', () => {
    const text = 'Wind farms grow every year.\n\nSolar panels convert sunlight into power.';
    const stemmed = selectPassages({ bodyText: text, query: 'panel converting', lang: 'en', maxTokens: 16 });
    expect(stemmed[0]?.text).toContain('Solar panels convert sunlight into power.');
    expect(stemmed[0]!.score).toBeGreaterThan(0);
    // Pages in other languages keep their words as written.
    const exact = selectPassages({ bodyText: text, query: 'panel', lang: 'und', maxTokens: 100 });
    expect(exact.every((p) => p.score === 0)).toBe(true);
  });

  it('finds a hyphenated word by its joined spelling and the other way round, as search does', () => {
    const text = 'Wind farms grow every year.\n\nThe clinic offers COVID-19 shots.\n\nReminders come by email.';
    const found = (query: string) =>
      selectPassages({ bodyText: text, query, lang: 'en', maxTokens: 16 })
        .filter((p) => p.score > 0)
        .map((p) => p.text)
        .join(' | ');
    expect(found('covid19')).toContain('The clinic offers COVID-19 shots.');
    expect(found('covid19')).not.toContain('email');
    expect(found('e-mail')).toContain('Reminders come by email.');
    expect(found('e-mail')).not.toContain('COVID');
  });

  it('cuts a sentence longer than the budget around its query word rather than answer without it', () => {
    const long = `The executor ${'runs every queued task in order and then '.repeat(8)}reports back.`;
    const text = `Opening words here.\n\n${long}\n\nClosing words here.`;
    const [passage, ...rest] = selectPassages({ bodyText: text, query: 'reports', maxTokens: 16 });
    expect(rest).toEqual([]);
    expect(passage!.text).toContain('reports back.');
    expect(passage!.score).toBeGreaterThan(0);
    expect(passage!.tokens).toBeLessThanOrEqual(16);
    expect(passage!.tokens).toBeGreaterThan(8);
    expect(text.slice(passage!.start, passage!.end)).toBe(passage!.text);
    // Whole words only.
    expect(/^\S/.test(passage!.text) && /\s\S/.test(text.slice(passage!.start - 1, passage!.start + 1))).toBe(true);
  });

  it("answers what something is from the page's opening, and nothing from its references or links out", () => {
    const sections = [
      ['# Okapi', 'The okapi is a forest giraffe of the Congo, with a striped rump.'],
      ['## Behaviour', 'The okapi is shy. Okapi calves hide for weeks. Okapi mothers call them.'],
      ['## Diet', 'Okapis eat leaves, buds and fungi.'],
      ['## See also', 'Okapi Conservation Project\n\nOkapi Wildlife Reserve\n\nGiraffe'],
    ];
    const markdown = sections.map(([heading, text]) => `${heading}\n\n${text}`).join('\n\n');
    const text = sections.map(([heading, body]) => `${heading!.replace(/^#+ /, '')}\n\n${body}`).join('\n\n');
    // The heading path of the passage scored best.
    const best = (query: string) =>
      selectPassages({ bodyText: text, bodyMarkdown: markdown, query, maxTokens: 40 }).reduce((a, b) =>
        b.score > a.score ? b : a,
      ).heading_path;
    expect(best('what is an okapi')).toEqual(['Okapi']);
    expect(best('who was the okapi?')).toEqual(['Okapi']);
    // Not a question of what it is: the passage saying the word most, not the list of links.
    expect(best('okapi')).toEqual(['Okapi', 'Behaviour']);
    // The same text counts a quarter under a heading of the page's apparatus, in any of its languages.
    const chunk = (...headingPath: string[]) => ({ text: 'The okapi and the okapi reserve.', headingPath });
    const [apparatus, weblinks, notes, body] = scoreChunks(
      [chunk('Okapi', 'See also'), chunk('Okapi', 'Weblinks'), chunk('Okapi', 'References:'), chunk('Okapi', 'Diet')],
      'okapi',
      'en',
    );
    expect(apparatus).toBeCloseTo(body! / 4, 6);
    expect(weblinks).toBeCloseTo(body! / 4, 6);
    expect(notes).toBeCloseTo(body! / 4, 6);
    expect(body).toBeGreaterThan(0);
  });

  it('returns nothing for an empty page', () => {
    expect(selectPassages({ bodyText: '', query: 'anything', maxTokens: 100 })).toEqual([]);
  });
});

describe('selectPassages on long pages (their chunks kept for the next question)', () => {
  // Two pages past the length whose chunks are kept, of the same length, their paragraphs cut
  // in other places: each must be answered from its own chunks.
  const lines = (topic: string): string[] =>
    Array.from(
      { length: 1_500 },
      (_, i) => `Section ${i} on ${topic}. The ${topic} notes of part ${i} say what was measured and why.`,
    );
  const cats = lines('cats').join('\n\n');
  const dogs = lines('dogs')
    .map((line, i) => (i % 3 === 2 ? `${line}  ` : `${line}\n\n`))
    .join('')
    .trimEnd();
  const boundaries = (text: string, targetTokens: number) =>
    new Set(chunkText(text, { targetTokens }).map((c) => `${c.start}-${c.end}`));

  it('answers each page from its own chunks, whatever was asked before', () => {
    expect(cats.length).toBeGreaterThan(100_000);
    expect(Math.abs(cats.length - dogs.length)).toBeLessThan(10);
    for (const [text, word] of [
      [cats, 'cats'],
      [dogs, 'dogs'],
      [cats, 'cats'],
      [dogs, 'dogs'],
    ] as const) {
      for (const maxTokens of [40, 1_000]) {
        const own = boundaries(text, Math.min(maxTokens, CHUNK_DEFAULTS.targetTokens));
        const passages = selectPassages({ bodyText: text, query: `${word} part 1234`, lang: 'en', maxTokens });
        expect(passages.length).toBeGreaterThan(0);
        for (const p of passages) expect(own.has(`${p.start}-${p.end}`)).toBe(true);
        expect(passages.some((p) => p.text.includes('part 1234 '))).toBe(true);
      }
    }
  });

  it('takes the headings of the markdown given with the text, not of one given before', () => {
    const paragraphs = cats.split('\n\n');
    const markdown = paragraphs.map((line, i) => (i === 1200 ? `## ${line}` : line)).join('\n\n');
    const ask = (md?: string) =>
      selectPassages({
        bodyText: cats,
        ...(md ? { bodyMarkdown: md } : {}),
        query: 'cats part 1234',
        lang: 'en',
        maxTokens: 200,
      });
    expect(ask()[0]?.heading_path).toEqual([]);
    expect(ask(markdown)[0]?.heading_path).toEqual([paragraphs[1200]]);
  });
});
