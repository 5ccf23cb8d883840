/**
 * Text analysis shared by the index and query sides: both must turn text into exactly the same
 * tokens, or a word that is in a page will not be found.
 *
 * Decisions:
 * - NFKC first, so full-width letters, ligatures and compatibility forms match their plain forms.
 * - Case-folded with `toLowerCase` (locale-independent).
 * - Traditional Chinese characters folded to simplified ones (`學` → `学`, see `han-variants.ts`)
 *   in the index's character pairs (`cjk: 'bigrams'`), which every query word also becomes; words
 *   (`cjk: 'words'`) stay as written, since ICU's dictionary knows `東京都` and not `东京都`.
 * - Diacritics are removed from Latin, Greek and Cyrillic letters only (`café` → `cafe`,
 *   `Müller` → `muller`, the marks of U+0300 to U+036F), as most web search engines do, because
 *   users rarely type them. Other scripts' combining marks are vowel signs or kana voicing that
 *   change the word, so they stay.
 * - A token is a run of letters, numbers and combining marks; everything else (punctuation,
 *   symbols, emoji, whitespace) separates tokens and is dropped.
 * - But a contraction of `not` is one word, without its apostrophe (`won't` → `wont`, `isn’t` →
 *   `isnt`), as Unicode's word boundaries (UAX #29) and Lucene's standard tokenizer keep it: split
 *   at the apostrophe, `won't` would be found by `won`, `haven't` by `haven` and `don't` by `don`.
 *   And an English clitic after a word's apostrophe is dropped (`rust's` → `rust`, `you're` →
 *   `you`), as Lucene's English possessive filter drops `'s`: `Rust's` finds `Rust` and a phrase
 *   `"rust ownership"` finds `Rust's ownership`. Other apostrophes still separate (`l'état` → `l`,
 *   `etat`; `o'reilly` → `o`, `reilly`), so an elided French or Italian article does not hide the
 *   word it is written onto.
 * - A one-letter word followed by `++` or `#` keeps them (`C++` → `c++`, `C#` → `c#`, `F#` →
 *   `f#`), so that `c# async` does not find every page with a `c` and `async`; `++` and `#`
 *   elsewhere still separate.
 * - Characters that show nothing (Unicode's default-ignorable code points: soft hyphens, zero-width
 *   spaces and joiners, word joiners, direction marks, variation selectors, byte-order marks) are
 *   removed, inside a word too, as Lucene's `nfkc_cf` folding does: `Bundes&shy;gericht` and
 *   `inter\u200Bnational` are one word, as the reader sees them.
 * - Runs of Han, Hiragana and Katakana are segmented into words with `Intl.Segmenter` (`ja` when
 *   the run contains kana, `zh` otherwise); Hangul runs stay whole (ICU splits Korean at spaces).
 *   Text without any such character never reaches the segmenter. With `cjk: 'bigrams'` all of these
 *   runs become character pairs.
 * - Runs of Thai, Lao, Khmer and Myanmar, also written without spaces between words, are segmented
 *   into words with `Intl.Segmenter` and that script's ICU dictionary, on both sides (the index's
 *   character pairs are for Chinese, Japanese and Korean only).
 */

import { simplifyHan } from './han-variants.js';
import { segmentsOf } from './segment.js';

const ASCII_ONLY = /^[\x00-\x7f]*$/;
// U+30FC (prolonged sound mark) and U+3005 (iteration mark) belong inside Japanese/Chinese words.
// Hangul too: Korean is spaced, but its particles and endings are written onto the word (`서울의`,
// Seoul's), so its runs are indexed as character pairs like Chinese (as Lucene's CJK bigrams do).
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const IGNORABLE_CHAR = /\p{Default_Ignorable_Code_Point}/u;
const IGNORABLE_CHARS = /\p{Default_Ignorable_Code_Point}/gu;
/** Scripts of Southeast Asia written without spaces between words (letters, vowel signs and digits). */
const SEA_CHAR = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
// Letters of the Latin, Greek and Cyrillic blocks that may decompose into base letter + diacritic.
const MAY_HAVE_DIACRITIC = /[\u00c0-\u024f\u0370-\u04ff\u1e00-\u1fff]/;
// Combining Diacritical Marks: the marks Latin, Greek and Cyrillic letters decompose into, but the
// breve of Cyrillic `й` and `ў`, letters of their own (`мой` is not `мои`; Snowball's Russian
// stemmer takes `-ый` off `новый` and leaves `новыи` as it is), kept for NFC to compose again.
const DIACRITIC_MARKS = /(?<![\u0438\u0443])\u0306|[\u0300-\u0305\u0307-\u036f]/g;

