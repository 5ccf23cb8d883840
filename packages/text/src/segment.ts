/**
 * The longest piece of text given to `Intl.Segmenter` at once. ICU's break iterators slow down
 * sharply on longer strings: on Node 20, 70,000 characters of Chinese took 3.8 s to split into
 * words where 60,000 took 0.16 s (Thai 1.8 s against 0.07 s; sentences of Chinese 0.43 s against
 * 0.02 s), and below that the time still grows faster than the length.
 */
export const MAX_SEGMENT_CHARS = 8_192;

/** One segment of a text, as `Intl.Segmenter` gives it; `index` is its offset in the whole text. */
export interface TextSegment {
  readonly segment: string;
  readonly index: number;
  readonly isWordLike: boolean | undefined;
}

/** What ends a piece: a character no word continues past, or a sentence's end and the space after it. */
const WORD_BOUNDARY = /[^\p{L}\p{M}\p{N}]/u;
const SENTENCE_END = /[.!?。！？…]/u;

/**
 * The segments `segmenter.segment(text)` yields, read in pieces of at most `maxChars` characters
 * (see {@link MAX_SEGMENT_CHARS}), so that a long text costs time in proportion to its length. A
 * piece ends where the segmenter would break anyway: for words after a character that is neither a
 * letter, a mark nor a digit, for sentences after a sentence's end and the whitespace after it
 * (else after whitespace). Only a run with no such place in half a piece is cut at the limit.
 *
 * @example [...segmentsOf(new Intl.Segmenter('zh', { granularity: 'word' }), text)].filter((s) => s.isWordLike)
 */
export function* segmentsOf(
  segmenter: Intl.Segmenter,
  text: string,
  maxChars = MAX_SEGMENT_CHARS,
): Generator<TextSegment> {
  const sentences = segmenter.resolvedOptions().granularity === 'sentence';
  let start = 0;
  while (start < text.length) {
    const end = text.length - start <= maxChars ? text.length : pieceEnd(text, start, maxChars, sentences);
    for (const s of segmenter.segment(text.slice(start, end))) {
      yield { segment: s.segment, index: start + s.index, isWordLike: s.isWordLike };
    }
    start = end;
  }
}

/** Where the piece that starts at `start` ends (exclusive), at most `maxChars` on. */
function pieceEnd(text: string, start: number, maxChars: number, sentences: boolean): number {
  const limit = start + maxChars;
  const floor = start + Math.floor(maxChars / 2);
  if (sentences) {
    for (let i = limit - 1; i > floor; i--) {
      if (/\s/.test(text[i] ?? '') && SENTENCE_END.test(text[i - 1] ?? '')) return i + 1;
      if (/[。！？]/.test(text[i - 1] ?? '')) return i;
    }
    for (let i = limit - 1; i > floor; i--) if (/\s/.test(text[i] ?? '')) return i + 1;
  } else {
    for (let i = limit - 1; i > floor; i--) {
      const code = text.charCodeAt(i);
      // Never between the two halves of a character written as a surrogate pair.
      if (code >= 0xdc00 && code <= 0xdfff) continue;
      if (WORD_BOUNDARY.test(text[i] ?? '') && !(code >= 0xd800 && code <= 0xdbff)) return i + 1;
    }
  }
  const code = text.charCodeAt(limit);
  return code >= 0xdc00 && code <= 0xdfff ? limit - 1 : limit;
}
