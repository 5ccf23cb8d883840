import { Readability } from '@mozilla/readability';

/**
 * Readability's own patterns (see its `REGEXPS`): an element whose class and id match
 * `unlikelyCandidates` and not `okMaybeItsACandidate` is removed before its search, unless inside a
 * table. Read from the library so that they stay its.
 */
const PATTERNS = (Readability.prototype as unknown as { REGEXPS: Record<string, RegExp> }).REGEXPS;
const UNLIKELY = PATTERNS.unlikelyCandidates ?? /$^/;
const MAYBE = PATTERNS.okMaybeItsACandidate ?? /$^/;
const BYLINE = PATTERNS.byline ?? /$^/;
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

/** Whether Readability would remove an element before its search for its class and id alone. */
export function hasUnlikelyNames(el: Element): boolean {
  const names = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return UNLIKELY.test(names) && !MAYBE.test(names);
}

/** Whether Readability would read an element as a byline for its class and id (`author-bio`). */
export function hasBylineNames(el: Element): boolean {
  return BYLINE.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`);
}

/** Removes the class names and the id that Readability reads as unlikely from an element. */
export function dropUnlikelyNames(el: Element): void {
  const classes = (el.getAttribute('class') ?? '').split(/\s+/).filter((name) => name !== '' && !UNLIKELY.test(name));
  if (classes.length > 0) el.setAttribute('class', classes.join(' '));
  else el.removeAttribute('class');
  if (UNLIKELY.test(el.getAttribute('id') ?? '')) el.removeAttribute('id');
}