const SEPARATOR = 0;
const WORD = 1;
const CJK = 2;
const SEA = 3;
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
/** Shows nothing: left out of a word, and neither starts nor ends one. */
const IGNORABLE = 4;
const UNKNOWN = 255;
/**
 * Character classes of the Basic Multilingual Plane, filled lazily: Unicode property regexes cost
 * about 50 ns per character, a table lookup almost nothing, and tokenizing runs over every page.
 */
const bmpClass = new Uint8Array(0x10000).fill(UNKNOWN);
const astralClass = new Map<number, number>();

function classify(char: string): number {
  // Before the others: variation selectors and the grapheme joiner are marks, a Hangul filler a letter.
  if (IGNORABLE_CHAR.test(char)) return IGNORABLE;
  if (CJK_CHAR.test(char)) return CJK;
  if (SEA_CHAR.test(char) && WORD_CHAR.test(char)) return SEA;
  return WORD_CHAR.test(char) ? WORD : SEPARATOR;
}

function bmpClassOf(code: number): number {
  let cls = bmpClass[code]!;
  if (cls === UNKNOWN) {
    cls = code >= 0xd800 && code <= 0xdfff ? SEPARATOR : classify(String.fromCharCode(code));
    bmpClass[code] = cls;
  }
  return cls;
}

function astralClassOf(codePoint: number): number {
  let cls = astralClass.get(codePoint);
  if (cls === undefined) {
    cls = classify(String.fromCodePoint(codePoint));
    if (astralClass.size < 65_536) astralClass.set(codePoint, cls);
  }
  return cls;
}

