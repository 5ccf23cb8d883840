import { dropUnlikelyNames, hasUnlikelyNames } from './readability-names.js';
import { visibleChars } from './text.js';

/** A table with a header cell and at least this many rows holds data, not layout. */
const MIN_DATA_ROWS = 3;

/**
 * Whether a `<table>` holds data, not layout: it has a header cell (`<th>`), at least
 * {@link MIN_DATA_ROWS} rows and no table inside (layout and navigation boxes nest tables).
 */
export function isDataTable(table: Element): boolean {
  return (
    table.querySelector('th') !== null &&
    table.querySelector('table') === null &&
    table.querySelectorAll('tr').length >= MIN_DATA_ROWS
  );
}

/**
 * Keeps the data tables among `elements` (a body's elements) from Readability's removal of
 * unlikely blocks, which reads only their class and id: Wikipedia's sortable tables are
 * `wikitable sortable sticky-header`, and `header` is an unlikely name, so a list page lost the
 * table that is its content. A data table (see isDataTable) loses the class names and the id
 * that Readability would read as unlikely. Returns how many tables were kept so.
 */
export function keepDataTables(elements: readonly Element[]): number {
  let kept = 0;
  for (const el of elements) {
    if (el.localName !== 'table') continue;
    if (!hasUnlikelyNames(el) || !isDataTable(el)) continue;
    dropUnlikelyNames(el);
    kept++;
  }
  return kept;
}

/** A table of links holds at least this many and this share of its visible text in them. */
const MIN_LINK_TABLE_LINKS = 5;
const LINK_TABLE_SHARE = 0.8;
/** Above this share of the article's text, a table of links is the article (a page of links). */
const MAX_LINK_TABLE_SHARE = 0.5;

/**
 * Removes from Readability's article (`content`) the tables that are lists of links: at least
 * {@link MIN_LINK_TABLE_LINKS} links holding {@link LINK_TABLE_SHARE} of the table's visible text,
 * no header cell, and under {@link MAX_LINK_TABLE_SHARE} of the article's text. Readability keeps any
 * table of ten rows or more as data and so never cleans it: an old news page's box of related
 * headlines, each row a link, came into the article. Returns how many tables were removed.
 */
export function dropLinkTables(content: Element): number {
  const tables = Array.from(content.querySelectorAll('table'));
  if (tables.length === 0) return 0;
  const total = visibleChars(content.textContent ?? '');
  let removed = 0;
  for (const table of tables) {
    // A table inside one removed before is gone with it.
    if (!content.contains(table) || table.querySelector('th') !== null) continue;
    const chars = visibleChars(table.textContent ?? '');
    if (chars === 0 || chars >= MAX_LINK_TABLE_SHARE * total) continue;
    const links = Array.from(table.querySelectorAll('a[href]'));
    if (links.length < MIN_LINK_TABLE_LINKS) continue;
    const linkChars = links.reduce((sum, a) => sum + visibleChars(a.textContent ?? ''), 0);
    if (linkChars < LINK_TABLE_SHARE * chars) continue;
    table.remove();
    removed++;
  }
  return removed;
}
