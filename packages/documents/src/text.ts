/**
 * Tidies extracted text: Unix newlines, no control characters, runs of blanks collapsed, blank
 * lines at most one in a row, and at most `maxChars` characters (cut at a word boundary when one
 * is near, never inside a surrogate pair).
 */
export function tidyText(raw: string, maxChars: number): string {
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(/[\f\v\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f\ufffe\uffff]/g, '')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return truncate(text, maxChars);
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const space = text.lastIndexOf(' ', end);
  const cut = space > end - 200 && space > 0 ? space : end;
  return text.slice(0, cut).trimEnd();
}

/**
 * Tidies Markdown like {@link tidyText} but keeps leading spaces (list nesting, code indentation):
 * Unix newlines, no control characters, no trailing blanks, at most one blank line in a row.
 */
export function tidyMarkdown(raw: string, maxChars: number): string {
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(/[\f\v\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f\ufffe\uffff]/g, '')
    // Only from the first blank of a run: tried from every blank, a long run not at a line's end
    // was rescanned from each of them (quadratic: 200,000 spaces took 38 s).
    .replace(/(?<![ \t\u00a0])[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return truncate(text, maxChars);
}
