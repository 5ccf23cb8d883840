import { visibleChars } from './content.js';
import { PAGE_PARTS } from './popups.js';

/**
 * The search filters of a page of items, named so by its markup (`filters`, `facets-container`,
 * `refinement-bar`, `browse-filters`, `search-bar__filter`): the brands, sizes, colours and price
 * bands that narrow the list, with their counts and their `Clear all` and `Apply` buttons. They are
 * the shop's interface, not what the page lists; Readability can even choose them as the article of
 * a page whose items are all alike. Blocks of check boxes are removed later from the main region
 * whatever their names (repeated-blocks.ts); these need no inputs, as many are links or styled
 * `<div>`s.
 */

/**
 * A filter's name: a class or id word `filters`, `facet(s)` or `refinement(s)`, or `filter` joined
 * to another word (`filter-box`, `plp_filter`). A lone `filter` class is a style (CSS filter
 * utilities), never read so.
 */
const FILTER_NAME =
  /(?:^|[\s_-])(?:filters|facets?|refinements?)(?:$|[\s_-])|(?:^|\s)(?:[\w-]*[-_]filter|filter[-_][\w-]*)(?:$|[\s_-])/i;
/** Words that name a style or a state of the page, not a block of filters (`backdrop-filter`, `has-filters`). */
const NOT_FILTERS =
  /(?:^|\s)(?:backdrop-filter|filter-(?:none|blur|grayscale|invert|sepia|brightness|contrast|saturate|hue|drop-shadow)[\w-]*|(?:has|with|show|no)-(?:filters?|facets?))(?:$|\s)/i;
/**
 * The boxes a block of filters is; a link or a button so named opens or applies one. A theme's own
 * element (a name with a hyphen: Shopify's `<facet-filters-form class="facets">`) is a box too.
 */
const BOXES = new Set(['div', 'section', 'aside', 'nav', 'ul', 'ol', 'dl', 'form', 'fieldset']);
/** A filter's options and buttons: each is a word or a few. */
const OPTIONS = 'a, button, label, li, option, input';
/** Fewest options of a block of filters. */
const MIN_OPTIONS = 3;
/** Most visible characters per option: a longer block so named explains (`Filters just for you: …`). */
const MAX_CHARS_PER_OPTION = 40;
/** Page chrome, which every reading removes with the filters it holds. */
const CHROME = 'nav, header, footer';
/** A block of filters holds at most this share of the body's text: a larger one holds the list itself. */
const MAX_SHARE = 0.25;

/**
 * Named blocks read at most: each read walks the block's elements, and a page nesting thousands so
 * named would cost their square. A shop names a few dozen.
 */
const MAX_BLOCKS_READ = 200;

/** Removes the blocks of search filters among `elements` (a body's elements; see the module's comment); returns how many. */
export function dropSearchFilters(elements: readonly Element[]): number {
  let removed = 0;
  let read = 0;
  let bodyChars: number | undefined;
  for (const el of elements) {
    // isConnected last: linkedom answers it with a walk up the tree.
    const name = el.localName.toLowerCase();
    if ((!BOXES.has(name) && !name.includes('-')) || !isNamedFilters(el) || !el.isConnected) continue;
    if (++read > MAX_BLOCKS_READ) break;
    const options = el.querySelectorAll(OPTIONS).length;
    if (options < MIN_OPTIONS || el.querySelector(PAGE_PARTS) !== null || el.parentElement?.closest(CHROME) != null)
      continue;
    const chars = visibleChars(el.textContent ?? '');
    if (chars > MAX_CHARS_PER_OPTION * options) continue;
    bodyChars ??= visibleChars(el.ownerDocument.body?.textContent ?? '');
    if (chars > MAX_SHARE * bodyChars) continue;
    el.remove();
    removed++;
  }
  return removed;
}

function isNamedFilters(el: Element): boolean {
  const named = (value: string | null): boolean =>
    value !== null && value.length <= 200 && FILTER_NAME.test(value) && !NOT_FILTERS.test(value);
  return named(el.getAttribute('class')) || named(el.getAttribute('id'));
}