for (let code = 0; code < 0x80; code++) {
  const isAlnum = (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  bmpClass[code] = isAlnum ? WORD : SEPARATOR;
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(locale: 'zh' | 'ja' | 'th' | 'lo' | 'km' | 'my'): Intl.Segmenter {
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

/** Whether the text contains a Han, Hiragana, Katakana or Hangul character (indexed as character pairs). */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/**
 * Whether the text contains a script written without spaces between words (Chinese, Japanese,
 * Thai, Lao, Khmer, Myanmar), or Korean, which writes its particles onto its words: a typed run of
 * it is several words, or pairs of characters.
 */
export function hasUnspacedScript(text: string): boolean {
  return CJK_CHAR.test(text) || SEA_CHAR.test(text);
}

/**
 * Normalizes text the way tokens are compared: NFKC, lower case, traditional Chinese characters
 * as simplified ones, diacritics removed from Latin, Greek and Cyrillic letters (`ё` as `е`; `й`
 * and `ў` are letters of their own, kept). Punctuation is
 * kept; use {@link tokenize} to get words.
 */
export function foldText(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return stripDiacritics(simplifyHan(text.normalize('NFKC').toLowerCase()));
}

function stripDiacritics(text: string): string {
  if (!MAY_HAVE_DIACRITIC.test(text)) return text;
  const stripped = text.normalize('NFD').replace(DIACRITIC_MARKS, '').normalize('NFC');
  return LETTER_VARIANT.test(stripped) ? stripped.replace(LETTER_VARIANTS, (c) => LETTER_BASES[c] ?? c) : stripped;
}

/**
 * Latin letters that are a base letter (or two) with a stroke or a ligature, which no Unicode
 * decomposition takes apart, as search engines fold them (Lucene's ASCII folding; Unicode case
 * folding for `ß`): `strasse` finds `Straße`, `lodz` finds `Łódź`, `oresund` finds `Øresund`,
 * `aeroe` finds `Ærø`. Lower case only: they are folded after lower-casing.
 */
const LETTER_BASES: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
};
const LETTER_VARIANTS = new RegExp(`[${Object.keys(LETTER_BASES).join('')}]`, 'g');
const LETTER_VARIANT = new RegExp(LETTER_VARIANTS.source);

/** Options of {@link tokenize}. */
export interface TokenizeOptions {
  /**
   * How runs of Han, Hiragana and Katakana become tokens: `'words'` segments them into words with
   * `Intl.Segmenter` (about a microsecond per character); `'bigrams'` emits every pair of adjacent
   * characters followed by the run's last character alone, at a hundredth of the cost, for an
   * index that finds any character sequence (see {@link bigramQueryTokens} for the query side).
   * @defaultValue 'words'
   */
  readonly cjk?: 'words' | 'bigrams';
}

/**
 * Splits text into normalized search tokens (see the module comment for the rules).
 *
 * @example tokenize('Café re:Invent 2024 🎉') // ['cafe', 're', 'invent', '2024']
 * @example tokenize('搜索引擎') // ['搜索', '引擎']
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const segment = options.cjk === 'bigrams' ? pushBigrams : segmentCjk;
  const ascii = ASCII_ONLY.test(text);
  const folded = ascii ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
  const tokens: string[] = [];
  const length = folded.length;
  let start = -1;
  let runHasCjk = false;
  let runHasSea = false;
  let runIsAscii = true;
  let runHasIgnorable = false;
  let runHasContraction = false;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? folded.charCodeAt(i) : 0x20;
    let cls: number;
    let width = 1;
    if (code < 0x80) cls = bmpClass[code]!;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      cls = astralClassOf(folded.codePointAt(i)!);
      width = 2;
    } else cls = bmpClassOf(code);
    if (cls === IGNORABLE) {
      if (start !== -1) runHasIgnorable = true;
      i += width - 1;
    } else if (cls !== SEPARATOR) {
      if (start === -1) {
        start = i;
        runHasCjk = false;
        runHasSea = false;
        runIsAscii = true;
        runHasIgnorable = false;
        runHasContraction = false;
      }
      if (code >= 0x80) runIsAscii = false;
      if (cls === CJK) runHasCjk = true;
      else if (cls === SEA) runHasSea = true;
      i += width - 1;
    } else if (start !== -1 && isNotContraction(folded, i)) {
      runHasContraction = true;
    } else if (start !== -1) {
      // `c++`, `c#`: the symbols are part of a one-letter word (a language's name, not the letter).
      const symbols = i - start === 1 ? symbolSuffixLength(folded, start, i) : 0;
      let word = folded.slice(start, i + symbols);
      if (runHasIgnorable) word = word.replace(IGNORABLE_CHARS, '');
      if (runHasContraction) word = word.replace(APOSTROPHES, '');
      if (runHasCjk || runHasSea) pushMixed(tokens, word, segment);
      else tokens.push(runIsAscii ? word : stripDiacritics(word));
      start = -1;
      i += symbols > 0 ? symbols - 1 : cliticLength(folded, i);
    }
  }
  return tokens;
}

const APOSTROPHES = /['\u2019]/g;

/**
 * Whether the character at `at` in `text` is the apostrophe of a contraction of `not` (see
 * {@link tokenize}): `'` or `’` after an `n` that follows a letter (`won't`, `isn’t`, not `n't`
 * alone) and before a `t` that ends the word. ASCII letters in either case, so the text as written
 * may be asked: the word ending at `at` then goes on to its `t`.
 */
export function isNotContraction(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code !== APOSTROPHE && code !== RIGHT_QUOTE) return false;
  if ((text.charCodeAt(at - 1) | 0x20) !== 0x6e || (text.charCodeAt(at + 1) | 0x20) !== 0x74) return false;
  const before = text.charCodeAt(at - 2) | 0x20;
  if (!(before >= 0x61 && before <= 0x7a)) return false;
  const after = text.charCodeAt(at + 2);
  return Number.isNaN(after) || bmpClassOf(after) === SEPARATOR;
}

/**
 * How many characters from `at` in lower-cased `text` are `++` or `#` written onto the one-letter
 * word at `start` (`c++`, `c#`, `f#`, `g++`), so that the word is that language (or note), not the
 * letter; 0 when there are none, or when a letter or more of the symbols follows them (`c#x`,
 * `c+++`). A number may follow: `c++17` is `c++` and `17`.
 */
function symbolSuffixLength(text: string, start: number, at: number): number {
  const letter = text.charCodeAt(start);
  if (!(letter >= 0x61 && letter <= 0x7a)) return 0;
  const length = text.startsWith('++', at) ? 2 : text.charCodeAt(at) === 0x23 ? 1 : 0;
  if (length === 0) return 0;
  const after = text.charCodeAt(at + length);
  const blocked = (after >= 0x61 && after <= 0x7a) || after === 0x2b || after === 0x23;
  return blocked ? 0 : length;
}

/** English clitics written onto a word after an apostrophe (`rust's`, `you're`, `I'm`), lower-cased. */
const CLITIC = /^['\u2019](?:s|re|ve|ll|d|m)(?![\p{L}\p{N}\p{M}])/u;

/**
 * How many characters from `at` in lower-cased `text`, where a word ends, are an English clitic
 * with its apostrophe (`'s` of `rust's`, `’re` of `you’re`), which is then no word of its own; 0
 * when there is none. Lucene's English analyzer drops the possessive the same way.
 */
function cliticLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code !== APOSTROPHE && code !== RIGHT_QUOTE) return 0;
  return CLITIC.exec(text.slice(at, at + 4))?.[0].length ?? 0;
}

