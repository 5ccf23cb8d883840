import { describe, expect, it } from '@jest/globals';
import { type FormMatch, formInText, formMatcher } from './forms.js';
import { stemToken } from './stem.js';
import { escapeRegExp, isNotContraction, writtenTokenPattern } from './tokenize.js';

describe('word forms in a text', () => {
  it('finds the exact word, whole and in any case', () => {
    expect(formInText('Running shoes for trails', 'running')).toBe('exact');
    expect(formInText('She is RUNNING.', 'running')).toBe('exact');
    expect(formInText('a front-runner', 'runner')).toBe('exact');
  });

  it('tells other forms of the stem from the exact one', () => {
    expect(formInText('She runs the trail daily', 'running')).toBe('other');
    expect(formInText('The long run is over', 'running')).toBe('other');
    expect(formInText('He was running late', 'run')).toBe('other');
    // Porter changes the stem's end: happy → happi, died → di.
    expect(formInText('Happiness for all', 'happy')).toBe('other');
    // Porter keeps `happier` apart from `happy`, so the index does too.
    expect(formInText('The happier, the better', 'happy')).toBe('unseen');
    expect(formInText('The plant dies in winter', 'died')).toBe('other');
  });

  it('tells the forms of a Russian word by its Snowball stem', () => {
    expect(formInText('Новая станция метро', 'новый')).toBe('other');
    expect(formInText('Новый закон принят', 'новый')).toBe('exact');
    expect(formInText('новости дня', 'новый')).toBe('unseen');
  });

  it('does not take the start of a contraction of not for a word, and finds the contraction', () => {
    expect(formInText("We won't go", 'won')).toBe('unseen');
    expect(formInText("We haven't been", 'haven')).toBe('unseen');
    expect(formInText("We won't go, we won", 'won')).toBe('exact');
    expect(formInText('We WON’T go', 'wont')).toBe('exact');
  });

  it('does not take a longer word or another stem for a form', () => {
    expect(formInText('rerunning the numbers', 'running')).toBe('unseen');
    expect(formInText('a runway and a rung', 'running')).toBe('unseen');
    expect(formInText('nothing here', 'running')).toBe('unseen');
  });

  it('reads letters and digits of any script beside a word as part of it', () => {
    expect(formInText('the runningé club', 'running')).toBe('unseen');
    expect(formInText('running2 and run', 'running')).toBe('other');
    expect(formInText('émigré running', 'running')).toBe('exact');
    // A letter outside the BMP (a surrogate pair) before or after the word.
    expect(formInText('𝐀running 𝐀runs', 'running')).toBe('unseen');
    expect(formInText('running𝐀 (runs)', 'running')).toBe('other');
    expect(formInText('', 'running')).toBe('unseen');
    expect(formInText('anything', '')).toBe('unseen');
  });

  it('matches as the definition by regular expressions does, on texts of its edge cases', () => {
    // The definition: the word whole (no letter or digit either side) as a text writes it, not
    // before a contraction's apostrophe; or a whole word of ASCII letters from the stem's start
    // with the same stem, among the first 64 such words.
    const defined = (lowerText: string, word: string): FormMatch => {
      const exact = new RegExp(`(?<![\\p{L}\\p{N}])${writtenTokenPattern(word)}(?![\\p{L}\\p{N}])`, 'gu');
      const stem = stemToken(word);
      const start = escapeRegExp(stem.slice(0, Math.max(2, stem.length - 1)));
      const others = new RegExp(`(?<![\\p{L}\\p{N}])${start}[a-z]*(?![\\p{L}\\p{N}])`, 'gu');
      const whole = (match: RegExpExecArray) => !isNotContraction(lowerText, match.index + match[0].length);
      for (const match of lowerText.matchAll(exact)) if (whole(match)) return 'exact';
      let seen = 0;
      for (const match of lowerText.matchAll(others)) {
        if (whole(match) && stemToken(match[0]) === stem) return 'other';
        if (++seen >= 64) break;
      }
      return 'unseen';
    };
    const words = ['running', 'run', 'wont', 'haven', 'happy', 'died', 'connection', 'cant'];
    const pieces = [
      'running',
      'runs',
      'run',
      'runner',
      'rerun',
      "won't",
      'won’t',
      'wont',
      'won',
      'haven',
      "haven't",
      'happiness',
      'happier',
      'dies',
      'connected',
      'connections',
      'can',
      "can't",
      'cant',
      'é',
      '𝐀',
      '2',
      ' ',
      ' ',
      '-',
      "'",
      '’',
      '.',
      ',',
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    let checked = 0;
    for (let round = 0; round < 1000; round++) {
      const text = Array.from({ length: 1 + next(12) }, () => pieces[next(pieces.length)]).join('');
      for (const word of words) {
        expect([text, word, formMatcher(word)(text)]).toEqual([text, word, defined(text, word)]);
        checked++;
      }
    }
    expect(checked).toBe(8000);
  });
});
