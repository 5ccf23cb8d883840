import { describe, expect, it } from '@jest/globals';
import { type Portion, pagePortion } from './portion.js';
import { countTokens } from './tokens.js';

/** Every portion of `text`, each asked from where the one before ended, checked as it comes. */
function readAll(text: string, maxTokens: number): Portion[] {
  const portions: Portion[] = [];
  for (let start = 0; portions.at(-1)?.end !== text.length; start = portions.at(-1)!.end) {
    const portion = pagePortion({ text, start, maxTokens });
    expect(portion.start).toBe(start);
    expect(portion.end).toBeGreaterThan(start);
    expect(text.slice(portion.start, portion.end)).toBe(portion.text);
    expect(portion.tokens).toBe(countTokens(portion.text));
    expect(portion.tokens).toBeLessThanOrEqual(maxTokens);
    portions.push(portion);
  }
  expect(portions.map((p) => p.text).join('')).toBe(text);
  return portions;
}

const PAGE = Array.from(
  { length: 30 },
  (_, i) =>
    `Section ${i} opens with a short sentence. It goes on about rivers, hills and the people who live near ` +
    `them, at some length. Section ${i} ends here.`,
).join('\n\n');

describe('pagePortion', () => {
  it('reads a page in portions within the budget that make it up exactly, each ending after a sentence', () => {
    for (const maxTokens of [40, 100, 1_000]) {
      const portions = readAll(PAGE, maxTokens);
      for (const portion of portions) {
        expect(portion.text.trimEnd()).toMatch(/\.$/);
        expect(portion.text).toMatch(/^[A-Z]/);
      }
      // Paragraphs take 34 tokens, their sentences 8 to 20: a portion ends after the last sentence that fits.
      for (const portion of portions.slice(0, -1)) expect(portion.tokens).toBeGreaterThan(maxTokens * 0.75);
    }
    expect(readAll(PAGE, 1_000)).toHaveLength(2);
  });

  it('fills the budget when its text takes many characters a token', () => {
    // 64 characters a token: the window chunked first (8 characters a token of the budget) holds a
    // line of 10 tokens and a bit, less than the first chunk (a chunk ends at a line once half full).
    const rules = Array.from({ length: 60 }, () => '-'.repeat(640)).join('\n');
    const [first] = readAll(rules, 100);
    expect(first!.tokens).toBeGreaterThan(75);
  });

  it('cuts a first sentence longer than the budget at whole words, and reads on after the cut', () => {
    const sentence = `${Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')}.`;
    const portions = readAll(`${sentence}\n\nA short closing line.`, 30);
    expect(portions[0]!.text.startsWith('word0 word1 ')).toBe(true);
    expect(portions[0]!.tokens).toBeGreaterThan(20);
    for (const portion of portions.slice(0, -1)) expect(portion.text).toMatch(/^word\d+ .* word\d+ $/);
    expect(portions.at(-1)!.text.endsWith('word199.\n\nA short closing line.')).toBe(true);
  });

  it('reads Chinese, written without spaces, in portions that make it up exactly', () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `今天天气很好，我们去公园散步${i}次。`);
    const run = '我们喜欢吃苹果和香蕉还有很多别的水果'.repeat(12);
    const portions = readAll(`${sentences.join('')}\n\n${run}`, 16);
    // Two sentences do not fit: each is a portion. The run without punctuation is cut between two characters.
    expect(portions.slice(0, 12).map((p) => p.text.trimEnd())).toEqual(sentences);
    expect(portions.length).toBeGreaterThan(12 + 5);
    expect(portions.slice(12).every((p) => run.includes(p.text))).toBe(true);
  });

  it('reads a word longer than the budget in pieces', () => {
    const hash = 'a1b2c3d4e5f6'.repeat(40);
    const portions = readAll(`See ${hash} for the build.`, 16);
    expect(portions.length).toBeGreaterThan(5);
    expect(portions.slice(1, -1).every((p) => hash.includes(p.text))).toBe(true);
  });

  it('moves a start inside a word to the next word, and keeps one at a word or character of Chinese', () => {
    const text = 'Hello world again. 今天天气很好。';
    const from = (start: number) => pagePortion({ text, start, maxTokens: 16 });
    expect(from(2)).toMatchObject({ start: 6, text: 'world again. 今天天气很好。' });
    expect(from(5).start).toBe(6);
    expect(from(6).start).toBe(6);
    expect(from(text.indexOf('天气')).text).toBe('天气很好。');
    expect(from(text.length)).toEqual({ text: '', start: text.length, end: text.length, tokens: 0 });
    expect(pagePortion({ text: '', maxTokens: 16 })).toEqual({ text: '', start: 0, end: 0, tokens: 0 });
  });

  it('refuses a start outside the text', () => {
    for (const start of [-1, 2.5, 19]) {
      expect(() => pagePortion({ text: 'Hello world again.', start, maxTokens: 16 })).toThrow(
        'start must be an integer from 0 to 18',
      );
    }
  });
});
