import { decodeHTML } from 'entities';
import { GLOBAL_ESCAPE } from './markdown-escapes.js';
import { BLOCK, startsWord, walkElements } from './text.js';

/*
 * The white space of the content as a browser shows it, before node-html-markdown converts it
 * (see markdown.ts): the converter drops some spaces that part words and keeps others that a
 * browser does not show.
 */

/** Elements that lay their content out as a block of its own: the plain text's, and table cells. */
export const BLOCKS: ReadonlySet<string> = new Set([...BLOCK, 'td', 'th']);
/** Elements whose text keeps its line breaks. */
const PREFORMATTED = new Set(['pre', 'textarea', 'listing', 'xmp', 'plaintext']);

/**
 * Writes the white space of `root`'s text as a browser shows it (edits `root`), outside
 * preformatted text: a line break inside a line as a space, and none at the start or the end of a
 * block's text, or of a line after a `<br>`. node-html-markdown drops a text's leading line break
 * after an inline element, so pretty-printed markup (`<strong>Note:</strong>` then a new line) came
 * out `**Note:**In this`; and it keeps a space that starts a paragraph (`<p> Digital marketing`),
 * which then began its line.
 */
export function collapseLineBreaks(root: Element): void {
  // linkedom parts a text at each character reference (`a&nbsp;&nbsp;b` is four texts), and a run
  // of blank texts was walked back over from each of them: 20,000 `&nbsp;` took 7 s. One text each.
  root.normalize();
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? '';
      if (!/^\s|\s$|[\r\n]/.test(text)) continue;
      let spaced = text.replace(/[^\S\u00a0]*[\r\n][^\S\u00a0]*/g, ' ');
      // Non-breaking spaces too: at a block's edge they only indent it.
      if (/^\s/.test(spaced) && atBlockEdge(node, true)) spaced = spaced.trimStart();
      if (/\s$/.test(spaced) && atBlockEdge(node, false)) spaced = spaced.trimEnd();
      if (spaced !== text) node.nodeValue = spaced;
    } else if (node.nodeType === 1 && !PREFORMATTED.has((node as Element).localName.toLowerCase())) {
      for (let child = node.firstChild; child !== null; child = child.nextSibling) stack.push(child);
    }
  }
}

/** How many inline elements up a block's edge is looked for. */
const MAX_EDGE_DEPTH = 20;

/**
 * Whether `node` starts (or ends) a block's text: nothing but blank text stands before (after) it,
 * up through the inline elements around it, until a block, a block beside it, or a `<br>` (also as
 * the last thing in the inline element before it).
 */
function atBlockEdge(node: Node, start: boolean): boolean {
  let current = node;
  for (let depth = 0; depth < MAX_EDGE_DEPTH; depth++) {
    let sibling = start ? current.previousSibling : current.nextSibling;
    while (sibling !== null && sibling.nodeType === 3 && !/\S/.test(sibling.nodeValue ?? '')) {
      sibling = start ? sibling.previousSibling : sibling.nextSibling;
    }
    if (sibling !== null) {
      if (sibling.nodeType !== 1) return false;
      // A line break closing the inline element before (`<strong>Q2. …?<br></strong> Experts`).
      let leaf: Node = sibling;
      while (
        leaf.nodeType === 1 &&
        !BLOCKS.has(leaf.nodeName.toLowerCase()) &&
        (start ? leaf.lastChild : leaf.firstChild)
      ) {
        leaf = (start ? leaf.lastChild : leaf.firstChild) as Node;
      }
      const name = leaf.nodeName.toLowerCase();
      return leaf.nodeType === 1 && (BLOCKS.has(name) || name === 'br');
    }
    const parent = current.parentNode;
    if (parent === null || parent.nodeType !== 1 || BLOCKS.has(parent.nodeName.toLowerCase())) return true;
    current = parent;
  }
  return false;
}

/**
 * Moves the spaces a link's text begins or ends with out of the link (edits `root`):
 * node-html-markdown keeps them inside the brackets and none outside, so `<a>new report </a>from`
 * came out `[new report ](…)from`.
 */
export function spaceOutsideLinks(root: Element): void {
  const doc = root.ownerDocument;
  for (const link of Array.from(root.getElementsByTagName('a'))) {
    if (trimEdge(link, false)) link.after(doc.createTextNode(' '));
    if (trimEdge(link, true)) link.before(doc.createTextNode(' '));
  }
}

/** Text nodes read at most at a link's edge for its spaces (a link around a card holds many). */
const MAX_EDGE_NODES = 20;

/**
 * Trims the spaces at the start (or the end) of `el`'s text, through the blank text nodes there,
 * in whatever elements they are; whether any went.
 */
