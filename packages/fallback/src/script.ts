/**
 * Whether a provider's title and snippet can be in a language, by the script they are written in:
 * the check a hard `lang` filter makes of a hit the provider gives no language for. Languages of
 * one script are not told apart (English and German, Chinese and Japanese kanji): a snippet is too
 * short for that, and the provider was asked for the language.
 */

/** Scripts that tell a language apart from those written in others, with the languages written in each. */
const SCRIPTS: ReadonlyArray<readonly [RegExp, ReadonlySet<string>]> = [
  [/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, new Set(['zh', 'ja'])],
  [/\p{Script=Hangul}/u, new Set(['ko'])],
  [/\p{Script=Cyrillic}/u, new Set(['ru', 'uk', 'bg', 'be', 'kk', 'mk', 'sr', 'ky', 'tg', 'mn'])],
  [/\p{Script=Arabic}/u, new Set(['ar', 'fa', 'ur', 'ps', 'ku', 'sd', 'ug'])],
  [/\p{Script=Hebrew}/u, new Set(['he', 'yi'])],
  [/\p{Script=Greek}/u, new Set(['el'])],
  [/\p{Script=Thai}/u, new Set(['th'])],
  [/\p{Script=Devanagari}/u, new Set(['hi', 'mr', 'ne', 'sa'])],
];
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;
/** Fewer letters than this say too little to contradict the provider. */
const MIN_LETTERS = 20;
/**
 * Except characters of these scripts, each about a word (`中文标题` is two): this many of them
 * say as much as {@link MIN_LETTERS} Latin letters do (four words or so).
 */
const MIN_WORD_CHARACTERS = 6;
const WORD_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** The share of a text's letters its script must have. */
const DOMINANT_SHARE = 0.6;

/** Languages written in a script {@link SCRIPTS} lists: a Latin text is not theirs. */
const NON_LATIN = new Set(SCRIPTS.flatMap(([, langs]) => [...langs]));

/**
 * False when `text` is plainly written in a script `lang` is not written in (a Latin title for
 * `zh`, a Chinese one for `en`); true otherwise, also when the text is short (under 20 letters,
 * or 6 Chinese, Japanese or Korean characters) or mixed.
 */
export function mayBeInLanguage(text: string, lang: string): boolean {
  const counts = new Array<number>(SCRIPTS.length).fill(0);
  let latin = 0;
  let letters = 0;
  let wordCharacters = 0;
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    letters++;
    if (WORD_CHARACTER.test(char)) wordCharacters++;
    if (LATIN.test(char)) {
      latin++;
      continue;
    }
    const at = SCRIPTS.findIndex(([pattern]) => pattern.test(char));
    if (at >= 0) counts[at]!++;
  }
  if (letters < MIN_LETTERS && wordCharacters < MIN_WORD_CHARACTERS) return true;
  if (latin / letters >= DOMINANT_SHARE) return !NON_LATIN.has(lang);
  const at = counts.findIndex((count) => count / letters >= DOMINANT_SHARE);
  return at < 0 || SCRIPTS[at]![1].has(lang);
}
