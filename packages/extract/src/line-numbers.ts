/**
 * Line numbers a syntax highlighter prints beside a code block, removed before anything reads the
 * page: they are not the code, and they broke it. Beside the code in a table (Pygments'
 * `highlighttable`, Rouge, Hugo's Chroma, MkDocs, WordPress's SyntaxHighlighter) the block was read
 * as a row of two cells, the numbers above the code in the text and the code squashed into a table
 * cell in the markdown. Printed at the start of each line (Pygments' and Chroma's inline numbers)
 * they were glued to it: `1import os`. Laid out as a row per line, each opening with its number in
 * an element of its own (Twilio's Paste, styled by hashed class names), they stood a line above it.
 */

/** The most lines a gutter is read for; a longer block keeps its table. */
const MAX_LINES = 5_000;
/** A class of an inline line number: `linenos` (Pygments), `ln` and `lnt` (Chroma), `lineno`, `line-number`. */
const NUMBER_CLASS = /(?:^|\s)(?:linenos?|lnt?|line-?numbers?|linenum)(?:\s|$)/i;

/** Removes line numbers from every code block of `doc` (edits it); returns how many blocks changed. */
export function dropLineNumbers(doc: Document): number {
  let changed = 0;
  for (const table of Array.from(doc.getElementsByTagName('table'))) {
    if (table.isConnected && unwrapNumberedTable(table)) changed++;
  }
  for (const pre of Array.from(doc.getElementsByTagName('pre'))) {
    if (pre.isConnected && (dropInlineNumbers(pre) || dropRowNumbers(pre))) changed++;
  }
  return changed;
}

/**
 * A table of one row of two cells, line numbers in the first and code in the second (a `<pre>`, or
 * lines holding `<code>`), as many numbers as the code has lines and counting up by one, becomes
 * the code's `<pre>`.
 */
function unwrapNumberedTable(table: Element): boolean {
  const row = table.querySelector('tr');
  if (row === null || row.nextElementSibling !== null || row.parentElement?.nextElementSibling) return false;
  const cells = Array.from(row.children);
  const [gutter, code] = cells;
  if (cells.length !== 2 || gutter === undefined || code === undefined) return false;
  const numbers = lineNumbers(gutter);
  if (numbers === null) return false;
  const pre = code.querySelector('pre');
  const lines = pre !== null ? codeLines(pre.textContent ?? '') : leafLines(code);
  if (lines === null || lines.length !== numbers) return false;
  if (pre !== null) {
    table.replaceWith(pre);
    return true;
  }
  const doc = table.ownerDocument;
  const block = doc.createElement('pre');
  block.appendChild(doc.createElement('code')).textContent = lines.join('\n');
  table.replaceWith(block);
  return true;
}

/** How many line numbers `gutter` holds, when it holds nothing else and they count up by one. */
function lineNumbers(gutter: Element): number | null {
  // Read number by number, so a first cell of prose (a layout table's sidebar) stops at its first word.
  let first: number | null = null;
  let count = 0;
  const stack: Node[] = [gutter];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType !== 3) {
      for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c);
      continue;
    }
    for (const token of (node.nodeValue ?? '').split(/\s+/)) {
      if (token === '') continue;
      if (!/^\d{1,6}$/.test(token)) return null;
      first ??= Number(token);
      if (Number(token) !== first + count || ++count > MAX_LINES) return null;
    }
  }
  return count === 0 ? null : count;
}

/** A `<pre>`'s lines, less the newline it ends with. */
function codeLines(text: string): string[] | null {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  return lines.length > MAX_LINES ? null : lines;
}

/**
 * The lines of code laid out as blocks without a `<pre>` (SyntaxHighlighter's `<div class="line">`,
 * each holding `<code>`s): the text of each block that holds no other block, spaces for the
 * non-breaking ones it indents with. Null when the cell holds no `<code>`.
 */
function leafLines(cell: Element): string[] | null {
  if (cell.querySelector('code') === null) return null;
  const blocks = Array.from(cell.querySelectorAll('div, p')).filter((el) => el.querySelector('div, p') === null);
  if (blocks.length === 0 || blocks.length > MAX_LINES) return null;
  return blocks.map((el) => (el.textContent ?? '').replace(/\u00a0/g, ' '));
}

/** Removes the numbers a highlighter prints at the start of each line inside `pre`. */
function dropInlineNumbers(pre: Element): boolean {
  let dropped = false;
  for (const span of Array.from(pre.getElementsByTagName('span'))) {
    if (!NUMBER_CLASS.test(span.getAttribute('class') ?? '')) continue;
    if (!/^\s*\d{1,6}\s*$/.test(span.textContent ?? '')) continue;
    span.remove();
    dropped = true;
  }
  return dropped;
}

/** Elements that lay a code block out as one row per line (not spans parted by newlines). */
const ROW = new Set(['div', 'p', 'li']);
/** Elements in a row that show nothing. */
const UNSHOWN = new Set(['style', 'script', 'template']);

/**
 * Removes the numbers that open the rows of a code block laid out as blocks, one per line (`<div>`
 * rows, each a number element then a block holding the line's code), when every row of their
 * parent opens that way and the numbers count up by one. A number token followed by more of its
 * line in spans or text (`<span>1</span><span>,</span>`) is the code's own.
 */
function dropRowNumbers(pre: Element): boolean {
  const rows = codeRowsOf(pre);
  if (rows === null || rows.length < 2 || rows.length > MAX_LINES) return false;
  const numbers: Element[] = [];
  for (const row of rows) {
    // CSS-in-JS writes a `<style>` beside the first element of each class.
    const [number, code, ...more] = Array.from(row.children).filter((el) => !UNSHOWN.has(el.localName));
    if (!number || !code || more.length > 0 || number.firstElementChild !== null || !ROW.has(code.localName))
      return false;
    // Nothing but space around the two: the number stands alone beside the line.
    for (let c = row.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3 && (c.nodeValue ?? '').trim() !== '') return false;
    }
    const text = (number.textContent ?? '').trim();
    if (!/^\d{1,6}$/.test(text) || Number(text) !== Number(numbers[0]?.textContent ?? text) + numbers.length)
      return false;
    numbers.push(number);
  }
  for (const number of numbers) number.remove();
  return true;
}

/**
 * The rows of a code block laid out as blocks: the element children of the first element under
 * `pre` (through single-child wrappers such as `<code>`) that has more than one, all of them row
 * elements; null otherwise.
 */
function codeRowsOf(pre: Element): Element[] | null {
  const shown = (el: Element) => Array.from(el.children).filter((child) => !UNSHOWN.has(child.localName));
  let rows = shown(pre);
  while (rows.length === 1 && rows[0]) rows = shown(rows[0]);
  return rows.every((row) => ROW.has(row.localName)) ? rows : null;
}
