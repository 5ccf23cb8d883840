/*
 * Steps over the lines of the markdown written (see markdown.ts), which skip its fenced code blocks.
 */

/** A code fence's opening or closing line, after any indent and quote markers: its fence in group 1. */
const FENCE_LINE = /^(?:\s*>)*\s*(`{3,}|~{3,})/;

/** For each of `lines`, whether it belongs to a fenced code block, its fences included. */
export function fencedLines(lines: readonly string[]): boolean[] {
  let fence: string | null = null;
  return lines.map((line) => {
    const opener = FENCE_LINE.exec(line)?.[1];
    if (fence !== null) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
      return true;
    }
    if (opener !== undefined) fence = opener;
    return opener !== undefined;
  });
}

/**
 * `markdown` without the line breaks that end a block and the lines of spaces alone, outside code
 * blocks. The converter writes each `<br>` as a hard line break, two spaces and a line feed, also
 * where a paragraph ends (`Text<br></p>`) or a second one follows (`<br><br>`, a line of two
 * spaces). Markdown reads neither as a line break, since a line of spaces is a blank line and a
 * block's last line breaks nowhere, so the spaces only cost a reader, and a model, tokens. What
 * renders is the same.
 *
 * @example trimBlockEndBreaks('A  \n  \nB  ') // 'A\n\nB'
 */
export function trimBlockEndBreaks(markdown: string): string {
  if (!/ \n|[ \t]$/.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  const fenced = fencedLines(lines);
  lines.forEach((line, i) => {
    if (!fenced[i] && /^[ \t]+$/.test(line)) lines[i] = '';
  });
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (!fenced[i] && (next === undefined || next === '')) lines[i] = line.trimEnd();
  });
  return lines.join('\n');
}
