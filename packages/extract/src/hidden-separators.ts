import { BLOCK } from './text.js';

/** A letter or a digit: a hidden element holding one is a word or a copy, not a separator. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** How many inline elements up a separator's neighbour is looked for. */
const MAX_DEPTH = 4;

/**
 * Leaves a space where a separator hidden from assistive technology stands between two words
 * (edits the document): `<span>Nov 7, 2025</span><span aria-hidden="true">·</span><span>11 min
 * read</span>`. Hidden elements are removed as decoration, and the words on either side then ran
 * together (`Nov 7, 202511 min read`, found dogfooding a Medium post). Only an inline element whose
 * text has no letter or digit (a dot, a bar, an icon) counts; returns how many were spaced.
 */
export function spaceHiddenSeparators(elements: readonly Element[]): number {
  let spaced = 0;
  for (const el of elements) {
    if (el.getAttribute('aria-hidden') !== 'true' || BLOCK.has(el.localName.toLowerCase())) continue;
    if (WORD_CHAR.test(el.textContent ?? '')) continue;
    const before = edgeChar(el, false);
    const after = edgeChar(el, true);
    if (before === null || after === null || /\s/.test(before) || /\s/.test(after)) continue;
    el.before(el.ownerDocument.createTextNode(' '));
    spaced++;
  }
  return spaced;
}

/**
 * The character next to `el` in reading order, before it or (`forward`) after it, within the
 * block it stands in; null at the block's edge.
 */
function edgeChar(el: Element, forward: boolean): string | null {
  let current: Node = el;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    let sibling = forward ? current.nextSibling : current.previousSibling;
    while (sibling !== null && (sibling.textContent ?? '') === '') {
      sibling = forward ? sibling.nextSibling : sibling.previousSibling;
    }
    if (sibling !== null) {
      if (sibling.nodeType === 1 && BLOCK.has((sibling as Element).localName.toLowerCase())) return null;
      const text = sibling.textContent ?? '';
      return forward ? (text[0] ?? null) : (text[text.length - 1] ?? null);
    }
    const parent = current.parentNode;
    if (parent === null || parent.nodeType !== 1 || BLOCK.has((parent as Element).localName.toLowerCase())) return null;
    current = parent;
  }
  return null;
}