function trimEdge(el: Element, start: boolean): boolean {
  const stack: Node[] = [el];
  let trimmed = false;
  for (let seen = 0; stack.length > 0 && seen < MAX_EDGE_NODES; ) {
    const node = stack.pop() as Node;
    if (node.nodeType === 1) {
      if ((node as Element).localName.toLowerCase() === 'img') return trimmed;
      const children = Array.from(node.childNodes);
      // The child at the edge is popped first.
      stack.push(...(start ? children.reverse() : children));
      continue;
    }
    if (node.nodeType !== 3) continue;
    seen++;
    const text = node.nodeValue ?? '';
    const kept = start ? text.trimStart() : text.trimEnd();
    if (kept !== text) {
      node.nodeValue = kept;
      trimmed = true;
    }
    if (kept !== '') return trimmed;
  }
  return trimmed;
}

/** Inline elements that only style their text. */
const STYLING = ['strong', 'b', 'em', 'i', 'u', 's', 'span', 'font', 'mark', 'small', 'sup', 'sub'];

/**
 * Replaces each styling element that holds only a space by that space (edits `root`):
 * node-html-markdown drops it, space and all, so `</a><strong> </strong>that` joined two words.
 * One that holds only line breaks is replaced by them: the converter dropped those too, so
 * `<b>Skin Types:</b><b><br></b>Suitable` came out `**Skin Types:**Suitable`, which markdown does
 * not read as bold. A blank `<code>` goes too, outside a code block: the converter wrote it as an
 * empty code span, two backticks (`a <code> </code> b` came out `a ``b`).
 */
export function blankInlinesAsSpaces(root: Element): void {
  const doc = root.ownerDocument;
  for (const name of [...STYLING, 'code']) {
    for (const el of Array.from(root.getElementsByTagName(name))) {
      if (el.parentNode === null) continue;
      if (el.firstElementChild !== null) {
        if (name !== 'code' && holdsOnlyLineBreaks(el)) el.replaceWith(...Array.from(el.children));
        continue;
      }
      if (name === 'code' && el.closest('pre') !== null) continue;
      const text = el.textContent ?? '';
      if (text !== '' && /^[^\S\u00a0]+$/.test(text)) el.replaceWith(doc.createTextNode(' '));
      else if (text === '' && name === 'code') el.remove();
    }
  }
}

/**
 * Whether an element holds line breaks and nothing else but white space, as its own children (a
 * look at each element's children only, so that nested styling costs no more than its size).
 */
function holdsOnlyLineBreaks(el: Element): boolean {
  let breaks = 0;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 1) {
      if ((child as Element).localName.toLowerCase() !== 'br') return false;
      breaks++;
    } else if (child.nodeType === 3 && !/^[^\S\u00a0]*$/.test(child.nodeValue ?? '')) return false;
  }
  return breaks > 0;
}

/** Elements shown as something, not as text: a space after one still parts it from a word. */
const REPLACED = new Set(['img', 'picture', 'video', 'audio', 'iframe', 'svg', 'canvas', 'object', 'embed', 'input']);

/**
 * Drops the white space a text starts with when the text before it in the same line (across inline
 * elements) ends with some, as a browser shows it (edits `root`), outside preformatted text:
 * node-html-markdown collapses spaces inside one text only, so `Sale <span> Sold out</span>` and
 * `</a> <span> (Score:5)` came out with two spaces. At a line's start no-break spaces go too:
 * a browser indents with them, markdown cannot, and the converter wrote them as spaces that opened
 * the line (` Free for 10 Users`, after an icon font's empty `<i>`), four of them a code block.
 */
export function collapseSpaceRuns(root: Element): void {
  // At a line's start, a space shows nothing.
  let spaceBefore = true;
  let lineStart = true;
  const walk = (el: Element): void => {
    for (let child = el.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        let text = child.nodeValue ?? '';
        const leading = lineStart ? /^\s+/ : spaceBefore ? /^[^\S\u00a0]+/ : null;
        if (leading?.test(text)) {
          text = text.replace(leading, '');
          child.nodeValue = text;
        }
        if (text !== '') {
          spaceBefore = /[^\S\u00a0]$/.test(text);
          lineStart = false;
        }
        continue;
      }
      if (child.nodeType !== 1) continue;
      const name = (child as Element).localName.toLowerCase();
      if (PREFORMATTED.has(name) || REPLACED.has(name)) {
        spaceBefore = false;
        lineStart = false;
      } else if (BLOCKS.has(name) || name === 'br') {
        spaceBefore = true;
        lineStart = true;
        walk(child as Element);
        spaceBefore = true;
        lineStart = true;
      } else {
        walk(child as Element);
      }
    }
  };
  walk(root);
}

