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