/**
 * What may follow a word before the next in a text: the source of a regular expression matching an
 * English clitic with its apostrophe (`'s`, `’re`; see {@link tokenize}), without flags; a caller
 * makes it optional before the gap it allows between words.
 */
export const CLITIC_PATTERN = "['\u2019](?:s|re|ve|ll|d|m)";

/**
 * A regular expression's source that finds `token` (as {@link tokenize} gives it) as a text writes
 * it: the token, or for what may be a contraction of `not` also with its apostrophe (`wont`:
 * `won't`, `won’t`). Without flags or bounds: the caller adds them.
 */
export function writtenTokenPattern(token: string): string {
  const literal = escapeRegExp(token);
  return /[a-z]nt$/.test(token) ? `${literal.slice(0, -1)}['\u2019]?t` : literal;
}

/** `text` as a regular expression's source that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A run of CJK characters (group 1) or of one Southeast Asian script's letters, marks and digits. */
const UNSPACED_RUN =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]+)|[\p{Script=Thai}]+|[\p{Script=Lao}]+|[\p{Script=Khmer}]+|[\p{Script=Myanmar}]+/gu;

function pushMixed(tokens: string[], word: string, segment: (tokens: string[], run: string) => void): void {
  let last = 0;
  for (const run of word.matchAll(UNSPACED_RUN)) {
    if (run.index > last) tokens.push(stripDiacritics(word.slice(last, run.index)));
    if (run[1] !== undefined) segment(tokens, run[0]);
    else segmentSea(tokens, run[0]);
    last = run.index + run[0].length;
  }
  if (last < word.length) tokens.push(stripDiacritics(word.slice(last)));
}

const SEA_LOCALES = [
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Lao}/u, 'lo'],
  [/\p{Script=Khmer}/u, 'km'],
] as const;

