/**
 * Code blocks whose lines a stylesheet lays out (edits the page). Read as text, two kinds lose
 * what a browser shows:
 * - A line wrapped in an element its class names a line (`gatsby-highlight-code-line`, a
 *   highlighted line; Shiki's `line`), which the stylesheet shows as a block of its own: the
 *   highlighter left out the newline after it, and the next line ran on
 *   (`// Declare a new state variable  const [count…` on legacy.reactjs.org). A newline goes after it.
 * - Lines the block hides until a button shows them: mdBook's `<span class="boring">` (the
 *   `fn main() {` around a Rust example), which its stylesheet hides. mdBook builds the Rust book
 *   and most Rust projects' guides. They go.
 */

/** A class that names a line of code: a last word `line` (`code-line`, `token-line`, `line`), not `line-number`. */
const LINE_CLASS = /(?:^|[\s_-])line(?:\s|$)/i;
/** mdBook's class for the lines of an example its reader hides until asked (`.boring { display: none }`). */
const HIDDEN_LINE_CLASS = /(?:^|\s)boring(?:\s|$)/;

/** Applies both (see the module's comment) in each `<pre>` of `elements`; returns how many lines were mended. */
export function mendCodeLines(elements: readonly Element[]): number {
  let mended = 0;
  // Through each block's spans: asking every span of the page for its <pre> cost 10% of the extraction.
  for (const pre of elements) {
    if (pre.localName.toLowerCase() !== 'pre' || !pre.isConnected) continue;
    // Spans only: a line that is a block (Docusaurus's `<div class="token-line">`) is broken by flattenCodeLines.
    for (const el of Array.from(pre.getElementsByTagName('span'))) {
      const cls = el.getAttribute('class');
      if (cls === null || cls.length > 200 || !el.isConnected) continue;
      if (HIDDEN_LINE_CLASS.test(cls)) {
        el.remove();
        mended++;
      } else if (LINE_CLASS.test(cls) && runsOn(el)) {
        el.after(el.ownerDocument.createTextNode('\n'));
        mended++;
      }
    }
  }
  return mended;
}

/** Whether the text after a line element continues on its line: it has no newline at its end nor before what follows. */
function runsOn(line: Element): boolean {
  if (/\n\s*$/.test(line.textContent ?? '')) return false;
  let last: Node | null = line.lastChild;
  while (last !== null && last.nodeType === 1 && (last as Element).localName.toLowerCase() !== 'br')
    last = last.lastChild;
  if (last !== null && last.nodeType === 1) return false;
  const next = line.nextSibling;
  if (next === null) return false;
  if (next.nodeType === 1 && (next as Element).localName.toLowerCase() === 'br') return false;
  return !/^[^\S\n]*\n/.test(next.textContent ?? '');
}
