/**
 * The buttons of a page of items (product cards, course cards, search results): the controls every
 * card repeats beside its own title, description and price, such as `Quick View`, `Compare`,
 * `Add to cart`, `View options` or `Read full article`. A reader of the list skips them and they are
 * not the page's content. Only links, buttons and labels are controls: a repeated value in plain
 * text (`Full-Time`, `Brand new`, `Winner`) describes its item and is kept, as is a field label
 * (`Weight:`).
 */
import { itemGroups, MIN_ITEMS } from './repeated-blocks.js';

/** Share of a list's items that must show a control's text for it to be the cards' template. */
const TEMPLATE_SHARE = 0.5;
/** A control's text is a word or a few: short. */
const MAX_CONTROL_CHARS = 40;
/** A text with a digit is a value (a price, a date, a count) that happens to repeat: kept. */
const DIGIT = /\d/;
const CONTROLS = 'a[href], button, label, [role="button"]';

const keyOf = (el: Element): string => (el.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/** The controls of an item with a short text that could be a template's (no digit, no colon). */
function controlsOf(item: Element): Array<{ el: Element; key: string }> {
  const found: Array<{ el: Element; key: string }> = [];
  for (const el of Array.from(item.querySelectorAll(CONTROLS))) {
    const key = keyOf(el);
    if (key.length > 0 && key.length <= MAX_CONTROL_CHARS && !DIGIT.test(key) && !key.endsWith(':')) {
      found.push({ el, key });
    }
  }
  return found;
}

/** Texts of controls shown by at least {@link TEMPLATE_SHARE} of the items (and {@link MIN_ITEMS}). */
function templateOf(controls: Array<Array<{ key: string }>>): Set<string> {
  const counts = new Map<string, number>();
  for (const ofItem of controls) {
    for (const key of new Set(ofItem.map((c) => c.key))) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const need = Math.max(MIN_ITEMS, TEMPLATE_SHARE * controls.length);
  return new Set(Array.from(counts.keys()).filter((key) => (counts.get(key) as number) >= need));
}

/**
 * Removes the controls every list of items below `root` repeats (see the module comment). Returns
 * how many were removed.
 */
export function dropCardControls(root: Element, thread = false): number {
  let removed = 0;
  for (const { items } of itemGroups(root)) {
    const controls = items.map(controlsOf);
    const template = templateOf(controls);
    const names = thread ? namesOf(controls.flat()) : new Set<string>();
    for (const { el, key } of controls.flat()) {
      if (!template.has(key) || names.has(key) || !el.isConnected) continue;
      removeWithBrackets(el);
      removed++;
    }
  }
  return removed;
}

/**
 * The texts of those `controls` that are links to one and the same page wherever they stand: in a
 * thread, a poster's name (`raoul`, to `/u/raoul` in each of their posts). A post's controls act on
 * it and lead each to its own page (`Improve this answer`, to `/posts/3697/edit`), or nowhere.
 */
function namesOf(controls: ReadonlyArray<{ el: Element; key: string }>): Set<string> {
  const targets = new Map<string, string | null>();
  for (const { el, key } of controls) {
    const href = el.localName.toLowerCase() === 'a' ? (el.getAttribute('href') ?? '').trim() : '';
    const page = href === '' || href.startsWith('#') || /^javascript:/i.test(href) ? null : href;
    const seen = targets.get(key);
    targets.set(key, seen === undefined || seen === page ? page : null);
  }
  return new Set(Array.from(targets).flatMap(([key, page]) => (page === null ? [] : [key])));
}

/** Bracket pairs that old templates set around a control: `[Print]`, `【打印】`, `(Reply)`. */
const BRACKETS: Readonly<Record<string, string>> = { '[': ']', '【': '】', '(': ')', '（': '）', '〔': '〕', '«': '»' };

/**
 * Removes `el` and, when the text around it is the bracket pair it stood in (`[<a>Print</a>]`),
 * that pair too, which would otherwise be left behind as `[]`.
 */
function removeWithBrackets(el: Element): void {
  const before = el.previousSibling;
  const after = el.nextSibling;
  el.remove();
  if (before?.nodeType !== 3 || after?.nodeType !== 3) return;
  const open = /([[【(（〔«])\s*$/.exec(before.textContent ?? '');
  const rest = (after.textContent ?? '').trimStart();
  if (!open || !rest.startsWith(BRACKETS[open[1] as string] as string)) return;
  before.textContent = (before.textContent ?? '').slice(0, open.index);
  after.textContent = rest.slice(1);
}
