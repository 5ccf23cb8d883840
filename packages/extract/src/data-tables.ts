import { dropUnlikelyNames, hasUnlikelyNames } from './readability-names.js';

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
