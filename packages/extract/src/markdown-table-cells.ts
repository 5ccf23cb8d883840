import type { NodeHtmlMarkdown, TranslatorConfig, TranslatorConfigFactory } from 'node-html-markdown';
import { afterPostprocess, unescapeLineStart } from './markdown-escapes.js';

/**
 * Mends two things node-html-markdown does to a table cell (edits `converter`). It escaped only
 * the first `|` of a cell, so a cell of `string | number | null` (a parameter's type in an API's
 * docs) split its row into one column more than the table has. And it wrote a cell's inline code
 * as plain text, so `--release` read as an escaped `\--release`. In a cell every `|` is escaped,
 * inside code too (GitHub's table syntax reads `\|` there as a pipe).
 */
export function mendTableCells(converter: NodeHtmlMarkdown): void {
  for (const translators of [converter.tableTranslators, converter.tableRowTranslators]) {
    const cell = translators.get('td');
    if (cell === undefined) continue;
    const mended: TranslatorConfigFactory = (context) => ({
      ...(typeof cell === 'function' ? cell(context) : cell),
      postprocess: ({ content }) =>
        unescapeLineStart(
          content
            .replace(/^\n+|\n+$/g, '')
            .replace(/\|/g, '\\|')
            .replace(/(?:\r?\n)+/g, ' ')
            .trim(),
        ),
    });
    translators.set('th,td', mended);
  }
  converter.tableCellTranslators.set('code,kbd,samp', CODE_SPAN);
}

/**
 * Tables written without the spaces and dashes that pad each column to its widest cell (edits
 * `converter`): `| 1 | Chicago Booth |` and `| --- | --- |`, not each cell as wide as the column's
 * longest. Markdown needs no alignment (a big table's parts are padded apart already, see
 * markdown.ts tableChunks), and the padding was over half of the tables' characters on the WCXB
 * pages, up to 73% of a page's markdown: tokens a reader, or a model, pays for nothing.
 */
export function unpadTables(converter: NodeHtmlMarkdown): void {
  const table = converter.translators.get('table');
  if (typeof table !== 'function') return;
  converter.translators.set('table', (context) => afterPostprocess(table(context), unpadded));
}

/**
 * A table as the converter writes it (a caption's line, then its header row, delimiter row and
 * rows, each between pipes, a `|` in a cell escaped) with one space on each side of a cell's text.
 */
function unpadded(table: string): string {
  const lines = table.split('\n');
  const header = lines.findIndex((line) => line.startsWith('|'));
  return lines
    .map((line, i) => {
      if (!line.startsWith('|')) return line;
      const row = line.replace(/ {2,}\|/g, ' |');
      return i === header + 1 ? row.replace(/-{4,}/g, '---') : row;
    })
    .join('\n');
}

/**
 * Inline code in a cell or a link (the converter's translators for either have none): between
 * backticks, one more than the longest run inside it.
 */
export const CODE_SPAN: TranslatorConfig = {
  spaceIfRepeatingChar: true,
  noEscape: true,
  postprocess: ({ content }) => {
    if (content.trim() === '') return content;
    const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(longest + 1);
    const pad = longest > 0 ? ' ' : '';
    return `${fence}${pad}${content}${pad}${fence}`;
  },
};
