import { indexTokens } from './stem.js';
import { hasUnspacedScript, tokenize } from './tokenize.js';

/** A word of two parts joined by a hyphen (`e-mail`, `wi-fi`, `covid-19`); a hyphen that cannot break too. */
const HYPHENATED = /^([\p{L}\p{N}\p{M}]+)[-\u2010\u2011]([\p{L}\p{N}\p{M}]+)$/u;
const LETTER = /\p{L}/u;

const HYPHENS = /[-\u2010\u2011]/g;
const HYPHEN_CHARS = '-\u2010\u2011';
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** What a number in a query may be wrapped in (`$10,000`, `(10.000)`): all but letters, numbers and marks. */
const EDGES = /^[^\p{L}\p{N}\p{M}]+|[^\p{L}\p{N}\p{M}]+$/gu;

/**
 * A number written in groups of three digits (`10,000`, `1.000.000`, `10 000` with a space, as SI
 * and French write it, non-breaking or thin too, `1'000`), one separator throughout, or in India's
 * groups (`1,00,000`); never with a leading zero (`0.500` is a decimal). Not a digit, letter or
 * grouped number's part before it (`v1.234.567`, `1.2.345`), nor after it (a group of four
 * digits); a decimal part may follow (`10,000.50`, `1.000,50`).
 */
const GROUPED_NUMBER =
  /(?=\d)(?<![\p{L}\p{N}\p{M}])(?<!\d[,.'\u2019 \u00a0\u202f\u2009])(?:[1-9]\d{0,2}([,.'\u2019 \u00a0\u202f\u2009])\d{3}(?:\1\d{3})*|[1-9]\d?(?:(,)\d{2})*,\d{2},\d{3})(?![\p{L}\p{N}\p{M}]|\1\d|\2\d)/gu;
/** A text that may hold a grouped number: a digit, a separator, then a digit. */
const MAY_GROUP = /\d[,.'\u2019 \u00a0\u202f\u2009]\d/;
const SEPARATORS = /[,.'\u2019 \u00a0\u202f\u2009]/g;

/** A word of a text also written as one: where it starts and ends, and its joined spelling. */
export interface JoinedSpelling {
  readonly start: number;
  readonly end: number;
  readonly joined: string;
}

/**
 * The index tokens of the joined words of the text's hyphenated words (`COVID-19` → `covid19`,
 * `e-mails` → `email` on an English page) and of its grouped numbers (`10,000` → `10000`), one per
 * occurrence: the index holds them after the text's own tokens, so that `covid19`, `ebook` and
 * `10000` find pages writing `COVID-19`, `e-book` and `10,000`, as Lucene's word delimiter filter
 * indexes both spellings (`catenate_words`, `catenate_numbers`).
 */
export function joinedTokens(text: string, lang: string): string[] {
  const tokens: string[] = [];
  for (const { joined } of joinedIn(text)) tokens.push(...indexTokens(joined, lang));
  return tokens;
}

/** The words of `text` that are also written as one (see {@link joinedWord}): where each starts, and its joined spelling. */
export function joinedIn(text: string): JoinedSpelling[] {
  const numbers = groupedNumbersIn(text);
  const hyphenated = hyphenatedIn(text);
  if (numbers.length === 0) return hyphenated;
  if (hyphenated.length === 0) return numbers;
  return [...hyphenated, ...numbers].sort((a, b) => a.start - b.start);
}

/** The grouped numbers of `text` (see {@link GROUPED_NUMBER}): where each starts, and its digits. */
export function groupedNumbersIn(text: string): JoinedSpelling[] {
  if (!MAY_GROUP.test(text)) return [];
  const found: JoinedSpelling[] = [];
  for (const match of text.matchAll(GROUPED_NUMBER)) {
    const start = match.index;
    found.push({ start, end: start + match[0].length, joined: match[0].replace(SEPARATORS, '') });
  }
  return found;
}

/**
 * The words of two hyphen-joined parts in `text` (see {@link joinedWord}): where each starts, and its
 * parts joined; with `lengths`, only those whose joined word is of one of these lengths (what a
 * search for some words needs: the others are not read).
 */
export function hyphenatedIn(text: string, lengths?: ReadonlySet<number>): JoinedSpelling[] {
  const found: JoinedSpelling[] = [];
  // From each hyphen out to the word's ends: hyphens are few, and a pattern run over the whole
  // text cost more than tokenizing it.
  const hyphens = HYPHENS;
  hyphens.lastIndex = 0;
  const isWord = (at: number) => at >= 0 && at < text.length && WORD_CHAR.test(text[at]!);
  const isHyphen = (at: number) => at >= 0 && at < text.length && HYPHEN_CHARS.includes(text[at]!);
  for (let match = hyphens.exec(text); match !== null; match = hyphens.exec(text)) {
    const at = match.index;
    let start = at;
    while (isWord(start - 1)) start--;
    let end = at + 1;
    while (isWord(end)) end++;
    hyphens.lastIndex = Math.max(hyphens.lastIndex, end);
    // Two parts, not a chain (`state-of-the-art`) nor a dash (`- x`, `x -`).
    if (start === at || end === at + 1 || isHyphen(start - 1) || (isHyphen(end) && isWord(end + 1))) continue;
    if (lengths && !lengths.has(end - start - 1)) continue;
    const joined = joinedWord(text.slice(start, end));
    if (joined !== null) found.push({ start, end, joined });
  }
  return found;
}

/**
 * The one word a query word is also written as, or null: the parts of a hyphenated word together
 * (`e-mail` → `email`, `on-line` → `online`, `wi-fi` → `wifi`), a grouped number's digits (`10,000`
 * → `10000`, `$1.000.000` → `1000000`). Parts of digits only (`2020-21`) are a range, not a word;
 * runs of Chinese, Japanese and Southeast Asian scripts are segmented apart. A currency sign or
 * punctuation around a number is not part of it (`$10,000`, `(10.000)`); around a hyphenated word
 * it is (`heat-transfer?` stays its parts: a question's last word so joined lost Cranfield's
 * nDCG@10 0.003, its pages writing `heat transfer` apart).
 */
export function joinedWord(text: string): string | null {
  if (MAY_GROUP.test(text)) {
    const bare = text.replace(EDGES, '');
    const [number, more] = groupedNumbersIn(bare);
    if (number && !more && number.start === 0 && number.end === bare.length) return number.joined;
  }
  const parts = HYPHENATED.exec(text);
  if (!parts || !LETTER.test(text) || hasUnspacedScript(text)) return null;
  const joined = `${parts[1]}${parts[2]}`;
  return tokenize(joined).length === 1 ? joined : null;
}
