import { stemToken } from './stem.js';
import { escapeRegExp, isNotContraction, writtenTokenPattern } from './tokenize.js';

/** How a text holds a query word: in the exact form, only in other forms of its stem, or neither. */
export type FormMatch = 'exact' | 'other' | 'unseen';

/** Tells how a lower-cased text holds one word (see {@link formMatcher}). */
export type FormMatcher = (lowerText: string) => FormMatch;

/** Other forms looked at per word and text at most (a short stem such as `di` prefixes many words). */
const MAX_OTHER_FORMS = 64;

/**
 * How a text holds `word` (a lower-case ASCII word, as `tokenize` gives it): as that word, only as
 * other words with its English stem (`runs` in a text for the word `running`), or not at all. Read
 * on the text as written, lower-cased by the caller, without tokenizing it: the word is looked for
 * whole, and other forms among the words starting with the first letters of its stem (Porter keeps
 * a word's start, but for a last letter: `happi` for `happy`, `di` for `died`). The patterns are
 * built once, for every text the matcher reads.
 */
export function formMatcher(word: string): FormMatcher {
  const exact = new RegExp(`(?<![\\p{L}\\p{N}])${writtenTokenPattern(word)}(?![\\p{L}\\p{N}])`, 'gu');
  const stem = stemToken(word);
  const start = escapeRegExp(stem.slice(0, Math.max(2, stem.length - 1)));
  const others = new RegExp(`(?<![\\p{L}\\p{N}])${start}[a-z]*(?![\\p{L}\\p{N}])`, 'gu');
  // `won` in `won't` is not the word `won` (see tokenize).
  const whole = (text: string, match: RegExpExecArray) => !isNotContraction(text, match.index + match[0].length);
  return (lowerText) => {
    for (const match of lowerText.matchAll(exact)) if (whole(lowerText, match)) return 'exact';
    let seen = 0;
    for (const match of lowerText.matchAll(others)) {
      if (whole(lowerText, match) && stemToken(match[0]) === stem) return 'other';
      if (++seen >= MAX_OTHER_FORMS) break;
    }
    return 'unseen';
  };
}

/**
 * {@link formMatcher} for one word and one text (case-insensitive).
 *
 * @example formInText('She runs daily', 'running') // 'other'
 */
export function formInText(text: string, word: string): FormMatch {
  return formMatcher(word)(text.toLowerCase());
}
