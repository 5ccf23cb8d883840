import { describe, expect, it } from '@jest/globals';
import { foldWithOrigins, originalSpan } from './folded.js';
import { tokenize } from './tokenize.js';

/** The text as written that a query token found in its folded text covers. */
const written = (text: string, token: string): string => {
  const { text: folded, origins } = foldWithOrigins(text);
  const at = folded.indexOf(token);
  if (at === -1) return '';
  const [start, end] = originalSpan(origins, at, at + token.length);
  return text.slice(start, end);
};

describe('foldWithOrigins', () => {
  it('folds a letter to two as tokens do, each of the two at the letter', () => {
    expect(foldWithOrigins('Straße')).toEqual({ text: 'strasse', origins: Uint32Array.from([0, 1, 2, 3, 4, 4, 5, 6]) });
    for (const word of ['Urgroßvaters', 'Æsop', 'Œuvre', 'Þingvellir', 'Ærøskøbing']) {
      expect(foldWithOrigins(word).text).toBe(tokenize(word)[0]);
    }
  });

  it('keeps positions where no letter changes length', () => {
    expect(foldWithOrigins('Café Müller ＡＢ 學生')).toEqual({ text: 'cafe muller ab 学生', origins: null });
  });

  it('places a word found in the folded text on the word as written, exactly', () => {
    const text = 'Das Haus meines Urgroßvaters in der Fußgängerzone, Œuvres de Þórr, begrüßt.';
    expect(written(text, 'urgrossvaters')).toBe('Urgroßvaters');
    expect(written(text, 'fussgangerzone')).toBe('Fußgängerzone');
    expect(written(text, 'oeuvres')).toBe('Œuvres');
    expect(written(text, 'thorr')).toBe('Þórr');
    expect(written(text, 'begrusst')).toBe('begrüßt');
    // Half of a folded letter is the letter: the word is covered whole, never half of a character.
    expect(written('Maß', 'mas')).toBe('Maß');
  });

  it('places a span past the end of the text as far past it', () => {
    const { origins } = foldWithOrigins('ßx');
    expect(originalSpan(origins, 0, 5)).toEqual([0, 4]);
  });
});
