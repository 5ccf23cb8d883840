import { countTokens } from './tokens.js';

/** Characters that start nothing: they belong to the character before them. */
const ATTACHED = /^[\p{M}\p{Emoji_Modifier}\u200c\u200d]/u;
/** Scripts written without spaces between words: a portion may start at any of their characters. */
const UNSPACED =
  /^[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Thai}\p{Script_Extensions=Lao}\p{Script_Extensions=Khmer}\p{Script_Extensions=Myanmar}]/u;
const NON_SPACE = /\S/g;
/**
 * Characters of a word measured to tell whether it is long: the tokenizer takes time as the square
 * of a word's length (100,000 letters took 9 s), and this many are long for any budget from 16
 * tokens (1,024 dashes take 16 tokens, as many letters 128).
 */
const WORD_MEASURE_CHARS = 1_024;

/**
 * Where portions of one text may start: where a word (a run of characters other than whitespace,
 * as `windowAround` reads them) starts, next to a character of a script written without spaces, or
 * anywhere in a word of `longWordTokens` tokens or more, which is read in pieces; never inside a
 * character, before a mark that belongs to the character before it, or at whitespace. A portion
 * ends where the next may start, so a portion asked from where the last one ended starts there.
 */
export class PortionStarts {
  readonly #text: string;
  readonly #longWordTokens: number;
  /** The last word measured: a search inside a long word asks about it again and again. */
  #word = { from: 0, to: 0, long: false };

  constructor(text: string, longWordTokens: number) {
    this.#text = text;
    this.#longWordTokens = longWordTokens;
  }

  /** Whether a portion may start at `at` (0 and the text's end included). */
  isStart(at: number): boolean {
    const text = this.#text;
    if (at <= 0 || at >= text.length) return true;
    const next = charAt(text, at);
    if (/^\s/u.test(next) || ATTACHED.test(next) || splitsSurrogatePair(text, at)) return false;
    const previous = charBefore(text, at);
    if (/^\s/u.test(previous) || UNSPACED.test(previous) || UNSPACED.test(next)) return true;
    return this.#isInLongWord(at);
  }

  /** The first offset at or after `at` where a portion may start. */
  from(at: number): number {
    let start = at;
    while (!this.isStart(start)) {
      NON_SPACE.lastIndex = start + 1;
      start = /\s/.test(this.#text[start]!) ? (NON_SPACE.exec(this.#text)?.index ?? this.#text.length) : start + 1;
    }
    return start;
  }

  #isInLongWord(at: number): boolean {
    const text = this.#text;
    if (at <= this.#word.from || at >= this.#word.to) {
      let from = at;
      while (from > 0 && !/\s/.test(text[from - 1]!)) from--;
      let to = at;
      while (to < text.length && !/\s/.test(text[to]!)) to++;
      const measured = text.slice(from, Math.min(to, from + WORD_MEASURE_CHARS));
      // A word of as many tokens as the budget is long too: with the whitespace after it, it does not fit.
      this.#word = { from, to, long: countTokens(measured) >= this.#longWordTokens };
    }
    return this.#word.long;
  }
}

/** The character (code point) starting at `at`; '' at the end. */
function charAt(text: string, at: number): string {
  return /^./su.exec(text.slice(at, at + 2))?.[0] ?? '';
}

/** The character (code point) ending at `at`; '' at the start. */
function charBefore(text: string, at: number): string {
  return /.$/su.exec(text.slice(Math.max(0, at - 2), at))?.[0] ?? '';
}

function splitsSurrogatePair(text: string, at: number): boolean {
  return /^[\ud800-\udbff][\udc00-\udfff]$/.test(text.slice(at - 1, at + 1));
}
