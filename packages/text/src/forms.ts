import { isNotContraction } from './tokenize.js';
import { wordForms } from './word-forms.js';

/** How a text holds a query word: in the exact form, only in other forms of its stem, or neither. */
export type FormMatch = 'exact' | 'other' | 'unseen';

/** Tells how a lower-cased text holds one word (see {@link formMatcher}). */
export type FormMatcher = (lowerText: string) => FormMatch;

/** Other forms looked at per word and text at most (a short stem such as `di` prefixes many words). */
const MAX_OTHER_FORMS = 64;

const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
const ENDS_IN_LETTER_OR_DIGIT = /[\p{L}\p{N}]$/u;
const STARTS_WITH_LETTER_OR_DIGIT = /^[\p{L}\p{N}]/u;

/** Whether the character before `at` is a letter or a digit (a surrogate pair read whole). */
function letterBefore(text: string, at: number): boolean {
  return at > 0 && ENDS_IN_LETTER_OR_DIGIT.test(text.slice(Math.max(0, at - 2), at));
}

/** Whether the character at `at` is a letter or a digit (a surrogate pair read whole). */
function letterAt(text: string, at: number): boolean {
  return at < text.length && STARTS_WITH_LETTER_OR_DIGIT.test(text.slice(at, at + 2));
}

/**
 * How a text holds `word` (a token as `tokenize` gives it): as that word, only as other words with
 * its stem (see `wordForms`: `runs` in a text for the word `running`, `новая` for `новый`), or not
 * at all. Read on the text as written, lower-cased by the caller, without tokenizing it: the word is
 * looked for whole (no letter or digit on either side; for what may be a contraction of `not`,
 * `wont`, also written `won't`), and other forms among the whole words of its script's letters
 * starting with the first letters of its stem. Found by `indexOf`, not by a regular expression of
 * the word: a search re-ranks twenty pages for each of its words, and building and running such an
 * expression (lookbehind and Unicode classes) for each new word cost several times more.
 */
export function formMatcher(word: string): FormMatcher {
  if (word === '') return () => 'unseen';
  // `wont` is also written `won't` / `won’t`: found by `won`, its end read after it.
  const contraction = /[a-z]nt$/.test(word);
  const core = contraction ? word.slice(0, -1) : word;
  const forms = wordForms(word);
  /** The end of the word written at `at` (its `core` there), or -1 when it is not written there. */
  const endAt = (text: string, at: number): number => {
    const end = at + core.length;
    if (!contraction) return end;
    const code = text.charCodeAt(end);
    const t = code === APOSTROPHE || code === RIGHT_QUOTE ? end + 1 : end;
    return text.charCodeAt(t) === 0x74 ? t + 1 : -1;
  };
  // A word followed by the apostrophe of `n't` is that contraction's start (`won` in `won't`).
  const whole = (text: string, at: number, end: number): boolean =>
    !letterBefore(text, at) && !letterAt(text, end) && !isNotContraction(text, end);
  return (lowerText) => {
    for (let at = lowerText.indexOf(core); at >= 0; at = lowerText.indexOf(core, at + 1)) {
      const end = endAt(lowerText, at);
      if (end >= 0 && whole(lowerText, at, end)) return 'exact';
    }
    if (forms === null) return 'unseen';
    const { stem, prefix, stemOf, isLetter } = forms;
    let seen = 0;
    for (let at = lowerText.indexOf(prefix); at >= 0; ) {
      let end = at + prefix.length;
      while (isLetter(lowerText.charCodeAt(end))) end++;
      if (letterBefore(lowerText, at) || letterAt(lowerText, end)) {
        at = lowerText.indexOf(prefix, at + 1);
        continue;
      }
      if (!isNotContraction(lowerText, end) && stemOf(lowerText.slice(at, end)) === stem) return 'other';
      if (++seen >= MAX_OTHER_FORMS) break;
      at = lowerText.indexOf(prefix, end);
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
