import { describe, expect, it } from '@jest/globals';
import { segmentsOf } from './segment.js';

const words = new Intl.Segmenter('zh', { granularity: 'word' });
const thai = new Intl.Segmenter('th', { granularity: 'word' });
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** What the segmenter gives for the whole text at once. */
const whole = (segmenter: Intl.Segmenter, text: string) =>
  Array.from(segmenter.segment(text), (s) => ({ segment: s.segment, index: s.index, isWordLike: s.isWordLike }));

describe('segmentsOf', () => {
  it('gives what the segmenter gives for a text within one piece', () => {
    const text = '我们喜欢iPhone手机，今天天气很好。';
    expect([...segmentsOf(words, text)]).toEqual(whole(words, text));
  });

  it('cuts a long Chinese text where a word ends, so its words and their offsets stay the same', () => {
    const text = '中华人民共和国是一个国家，我们今天说北京天气很好。'.repeat(40);
    const pieces = [...segmentsOf(words, text, 64)];
    expect(pieces).toEqual(whole(words, text));
    expect(pieces.map((s) => s.segment).join('')).toBe(text);
  });

  it('cuts Thai, whose vowel signs are marks inside words, between words', () => {
    const text = 'ภาษาไทยเป็นภาษาที่สวยงาม '.repeat(30);
    expect([...segmentsOf(thai, text, 47)]).toEqual(whole(thai, text));
  });

  it('cuts sentences after their end and the space after it', () => {
    const text = 'This is one sentence. And here is another one! Is this a third? '.repeat(20);
    const pieces = [...segmentsOf(sentences, text, 100)];
    expect(pieces).toEqual(whole(sentences, text));
  });

  it('cuts a run with no place to cut at the limit, never inside a surrogate pair', () => {
    const text = '𠀀'.repeat(100); // a Han character outside the BMP, two UTF-16 units each
    const pieces = [...segmentsOf(words, text, 31)];
    expect(pieces.map((s) => s.segment).join('')).toBe(text);
    for (const piece of pieces) {
      expect(piece.segment).toBe(text.slice(piece.index, piece.index + piece.segment.length));
      expect(piece.segment.charCodeAt(0)).not.toBeGreaterThanOrEqual(0xdc00);
    }
  });
});