/**
 * A template's value written where it had none (`alt="null"`, `alt="undefined"`, a JavaScript
 * object's `[object Object]`): no words for the picture.
 */
const UNFILLED_ALT = /^(?:null|undefined|nan|\[object object\])$/i;

/**
 * What markdown would read as markup in a picture's alternative text, escaped: a backtick opened a
 * code span that ran past the `](` (`![the `ls` output](…)` showed as text), a bracket ended the
 * text, a star or an underscore made emphasis. The characters escaped in a text (GLOBAL_ESCAPE),
 * and `<`, which opens an HTML tag.
 */
const ALT_ESCAPE = new RegExp(`<|${GLOBAL_ESCAPE[0].source}`, 'gu');
/** A character reference, in an alt that holds text escaped twice (`she&amp;#039;s`, read `she&#039;s`). */
const CHARACTER_REFERENCE = /&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{1,31});/i;
/** A closing tag or a line break: an alt that holds markup as text, not a stray `<` (`a < b`, `<b>` alone). */
const ALT_MARKUP = /<\/[a-z][a-z\d]*\s*>|<br\s*\/?>/i;
/** A tag of that markup: a line break a space, the rest nothing. */
const ALT_TAG = /<\/?([a-z][a-z\d]*)(?:\s[^<>]*)?\/?>/gi;

/**
 * An alt as a reader should see it when a site escaped it twice or wrote HTML into it: its
 * character references decoded once (`she&#039;s` is `she's`, as titleText reads a title) and its
 * tags left out (`Can you spot it?<br><small>Photo by <a href="…">Ricardo</a></small>`, a picture's
 * caption copied into its alt; `Enjoy the beauty of &lt;em&gt;nature&lt;/em&gt;`).
 */
function plainAlt(alt: string): string {
  const decoded = CHARACTER_REFERENCE.test(alt) ? decodeHTML(alt) : alt;
  return ALT_MARKUP.test(decoded)
    ? decoded.replace(ALT_TAG, (_, name: string) => (/^br$/i.test(name) ? ' ' : ''))
    : decoded;
}

/** A backslash and a double quote in a title, which markdown writes between double quotes. */
const TITLE_ESCAPE = /[\\"]/g;

/**
 * Writes each picture's alternative text with its white space collapsed and trimmed, and escaped
 * for markdown (edits `root`; see ALT_ESCAPE): node-html-markdown writes it as it stands,
 * `![Car Maintenance Schedule ](…)`. An unfilled template value is no text (`![null](…)`, found
 * dogfooding a docs site), and an alt escaped twice or holding markup is read as text (see
 * plainAlt). The titles of pictures and links, which it writes in double quotes after the address,
 * are collapsed the same way (`"Frowning face    :frowning2:"`, a forum's emoji), and a double
 * quote in one escaped: `"See who reacted "Like""` ended the title early, and the whole link
 * showed as text.
 */
export function writeAltsAndTitles(root: Element): void {
  const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
  // One walk for both: a picture's alt and title, a link's title.
  for (const el of Array.from(root.querySelectorAll('img, a[title]'))) {
    const alt = el.localName.toLowerCase() === 'img' ? el.getAttribute('alt') : null;
    if (alt !== null) {
      const collapsed = collapse(plainAlt(alt));
      const written = UNFILLED_ALT.test(collapsed) ? '' : collapsed.replace(ALT_ESCAPE, '\\$&');
      if (written !== alt) el.setAttribute('alt', written);
    }
    const title = el.getAttribute('title');
    if (title === null) continue;
    const written = collapse(title).replace(TITLE_ESCAPE, '\\$&');
    if (written !== title) el.setAttribute('title', written);
  }
}

/**
 * Parts two words that only the page's styles set apart, as the plain text does (see startsWord in
 * text.ts), with a space between the two inline elements (edits `root`), outside code:
 * `<span>amount</span><span>integer</span><span>Required</span>` came out `amountintegerRequired`
 * where the text reads `amountinteger Required`.
 */
export function spaceStyledWords(root: Element): void {
  const doc = root.ownerDocument;
  walkElements(root, (el) => {
    const name = el.localName.toLowerCase();
    // Every <pre> holds its code in a <code> by now (see fenceCodeBlocks).
    if (name === 'code') return false;
    const next = el.nextSibling;
    if (next === null || next.nodeType !== 1 || BLOCKS.has(name)) return true;
    const nextName = (next as Element).localName.toLowerCase();
    if (BLOCKS.has(nextName) || nextName === 'br' || nextName === 'code') return true;
    if (startsWord(el.textContent ?? '', next.textContent ?? '')) el.after(doc.createTextNode(' '));
    return true;
  });
}
