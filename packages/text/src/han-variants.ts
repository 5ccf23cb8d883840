/**
 * Traditional Chinese characters folded to their simplified forms, one character for one (OpenCC's
 * `TSCharacters`, through `opencc-js`), on both the index and the query side: `學生` finds `学生` and
 * `学生` finds `學生`, as Algolia and Meilisearch's tokenizer (its kvariants) fold them. Phrase tables
 * (`TSPhrases`) are left out: which simplified character an ambiguous traditional one becomes
 * matters for display, not for matching, as long as both sides fold alike. A character that both
 * scripts write (`著`, `后`) is left as it is.
 */

import { to } from 'opencc-js/preset/t2cn';

/** Simplified code unit by traditional one, 0 for none (a table: tokenizing looks up every character). */
const SIMPLIFIED_UNITS = new Uint16Array(0x10000);
/** The few pairs with a character outside the Basic Multilingual Plane. */
const SIMPLIFIED_ASTRAL = new Map<string, string>();
/** In {@link SIMPLIFIED_UNITS}: the character's simplified form is in {@link SIMPLIFIED_ASTRAL}. */
const IN_ASTRAL = 0xffff;
let folded = 0;
for (const group of to.cn ?? []) {
  for (const dict of group) {
    // The character table: pairs of one character each (the phrase table's keys are longer).
    if (typeof dict !== 'string') continue;
    for (const entry of dict.split('|')) {
      const [traditional, simplified] = entry.split(' ');
      if (traditional === undefined || simplified === undefined || traditional === simplified) continue;
      if (Array.from(traditional).length !== 1 || Array.from(simplified).length !== 1) continue;
      folded++;
      if (traditional.length === 1) SIMPLIFIED_UNITS[traditional.charCodeAt(0)] = IN_ASTRAL;
      if (traditional.length === 1 && simplified.length === 1) {
        SIMPLIFIED_UNITS[traditional.charCodeAt(0)] = simplified.charCodeAt(0);
      } else SIMPLIFIED_ASTRAL.set(traditional, simplified);
    }
  }
}

/** Where the first traditional Chinese character is, or -1. */
function firstTraditional(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // Outside the Basic Multilingual Plane (CJK Extension B, and emoji): looked up as a pair.
      if (SIMPLIFIED_ASTRAL.has(text.slice(i, i + 2))) return i;
      i++;
    } else if (SIMPLIFIED_UNITS[unit] !== 0) return i;
  }
  return -1;
}

/** Whether the text holds a traditional Chinese character that {@link simplifyHan} changes. */
export function holdsTraditional(text: string): boolean {
  return firstTraditional(text) !== -1;
}

/** The text with each traditional Chinese character replaced by its simplified form. */
export function simplifyHan(text: string): string {
  const i = firstTraditional(text);
  if (i === -1) return text;
  let out = text.slice(0, i);
  for (const char of text.slice(i)) {
    const unit = char.length === 1 ? SIMPLIFIED_UNITS[char.charCodeAt(0)]! : IN_ASTRAL;
    out += unit === 0 ? char : unit === IN_ASTRAL ? (SIMPLIFIED_ASTRAL.get(char) ?? char) : String.fromCharCode(unit);
  }
  return out;
}

/** How many traditional characters are folded (for tests). */
export const SIMPLIFIED_CHARACTERS = folded;
