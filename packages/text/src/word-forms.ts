import { stemIn, stemToken } from './stem.js';

/**
 * How the other forms of a query word are told apart in a text, without tokenizing it (snippets and
 * the exact-form re-ranking read the text as written): by the stemmer of the word's script, on the
 * words of that script's letters that start with the stem's first letters.
 */
export interface WordForms {
  /** The word's stem. */
  readonly stem: string;
  /** What every other form of the word starts with, as the text writes it (lower case). */
  readonly prefix: string;
  /** The stem of another word of the same letters (lower case, folded as tokens are). */
  readonly stemOf: (word: string) => string;
  /** Whether a UTF-16 code unit is one of the script's letters, in either case. */
  readonly isLetter: (code: number) => boolean;
}

const ENGLISH_WORD = /^[a-z]{3,}$/;
/** Russian words as tokens are folded: lower case, `ё` as `е` (`й` kept). */
const RUSSIAN_WORD = /^[\u0430-\u044f]{3,}$/;

const isAsciiLetter = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
/** А–я, Ё and ё. */
const isCyrillicLetter = (code: number): boolean =>
  (code >= 0x410 && code <= 0x44f) || code === 0x401 || code === 0x451;
const russianStem = (word: string): string => stemIn('ru', word);

/**
 * The forms of a token from `tokenize`: an English word by Porter's stems (a page's language is
 * rarely known where the text is read, and most are English), a Cyrillic one by Snowball's Russian
 * stems. Null for other tokens (numbers, codes, other scripts, words under three letters), which
 * are looked for as typed, and for the rare word whose stem does not start like it.
 *
 * @example wordForms('running')?.stem // 'run'
 * @example wordForms('новый')?.stem // 'нов'
 */
export function wordForms(token: string): WordForms | null {
  if (ENGLISH_WORD.test(token)) {
    const stem = stemToken(token);
    // Porter keeps a word's start but may change its last letter (`happi` for `happy`, `di` for `died`).
    const prefix = stem.slice(0, Math.max(2, stem.length - 1));
    return token.startsWith(prefix) ? { stem, prefix, stemOf: stemToken, isLetter: isAsciiLetter } : null;
  }
  if (RUSSIAN_WORD.test(token)) {
    // Snowball's Russian stemmer only takes endings off.
    const stem = russianStem(token);
    return token.startsWith(stem) ? { stem, prefix: stem, stemOf: russianStem, isLetter: isCyrillicLetter } : null;
  }
  return null;
}
