import { BLOCK } from './text.js';

/** Blocks with at least this many characters that repeat an earlier block are its second copy. */
export const MIN_REPEATED_BLOCK_CHARS = 100;

/**
 * Removes from `root` the second copy of every block whose whole text (whitespace squashed, at
 * least `minChars` characters) is shown exactly twice: the same block in two versions (a carousel
 * and a grid, a mobile and a desktop layout). Text shown three times or more is a caption or label
 * the page repeats on purpose, kept. Returns how many blocks were removed.
 */
export function dropRepeatedBlocks(root: Element, minChars = MIN_REPEATED_BLOCK_CHARS): number {
  const keys = new Map<Element, string>();
  const copies = new Map<string, Element[]>();
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const key = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (key.length < minChars) continue;
    keys.set(el, key);
    // A wrapper and the block it wraps are one copy.
    const parent = el.parentElement;
    if (parent !== null && keys.get(parent) === key) continue;
    const list = copies.get(key);
    if (list) list.push(el);
    else copies.set(key, [el]);
  }
  let removed = 0;
  for (const list of copies.values()) {
    if (list.length !== 2) continue;
    const [first, second] = list as [Element, Element];
    if (first.contains(second) || !second.isConnected || !root.contains(second)) continue;
    second.remove();
    removed++;
  }
  return removed;
}

/** A quoted paragraph this long that repeats one shown earlier in the main text is a copy of it. */
export const MIN_QUOTED_COPY_CHARS = 40;
/** Where a repeated line is the content itself (code, table rows): never a copy. */
const LITERAL = new Set(['pre', 'code', 'table', 'textarea']);

/**
 * Removes from the main text `root` the paragraphs (blocks with no block inside, at least
 * `minChars` characters) inside a `<blockquote>` that repeat a paragraph shown earlier: a forum
 * reply quoting a post of the same thread shows that post's words a second time. A quote of a post
 * not on the page stays, and so does the first of two identical quotes. Code and tables are never
 * read. Returns how many paragraphs were removed.
 */
export function dropQuotedCopies(root: Element, minChars = MIN_QUOTED_COPY_CHARS): number {
  const shown = new Set<string>();
  const copies: Element[] = [];
  // Returns whether `el` holds a block element.
  const walk = (el: Element, quoted: boolean): boolean => {
    let holdsBlock = false;
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
      const name = child.nodeName.toLowerCase();
      if (LITERAL.has(name)) {
        holdsBlock = true;
        continue;
      }
      const inQuote = quoted || name === 'blockquote';
      const nested = walk(child, inQuote);
      const block = BLOCK.has(name);
      holdsBlock ||= nested || block;
      if (!block || nested) continue;
      const key = (child.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (key.length < minChars) continue;
      if (inQuote && shown.has(key)) copies.push(child);
      else shown.add(key);
    }
    return holdsBlock;
  };
  walk(root, false);
  for (const el of copies) el.remove();
  return copies.length;
}
