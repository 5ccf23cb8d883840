/**
 * A markdown table has one cell per column in every row; an HTML table's cell may span several
 * (`colspan`, `rowspan`). node-html-markdown writes each row's cells one after another, so a value
 * after a spanning cell slid under the wrong column (`| 2024 | Red | 3 |` then `| Blue | 5 | |`,
 * the year spanning both rows) and a reader of the markdown, a model among them, read wrong data.
 */

import { appendChildrenOf } from './text.js';

/** The most rows or columns one cell is taken to span (HTML caps `colspan` at 1,000 and `rowspan` at 65,534). */
const MAX_SPAN = 1_000;

/**
 * The most cells the layout adds to the tables of one page. Spans let a page of 3 KB ask for
 * millions of cells (fifty cells each spanning 1,000 columns and 65,534 rows took 22 s and 900 MB;
 * two hundred ran out of stack): a table that would take more than is left is written as the page
 * has it. The tables of the 1,458 shared pages gain 331 cells at most (a whole page's).
 */
const MAX_ADDED_CELLS = 20_000;

/** A cell that a `rowspan` carries into the rows below it. */
interface Carried {
  cell: Element;
  rows: number;
}

/**
 * Lays out every table under `root` (edits `root`) so that each cell stands in its column: a cell
 * spanning columns is followed by empty cells for the others, and a cell spanning rows is written
 * again in each of them at its column (each row then reads whole: `| 2024 | Blue | 5 |`). Span
 * attributes are removed, and so are the rows of such a table that show nothing (spacers). Returns
 * how many tables changed.
 */
export function alignSpannedCells(root: Element): number {
  let changed = 0;
  let budget = MAX_ADDED_CELLS;
  for (const table of Array.from(root.querySelectorAll('table'))) {
    if (!table.querySelector('[colspan], [rowspan]')) continue;
    const rows = rowsOf(table);
    // Counted first, editing nothing, so that a table over the budget is left as it is.
    const added = layOut(rows, budget, false).added;
    if (added < 0) continue;
    budget -= added;
    if (layOut(rows, added, true).changed) changed++;
  }
  return changed;
}

/** The rows of a table (not those of a table nested in it). */
export const rowsOf = (table: Element): Element[] =>
  Array.from(table.querySelectorAll('tr')).filter((row) => row.closest('table') === table);

/** The cells of a row (not those of a table nested in it). */
const cellsOf = (row: Element): Element[] => Array.from(row.children).filter((c) => /^t[dh]$/i.test(c.localName));

/** The greatest column a cell is carried into, or -1. */
function lastCarried(carried: ReadonlyMap<number, unknown>): number {
  let last = -1;
  for (const column of carried.keys()) if (column > last) last = column;
  return last;
}

/**
 * Lays out a table's `rows` so that each cell stands in its column (see alignSpannedCells), or with
 * `apply` false only counts the cells that would be added. `added` is -1 as soon as they are more
 * than `limit` (so that counting costs no more than the limit); `changed`, whether anything was
 * (or would be) edited.
 */
function layOut(rows: readonly Element[], limit: number, apply: boolean): { added: number; changed: boolean } {
  // Column → the cell carried down into it and how many more rows it covers.
  const carried = new Map<number, Carried>();
  let added = 0;
  let changed = false;
  for (const row of rows) {
    const doc = row.ownerDocument;
    let column = 0;
    const fill = (before: Element | null): void => {
      for (let next = carried.get(column); next !== undefined && added <= limit; next = carried.get(column)) {
        if (apply) {
          const copy = next.cell.cloneNode(true) as Element;
          copy.removeAttribute('rowspan');
          row.insertBefore(copy, before);
        }
        if (--next.rows === 0) carried.delete(column);
        column++;
        added++;
        changed = true;
      }
    };
    for (const cell of cellsOf(row)) {
      fill(cell);
      const columns = span(cell.getAttribute('colspan'));
      const rowsBelow = span(cell.getAttribute('rowspan')) - 1;
      added += columns - 1;
      if (added > limit) return { added: -1, changed };
      if (cell.hasAttribute('colspan') || cell.hasAttribute('rowspan')) changed = true;
      if (apply) {
        cell.removeAttribute('colspan');
        cell.removeAttribute('rowspan');
      }
      if (rowsBelow > 0) carried.set(column, { cell, rows: rowsBelow });
      let after: Node | null = cell.nextSibling;
      for (let extra = 1; extra < columns; extra++) {
        // Counting, the cell itself stands for the empty ones: nothing is copied from them.
        let empty = cell;
        if (apply) {
          empty = doc.createElement(cell.localName.toLowerCase());
          row.insertBefore(empty, after);
          after = empty.nextSibling;
        }
        if (rowsBelow > 0) carried.set(column + extra, { cell: empty, rows: rowsBelow });
      }
      column += columns;
    }
    // Cells carried into the columns after the row's last own cell.
    for (const last = lastCarried(carried); column <= last && added <= limit; ) {
      if (carried.has(column)) fill(null);
      else {
        if (apply) row.appendChild(doc.createElement('td'));
        added++;
        column++;
      }
    }
    if (added > limit) return { added: -1, changed };
    // A spacer row (`<td colspan="2">&nbsp;</td>`), padded, would show as an empty row.
    if (apply && isBlank(row)) row.remove();
  }
  return { added, changed };
}

/**
 * The most empty cells the converter may add to a table's short rows (it pads every row to the
 * widest). A row of 20,000 cells over 2,000 rows of one made 160 MB of markdown from 238 KB and took
 * 9 s; no table of the 1,458 shared pages gets near it.
 */
const MAX_PADDING_CELLS = 10_000;

/**
 * Writes each table under `root` (edits `root`) whose short rows the converter would pad with more
 * empty cells than it has cells, and than {@link MAX_PADDING_CELLS}, as lines instead: a paragraph
 * a row, its cells parted by ` | `. Returns how many tables were so written.
 */
export function unfoldRaggedTables(root: Element): number {
  let unfolded = 0;
  for (const table of Array.from(root.querySelectorAll('table'))) {
    const rows = rowsOf(table);
    const widths = rows.map((row) => cellsOf(row).length);
    let cells = 0;
    let most = 0;
    for (const width of widths) {
      cells += width;
      if (width > most) most = width;
    }
    const padding = most * rows.length - cells;
    if (padding <= MAX_PADDING_CELLS || padding <= cells) continue;
    const doc = table.ownerDocument;
    const lines = doc.createElement('div');
    for (const row of rows) {
      const line = doc.createElement('p');
      cellsOf(row).forEach((cell, i) => {
        if (i > 0) line.append(' | ');
        appendChildrenOf(cell, line);
      });
      lines.append(line);
    }
    table.replaceWith(lines);
    unfolded++;
  }
  return unfolded;
}

/** Whether a row shows nothing: no text but white space, and no picture. */
function isBlank(row: Element): boolean {
  return (row.textContent ?? '').trim() === '' && row.querySelector('img, picture, svg, video, canvas') === null;
}

/** A span attribute's value: a whole number from 1 to {@link MAX_SPAN}, else 1 (`0`, `x`, absent). */
function span(value: string | null): number {
  const n = value === null ? Number.NaN : Number.parseInt(value.trim(), 10);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_SPAN) : 1;
}
