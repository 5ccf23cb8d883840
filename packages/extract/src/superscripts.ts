/**
 * Raised digits and signs written as such: `10<sup>6</sup>`, `E = mc<sup>2</sup>`, `Ca<sup>2+</sup>`.
 * A DOM's text reads them inline, `106` and `mc2`, another number or a word; Unicode has each of
 * these characters raised (`10⁶`, `mc²`, `Ca²⁺`), which the text and the markdown then show as the
 * page does. The embedded index's analysis folds them back (NFKC), so its tokens are unchanged.
 */

const RAISED: Readonly<Record<string, string>> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '+': '⁺',
  '-': '⁻',
  '−': '⁻',
  '=': '⁼',
  '(': '⁽',
  ')': '⁾',
};
/** A superscript that Unicode can raise: digits and signs only, as a power, a charge or a note's number. */
const RAISABLE = /^[0-9+\-−=()]{1,6}$/;
/** A price's whole units, which shops follow with its cents raised (`$549<sup>00</sup>`). */
const PRICE_UNITS = /[$€£¥₹]\s?\d[\d,]*$/u;

/**
 * Replaces each `<sup>` among `elements` that holds only digits and signs (no element: a footnote's
 * link is footnotes.ts's) and follows a letter or digit by its raised characters (edits the
 * document); a price's raised cents are written after a point (`$549.00`). Returns how many.
 */
export function raiseSuperscripts(elements: readonly Element[]): number {
  let raised = 0;
  for (const el of elements) {
    if (el.localName.toLowerCase() !== 'sup' || el.firstElementChild !== null || !el.isConnected) continue;
    const text = (el.textContent ?? '').trim();
    const before = textBefore(el);
    if (!RAISABLE.test(text) || !/[\p{L}\p{N})\]]$/u.test(before)) continue;
    const cents = /^\d\d$/.test(text) && PRICE_UNITS.test(before);
    el.replaceWith(
      el.ownerDocument.createTextNode(cents ? `.${text}` : Array.from(text, (c) => RAISED[c] ?? c).join('')),
    );
    raised++;
  }
  return raised;
}

/** The text of the node just before `el` (its previous sibling), or '' when it comes first. */
function textBefore(el: Element): string {
  const node = el.previousSibling;
  return node === null ? '' : (node.textContent ?? '');
}