/** A run of Thai, Lao, Khmer or Myanmar as the words of its script's dictionary. */
function segmentSea(tokens: string[], run: string): void {
  const locale = SEA_LOCALES.find(([script]) => script.test(run))?.[1] ?? 'my';
  for (const segment of segmentsOf(segmenterFor(locale), run)) {
    if (segment.isWordLike) tokens.push(segment.segment);
  }
}

function segmentCjk(tokens: string[], run: string): void {
  const segmenter = segmenterFor(KANA.test(run) ? 'ja' : 'zh');
  for (const segment of segmentsOf(segmenter, run)) {
    if (segment.isWordLike) tokens.push(segment.segment);
  }
}

/**
 * Overlapping character pairs of a CJK run, then its last character alone (`北京天气` →
 * `北京 京天 天气 气`; a one-character run is that character), traditional characters as simplified
 * ones. Astral characters count as one.
 */
function pushBigrams(tokens: string[], run: string): void {
  const chars = Array.from(simplifyHan(run));
  for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
  tokens.push(chars.at(-1)!);
}

/** Code point ranges a pair of a Han or kana character may end in (see {@link pairsBeginningWith}). */
const HAN_KANA_RANGES: readonly (readonly [number, number])[] = [
  [0x3005, 0x3005], // 々
  [0x3041, 0x30ff], // Hiragana, Katakana, ー
  [0x4e00, 0x9fff], // CJK Unified Ideographs
];
/** Code point ranges a pair of a Hangul syllable may end in. */
const HANGUL_RANGES: readonly (readonly [number, number])[] = [[0xac00, 0xd7a3]];
const HANGUL = /\p{Script=Hangul}/u;

/**
 * Every token an index built with `tokenize(text, { cjk: 'bigrams' })` may hold for the places a
 * character is written: the character alone (where a run ends) and each pair it begins, which for a
 * Han or kana character is followed by a kana character or a CJK Unified Ideograph, and for a Hangul
 * syllable by a Hangul syllable (about 21,000 and 11,000 tokens). A pair ending in any other
 * character (an ideograph of an extension block, Hangul after Han) is not among them: asking each
 * token costs the engine about 1.7 µs, and Extension A alone would add 6,592 rare ones.
 *
 * @example pairsBeginningWith('猫').slice(0, 3) // ['猫', '猫々', '猫ぁ']
 */
export function pairsBeginningWith(char: string): string[] {
  const tokens = [char];
  for (const [from, to] of HANGUL.test(char) ? HANGUL_RANGES : HAN_KANA_RANGES) {
    for (let code = from; code <= to; code++) tokens.push(char + String.fromCharCode(code));
  }
  return tokens;
}

/** What {@link bigramQueryTokens} returns. */
export interface BigramQueryTokens {
  readonly tokens: string[];
  /** The last token is a single CJK character that may begin a longer run: match it as a prefix. */
  readonly lastIsPrefix: boolean;
}

/**
 * Query tokens for an index built with `tokenize(text, { cjk: 'bigrams' })`: the same tokens, so
 * that, matched as a phrase, they find the text's character sequence anywhere in a run. Only the end
 * differs: the lone last character of a final run (which the index has only where a run ends) is
 * dropped after its pair, and a final one-character run is a prefix of whatever pair follows it.
 *
 * @example bigramQueryTokens('北京天气') // { tokens: ['北京', '京天', '天气'], lastIsPrefix: false }
 * @example bigramQueryTokens('猫') // { tokens: ['猫'], lastIsPrefix: true }
 */
export function bigramQueryTokens(text: string): BigramQueryTokens {
  const tokens = tokenize(text, { cjk: 'bigrams' });
  const last = tokens.at(-1);
  if (last === undefined || !hasCjk(last) || Array.from(last).length !== 1) return { tokens, lastIsPrefix: false };
  const previous = tokens.at(-2);
  if (previous !== undefined && Array.from(previous).length === 2 && previous.endsWith(last) && hasCjk(previous)) {
    return { tokens: tokens.slice(0, -1), lastIsPrefix: false };
  }
  return { tokens, lastIsPrefix: true };
}
