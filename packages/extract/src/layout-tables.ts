/**
 * Tables that lay a page out rather than hold data: their cells' content is read as blocks of its
 * own, in order. A markdown table's cell is one line, and a layout table written as one ran an
 * article's paragraphs, headings and lists together into a row.
 */

import { rowsOf } from './markdown-table-spans.js';
import { appendChildrenOf, visibleChars } from './text.js';

const TABLE_PARTS = 'table, thead, tbody, tfoot, tr, td, th, caption';
/** Paragraphs (or lines broken by `<br>`) of a cell that lays an article out. */
const MIN_CELL_PARAGRAPHS = 2;
/** Text (visible characters) of a cell that is an article rather than a value. */
const MAX_CELL_CHARS = 500;

/**
 * Whether a table lays an article out rather than holding data: a cell of it holds more than
 * {@link MAX_CELL_CHARS} characters in two paragraphs or more (an old site's article in the cell of
 * a two-column page). A Markdown table cell is one line: the article's paragraphs would run
 * together into a row. (Cells with two paragraphs alone, or a heading, are data often enough: an
 * address, a product's name over its price.)
 */
function laysOutArticle(table: Element): boolean {
  return longCells(table).some((cell) => cell.querySelectorAll('p, br').length >= MIN_CELL_PARAGRAPHS);
}

/** The cells of `table` itself (not of a table inside) with more than {@link MAX_CELL_CHARS} characters. */
function longCells(table: Element): Element[] {
  return Array.from(table.querySelectorAll('td, th')).filter(
    (cell) => cell.closest('table') === table && visibleChars(cell.textContent ?? '') > MAX_CELL_CHARS,
  );
}

/**
 * Whether `table` lays a page out rather than holding data: see {@link unwrapLayoutTables}. A table
 * that is the whole content (`whole`) does when a cell of it holds more than
 * {@link MAX_CELL_CHARS} characters: a forum's posts, each in a row.
 */
export function isLayoutTable(table: Element, whole = false): boolean {
  const nested = table.querySelector('table') !== null || table.parentElement?.closest('table') != null;
  if (nested || table.getAttribute('role') === 'presentation') return true;
  return whole ? longCells(table).length > 0 : laysOutArticle(table);
}

/**
 * Turns layout tables into plain blocks (edits `root`): tables marked `role="presentation"`, every
 * table that holds or sits in another table, and one that lays an article out (see
 * laysOutArticle).
 */
export function unwrapLayoutTables(root: Element): void {
  const layout = Array.from(root.querySelectorAll('table')).filter((table) => isLayoutTable(table));
  if (layout.length > 0) unwrapTables(layout);
}

/**
 * Unwraps the tables of a document (a Word file, as mammoth writes it in HTML) that lay it out
 * rather than hold data (edits `root`): those a page's are (see {@link isLayoutTable}), and the
 * frames Word lays text out with: a table of one row or one column (a box around the whole
 * document, two columns side by side) and one whose cell holds a heading (a part of the document's
 * outline). The outer are judged first, so a data table inside a layout table is kept as a table:
 * a form's table of figures stays one, after the form's labels before it and before those after.
 */
export function unwrapDocumentLayoutTables(root: Element): void {
  for (const table of Array.from(root.querySelectorAll('table'))) {
    if (isLayoutTable(table) || isFrame(table)) unwrapTables([table]);
  }
}

/** Whether a Word table is a frame (see unwrapDocumentLayoutTables). */
function isFrame(table: Element): boolean {
  const rows = rowsOf(table);
  if (rows.length <= 1) return true;
  const cells = Array.from(table.querySelectorAll('td, th')).filter((cell) => cell.closest('table') === table);
  if (cells.some((cell) => cell.querySelector('h1, h2, h3, h4, h5, h6') !== null)) return true;
  // One column: no row has a second cell, nor a cell spanning two.
  return cells.every((cell) => cell.previousElementSibling === null && (cell.getAttribute('colspan') ?? '1') === '1');
}

/**
 * Turns `tables` into plain blocks, their rows and cells into `<div>`s (edits the document). They
 * are not data, and node-html-markdown's table conversion grows much faster than linearly on
 * nested tables (minutes on a wiki page).
 */
function unwrapTables(tables: readonly Element[]): void {
  const parts: Element[] = [];
  for (const table of tables) {
    // Parts of a data table nested in a layout table stay that table's.
    for (const part of Array.from(table.querySelectorAll(TABLE_PARTS)))
      if (part.closest('table') === table) parts.push(part);
    parts.push(table);
  }
  for (const part of parts) {
    const block = part.ownerDocument.createElement('div');
    appendChildrenOf(part, block);
    part.replaceWith(block);
  }
}
