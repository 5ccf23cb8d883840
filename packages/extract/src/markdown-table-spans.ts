/**
 * A markdown table has one cell per column in every row; an HTML table's cell may span several
 * (`colspan`, `rowspan`). node-html-markdown writes each row's cells one after another, so a value
 * after a spanning cell slid under the wrong column (`| 2024 | Red | 3 |` then `| Blue | 5 | |`,
 * the year spanning both rows) and a reader of the markdown, a model among them, read wrong data.
 */

/** The most rows or columns one cell is taken to span (HTML caps `colspan` at 1,000 and `rowspan` at 65,534). */
const MAX_SPAN = 1_000;

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
  for (const table of Array.from(root.querySelectorAll('table'))) {
    if (!table.querySelector('[colspan], [rowspan]')) continue;
    if (alignTable(table)) changed++;
  }
  return changed;
}

function alignTable(table: Element): boolean {
  const doc = table.ownerDocument;
  const rows = Array.from(table.querySelectorAll('tr')).filter((row) => row.closest('table') === table);
  // Column → the cell carried down into it and how many more rows it covers.
  const carried = new Map<number, Carried>();
  let changed = false;
  for (const row of rows) {
    const cells = Array.from(row.children).filter((c) => /^t[dh]$/i.test(c.localName));
    let column = 0;
    const fill = (before: Element | null): void => {
      for (let next = carried.get(column); next !== undefined; next = carried.get(column)) {
        const copy = next.cell.cloneNode(true) as Element;
        copy.removeAttribute('rowspan');
        row.insertBefore(copy, before);
        if (--next.rows === 0) carried.delete(column);
        column++;
        changed = true;
      }
    };
    for (const cell of cells) {
      fill(cell);
      const columns = span(cell.getAttribute('colspan'));
      const rowsBelow = span(cell.getAttribute('rowspan')) - 1;
      if (cell.hasAttribute('colspan') || cell.hasAttribute('rowspan')) changed = true;
      cell.removeAttribute('colspan');
      cell.removeAttribute('rowspan');
      if (rowsBelow > 0) carried.set(column, { cell, rows: rowsBelow });
      let after: Node | null = cell.nextSibling;
      for (let extra = 1; extra < columns; extra++) {
        const empty = doc.createElement(cell.localName.toLowerCase());
        row.insertBefore(empty, after);
        after = empty.nextSibling;
        if (rowsBelow > 0) carried.set(column + extra, { cell: empty, rows: rowsBelow });
      }
      column += columns;
    }
    // Cells carried into the columns after the row's last own cell.
    const last = Math.max(-1, ...carried.keys());
    while (column <= last) {
      if (carried.has(column)) fill(null);
      else {
        row.appendChild(doc.createElement('td'));
        column++;
      }
    }
    // A spacer row (`<td colspan="2">&nbsp;</td>`), padded, would show as an empty row.
    if (isBlank(row)) row.remove();
  }
  return changed;
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
