import { segmentsOf } from '@quarry/text';

/**
 * Scripts written without spaces between words. Text in them is split with `Intl.Segmenter`;
 * everything else counts whitespace-separated words.
 */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

let segmenter: Intl.Segmenter | undefined;

/**
 * Counts the words of a plain text.
 *
 * - Space-delimited scripts (Latin, Cyrillic, Greek, Arabic, Hangul, ...): each
 *   whitespace-separated token that holds at least one letter or digit is one word, so stray
 *   punctuation (`—`, `|`) is not counted.
 * - Chinese, Japanese, Thai, Lao, Khmer and Myanmar: a token holding such characters is split with
 *   `Intl.Segmenter` (ICU's dictionary word breaking) and each word-like segment is one word, so
 *   `我们喜欢iPhone手机` counts 4 (我们 / 喜欢 / iPhone / 手机).
 *
 * Text without any of those scripts takes a fast path that never builds a segmenter.
 *
 * @example countWords('Hello, world — again') // 3
 */
export function countWords(text: string): number {
  if (!UNSPACED_SCRIPT.test(text)) return countSpaced(text);
  let count = 0;
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    if (UNSPACED_SCRIPT.test(token)) count += countSegmented(token);
    else if (HAS_WORD_CHAR.test(token)) count += 1;
  }
  return count;
}

function countSpaced(text: string): number {
  let count = 0;
  for (const token of text.split(/\s+/)) if (HAS_WORD_CHAR.test(token)) count += 1;
  return count;
}

function countSegmented(token: string): number {
  // 'zh' picks ICU's CJK dictionary, which also covers Japanese; Thai and the others have their own.
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  let count = 0;
  for (const segment of segmentsOf(segmenter, token)) if (segment.isWordLike) count += 1;
  return count;
}
