import { simplifyHan } from './han-variants.js';
import { foldText } from './tokenize.js';

/**
 * Text folded as tokens are (see `foldText`) for finding query words in it, with the way back to
 * the text as written: a snippet is cut from the page's own text, around the words found in the
 * folded one.
 */
export interface FoldedText {
  readonly text: string;
  /**
   * Where each of the folded text's characters is in the text as written (one more entry, for its
   * end), or null when every character is where it was. A letter folded to two (`ß` → `ss`, `æ` →
   * `ae`, `þ` → `th`) gives both the letter's position.
   */
  readonly origins: Uint32Array | null;
}

/**
 * Characters whose folded form may differ from `toLowerCase` (accents, ligatures, full-width
 * letters and digits, half-width kana). Full-width punctuation is left out: it never belongs to a
 * token, and Chinese and Japanese text is full of it, which would send every such page down the
 * slow path that folds the whole text.
 */
const NEEDS_FOLD = /[\u00c0-\u024f\u0370-\u04ff\u1e00-\u1fff\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff66-\uffdc]/g;

/** Same characters as {@link NEEDS_FOLD}, for a yes/no test. */
export const MAY_NEED_FOLD = new RegExp(NEEDS_FOLD.source);

/**
 * Folds text for matching: lower case, letters with diacritics or full-width forms mapped to their
 * base letters (`é` → `e`, `Ａ` → `a`, `ß` → `ss`), traditional Chinese characters to simplified
 * ones (`學` → `学`). Until 2026-12-07 a letter whose folded form is two (`ß`, `æ`, `œ`, `þ`) was
 * left as written, so that positions stayed the same, and a query word holding it
 * (`Fußgängerzone`, asked as `fussgangerzone`) was never found: its snippet was the page's opening.
 *
 * @example foldWithOrigins('Straße').text // 'strasse' (origins 0 1 2 3 4 4 5, then 6)
 */
export function foldWithOrigins(text: string): FoldedText {
  const lower = text.toLowerCase();
  // Only `İ` lower-cases to two characters; a page holding it is searched as written (as before).
  if (lower.length !== text.length) return { text, origins: null };
  // Traditional Chinese as simplified (as tokens are), unless a character's other form is longer.
  const simplified = simplifyHan(lower);
  const base = simplified.length === lower.length ? simplified : lower;
  // Where a character folds to other than one (offset, then length), in the order met.
  const resized: number[] = [];
  const folded = base.replace(NEEDS_FOLD, (char: string, offset: number) => {
    const form = foldChar(char);
    if (form.length !== 1) resized.push(offset, form.length);
    return form;
  });
  return { text: folded, origins: resized.length === 0 ? null : originsOf(resized, folded.length, text.length) };
}

/** The origins of a folded text (see {@link FoldedText}) from where its characters were resized. */
function originsOf(resized: readonly number[], foldedLength: number, length: number): Uint32Array {
  const origins = new Uint32Array(foldedLength + 1);
  let out = 0;
  let from = 0;
  for (let i = 0; i < resized.length; i += 2) {
    const at = resized[i]!;
    while (from < at) origins[out++] = from++;
    for (let n = resized[i + 1]!; n > 0; n--) origins[out++] = at;
    from = at + 1;
  }
  while (from <= length) origins[out++] = from++;
  return origins;
}

/**
 * The span of the text as written that `[start, end)` of its folded text came from (see
 * {@link foldWithOrigins}): a letter folded to two is covered whole when either is.
 */
export function originalSpan(origins: Uint32Array | null, start: number, end: number): [number, number] {
  if (origins === null) return [start, end];
  const last = origins.length - 1;
  // Past the folded text (a phrase's words counted with spaces between them): as far past the end.
  const over = Math.max(0, end - last);
  const inside = Math.min(end, last);
  const to = inside > start ? origins[inside - 1]! + 1 : origins[Math.min(start, last)]!;
  return [origins[Math.min(start, last)]!, to + over];
}

/** Folded forms of single characters (NFKC and NFD per character are slow; pages repeat them). */
const foldedChars = new Map<string, string>();
const MAX_FOLDED_CHARS = 8192;

function foldChar(char: string): string {
  let folded = foldedChars.get(char);
  if (folded === undefined) {
    folded = foldText(char);
    if (foldedChars.size < MAX_FOLDED_CHARS) foldedChars.set(char, folded);
  }
  return folded;
}
