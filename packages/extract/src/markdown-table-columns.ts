import { fencedLines } from './markdown-lines.js';

/**
 * Removes from each table of `markdown` (as the converter writes tables: every row between pipes,
 * cells parted by ` | `, a `|` inside a cell escaped) the columns empty in every row, and a table
 * empty in all of them. Such a column comes from a spacer, the empty cells a spanning cell leaves
 * beside it (`December 2007` over a calendar) or a column of icons. The converter writes its
 * delimiter cell without a dash (`| --- |  | --- |`), and GitHub's table syntax does not read that
 * as a table: the whole table showed as lines of pipes. Tables in quotes are read too; code blocks
 * are left as they are. It reads the markdown, not the converter's table: a big table is converted
 * in parts (markdown.ts tableChunks), and a column is empty only if it is in all of them.
 *
 * @example dropEmptyColumns('| a |  |\n| - |  |\n| 1 |  |') // '| a |\n| - |\n| 1 |'
 */
export function dropEmptyColumns(markdown: string): string {
  if (!markdown.includes('|')) return markdown;
  const lines = markdown.split('\n');
  const fenced = fencedLines(lines);
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const table = fenced[i] ? null : tableAt(lines, i);
    if (table === null) {
      out.push(line);
      continue;
    }
    const rebuilt = withoutEmptyColumns(table);
    if (rebuilt !== null) {
      out.push(...rebuilt);
      changed = true;
    } else out.push(...lines.slice(i, i + table.rows.length + 1));
    i += table.rows.length;
  }
  return changed ? out.join('\n') : markdown;
}

/** A table row: optional quote markers and indent, then the row between pipes. */
const ROW = /^((?:[ \t]*>)*[ \t]*)(\|.*\|)[ \t]*$/;

/** A delimiter row's cell: dashes with optional colons, or blank (the defect being mended). */
const DELIMITER_CELL = /^ *:?-*:? *$/;

interface Table {
  prefix: string;
  /** The header row's cells, then each body row's (the delimiter row left out). */
  rows: string[][];
  delimiter: string[];
}

/** The table whose header row is `lines[at]`, with its delimiter row under it; null if none starts there. */
function tableAt(lines: readonly string[], at: number): Table | null {
  const header = ROW.exec(lines[at] ?? '');
  const under = ROW.exec(lines[at + 1] ?? '');
  if (header === null || under === null || header[1] !== under[1]) return null;
  const prefix = header[1] as string;
  const head = cellsOf(header[2] as string);
  const delimiter = cellsOf(under[2] as string);
  if (delimiter.length !== head.length || !delimiter.every((cell) => DELIMITER_CELL.test(cell))) return null;
  const rows = [head];
  for (let i = at + 2; i < lines.length; i++) {
    const row = ROW.exec(lines[i] as string);
    if (row === null || row[1] !== prefix) break;
    rows.push(cellsOf(row[2] as string));
  }
  return { prefix, rows, delimiter };
}

/**
 * A row's cells, padding kept: between its outer pipes, parted at each pipe with white space on
 * both sides (a `|` inside a cell is escaped, `\|`).
 */
const cellsOf = (row: string): string[] => row.slice(1, -1).split(/(?<=\s)\|(?=\s)/);

/**
 * The table's lines without its empty columns, each delimiter cell with a dash; [] when every
 * column is empty; null when nothing needs mending.
 */
function withoutEmptyColumns({ prefix, rows, delimiter }: Table): string[] | null {
  const kept = delimiter.map((_, column) => rows.some((cells) => (cells[column] ?? '').trim() !== ''));
  if (kept.every(Boolean) && delimiter.every((cell) => cell.includes('-'))) return null;
  if (!kept.some(Boolean)) return [];
  const line = (cells: readonly string[]) =>
    `${prefix}|${cells.filter((_, column) => column >= kept.length || kept[column]).join('|')}|`;
  const delimiterLine = line(delimiter.map((cell) => (cell.includes('-') ? cell : ' --- ')));
  const [head = [], ...body] = rows;
  return [line(head), delimiterLine, ...body.map(line)];
}
