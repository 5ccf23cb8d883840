/** Fewest sibling blocks of one kind that make a list of items (cards, results, posts). */
export const MIN_ITEMS = 3;
/** Visible characters an item needs besides being (or holding) a link. */
const MIN_ITEM_CHARS = 10;
/** Share of the siblings of one kind that must be items (the rest may be ads or spacers). */
const MIN_ITEM_SHARE = 0.6;

/** Fewest check boxes or radio buttons of a block of search filters (facets). */
const MIN_FILTER_INPUTS = 3;
const FILTER_INPUTS = 'input[type="checkbox"], input[type="radio"]';
/** Most visible characters per input of a block of filters: their labels are short. */
const MAX_FILTER_CHARS_PER_INPUT = 40;

/** The repeated sibling blocks of a page region that hold the most text, and their container. */
export interface RepeatedItems {
  container: Element;
  items: Element[];
  chars: number;
}

/** Tag and class words (digits dropped) of an element: siblings of one kind share it. */
function signatureOf(el: Element): string {
  const cls = (el.getAttribute('class') ?? '').replace(/\d+/g, '').trim().split(/\s+/).sort().join('.');
  return `${el.localName.toLowerCase()}.${cls}`;
}

/** Visible (not whitespace) characters of a node's text. */
function charsOf(node: Node): number {
  const text = node.textContent ?? '';
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 0xa0) n++;
  }
  return n;
}

/** An item of a list: a link, or a block holding one, with some text. */
function isItem(el: Element): boolean {
  const linked = el.localName.toLowerCase() === 'a' || el.querySelector('a[href]') !== null;
  return linked && charsOf(el) >= MIN_ITEM_CHARS;
}

/** Siblings of one kind below a common parent: all of them, and those that are items. */
export interface ItemGroup {
  container: Element;
  members: Element[];
  items: Element[];
}

/**
 * Every group of siblings of one kind (same tag and class words, at least {@link MIN_ITEMS}, mostly
 * items with a link and some text) below `root`, in document order of their parents.
 */
export function itemGroups(root: Element): ItemGroup[] {
  const found: ItemGroup[] = [];
  for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
    if (el.children.length < MIN_ITEMS) continue;
    const groups = new Map<string, Element[]>();
    for (const child of Array.from(el.children)) {
      const sig = signatureOf(child);
      const group = groups.get(sig);
      if (group) group.push(child);
      else groups.set(sig, [child]);
    }
    for (const members of groups.values()) {
      if (members.length < MIN_ITEMS) continue;
      const items = members.filter(isItem);
      if (items.length < MIN_ITEMS || items.length < MIN_ITEM_SHARE * members.length) continue;
      found.push({ container: el, members, items });
    }
  }
  return found;
}

/** The group of {@link itemGroups} holding the most text below `root`, or null. */
export function findRepeatedItems(root: Element): RepeatedItems | null {
  let best: RepeatedItems | null = null;
  for (const { container, members } of itemGroups(root)) {
    const chars = members.reduce((sum, m) => sum + charsOf(m), 0);
    if (best === null || chars > best.chars) best = { container, items: members, chars };
  }
  return best;
}

/**
 * Removes the blocks of search filters of a page of items (see {@link dropFilters}) from a region
 * already pruned of chrome. Returns whether anything was removed.
 */
export function dropItemFilters(root: Element): boolean {
  // Most pages have no filters: the items are looked for only when there are enough inputs.
  if (root.querySelectorAll(FILTER_INPUTS).length < MIN_FILTER_INPUTS) return false;
  const found = findRepeatedItems(root);
  return found !== null && dropFilters(root, found);
}

/**
 * Removes the blocks of search filters (facets: many check boxes or radio buttons with short
 * labels) that hold none of the items.
 */
function dropFilters(root: Element, found: RepeatedItems): boolean {
  const inputs = Array.from(root.querySelectorAll(FILTER_INPUTS));
  const doomed: Element[] = [];
  const checked = new Set<Element>();
  for (const input of inputs) {
    if (doomed.some((d) => d.contains(input))) continue;
    // The outermost ancestor that is still a block of filters and holds no item.
    let outer: Element | null = null;
    for (let el = input.parentElement; el !== null && el !== root; el = el.parentElement) {
      // An ancestor already walked from another input: what lies above it was decided then.
      if (checked.has(el)) break;
      checked.add(el);
      if (el.contains(found.container) || found.items.some((item) => el.contains(item))) break;
      const count = el.querySelectorAll(FILTER_INPUTS).length;
      if (count >= MIN_FILTER_INPUTS && charsOf(el) <= MAX_FILTER_CHARS_PER_INPUT * count) outer = el;
    }
    if (outer !== null && !doomed.some((d) => d.contains(outer))) doomed.push(outer);
  }
  for (const el of doomed) el.remove();
  return doomed.length > 0;
}
