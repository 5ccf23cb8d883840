/** Rows as a Markdown table, the first row as its header; `|` in cells escaped. */
export function markdownTable(rows: string[][]): string {
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => (cells[i] ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

/** A paragraph whose opening would read as a heading, quote or list item in Markdown, escaped (`\#`, `1\.`). */
export function escapeLineStart(text: string): string {
  return text.replace(/^(#|>|[-+*](?=\s)|\d+(?=[.)]\s))/, (mark) => (/^\d/.test(mark) ? `${mark}\\` : `\\${mark}`));
}

/** Markdown as a quote (speaker notes under their slide): each line behind `> `, a blank one `>`. */
export function quoted(markdown: string): string {
  return markdown.replace(/^/gm, '> ').replace(/^> $/gm, '>');
}
