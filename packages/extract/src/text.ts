import { CAPTION_ATTRIBUTE } from './captions.js';

/** Elements that start a new paragraph in the plain text (see blockText). */
export const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
]);
/** The heading elements. */
export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A letter or digit of a language that spaces its words (not Chinese or Japanese), ending a text or starting one. */
const WORD_END = /(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}]$/u;
const WORD_START = /^(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}]/u;
/** Pictures shown between words, which a reader sees as apart (and which show in a block of no text). */
export const PICTURES = new Set(['img', 'picture', 'svg', 'video', 'iframe', 'canvas', 'object', 'embed']);
/** Elements whose content is never visible text. */
export const INVISIBLE = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'svg',
  'iframe',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'select',
  'textarea',
  'button',
  'input',
]);
/** Page chrome dropped when we fall back to the whole body. */
const BOILERPLATE = new Set(['nav', 'header', 'footer', 'aside', 'form', 'menu']);
/** Utility classes that hide a block until a script shows it (the `hidden` attribute, in CSS). */
export const HIDING_CLASSES: ReadonlySet<string> = new Set(['hide', 'hidden', 'd-none', 'is-hidden', 'invisible']);
/** An inline style that hides its element (`display: none`, `visibility: hidden`). */
export const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** How {@link blockText} walks a subtree. */
export interface BlockTextOptions {
  /** Also skip nav, header, footer, aside, form and menu elements. */
  skipBoilerplate?: boolean;
  /**
   * Write a table's rows on lines of their own, a row's cells and each cell's blocks parted by a
   * space (a Word table's cells hold their text in paragraphs, which would each be one).
   */
  rowsAsLines?: boolean;
}

/** A table's parts that, with {@link BlockTextOptions.rowsAsLines}, part no paragraphs. */
const TABLE_INNER_PARTS = new Set(['thead', 'tbody', 'tfoot', 'tr']);

/**
 * The visible text of a DOM subtree as plain text: block elements become paragraphs separated by
 * a blank line (`\n\n`), `<br>` a line break, table cells are joined with a space, words on either
 * side of a picture are two (`2024<img>If` reads `2024 If`; not in Chinese or Japanese), runs of
 * whitespace collapse to one space (a `<pre>` block keeps its lines and their indentation), no HTML
 * remains. The captions of pictures are left out (see captions.ts).
 */
export function blockText(root: Node, options: BlockTextOptions = {}): string {
  const paragraphs: string[] = [];
  let current = '';
  // The end of `current`, for the tests of where words meet: reading the end of a string built by
  // appending copies all of it, and a paragraph of 150,000 inline elements took 20 s.
  let end = '';
  const append = (text: string): void => {
    current += text;
    end = (text.length >= 4 ? text : end + text).slice(-4);
  };
  const flush = (preformatted = false): void => {
    const text = preformatted ? tidyPreformatted(current) : tidy(current);
    if (text !== '') paragraphs.push(text);
    current = '';
    end = '';
  };
  // Set after an inline element that another element follows directly (see startsWord).
  let gap = false;
  // Set after a picture: the words on either side of it are not one word (`2024<img>If you…`).
  let afterPicture = false;
  const walk = (node: Node, pre: boolean, code: boolean, cell: boolean): void => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const value = child.nodeValue ?? '';
        if (gap && child.previousSibling === null && startsWord(end, value)) append(' ');
        else if (afterPicture && WORD_END.test(end) && WORD_START.test(value)) append(' ');
        gap = false;
        afterPicture = false;
        append(pre ? value.replace(/\n/g, '\u2028') : value);
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      const name = el.nodeName.toLowerCase();
      if (PICTURES.has(name) && !pre && !code) afterPicture = true;
      if (INVISIBLE.has(name) || isHidden(el) || el.hasAttribute(CAPTION_ATTRIBUTE)) continue;
      if (options.skipBoilerplate && (BOILERPLATE.has(name) || el.getAttribute('role') === 'navigation')) continue;
      if (name === 'br') {
        append(cell ? ' ' : '\u2028');
        continue;
      }
      if (name === 'td' || name === 'th') append(' ');
      const rowPart = options.rowsAsLines === true && TABLE_INNER_PARTS.has(name);
      const block = BLOCK.has(name) && !cell && !rowPart;
      if (block) flush();
      else if (cell && BLOCK.has(name)) append(' ');
      if (child.previousSibling !== null && child.previousSibling.nodeType !== 1) gap = false;
      const inCode = code || pre || name === 'pre' || name === 'code';
      const inCell = cell || (options.rowsAsLines === true && (name === 'td' || name === 'th'));
      walk(el, pre || name === 'pre', inCode, inCell);
      if (block) flush(name === 'pre' && !pre);
      if (rowPart && name === 'tr') append('\u2028');
      gap = !block && !inCode && el.nextSibling?.nodeType === 1;
    }
  };
  walk(root, false, false, false);
  flush();
  return paragraphs.join('\n\n');
}

/**
 * Visits the elements under `root` (not itself) depth-first in document order; the descendants of
 * an element for which `visit` returns false are not visited.
 */
export function walkElements(root: ParentNode, visit: (el: Element) => boolean): void {
  const stack: Element[] = [];
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c);
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (!visit(el)) continue;
    for (let c = el.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c);
  }
}

/**
 * The text of `root` (as `textContent`), but at most its first `limit` characters past which the
 * walk stops: a check that a container holds little besides a part of it stays linear however
 * big the container.
 */
export function textUpTo(root: Node, limit: number): string {
  let text = '';
  const stack: Node[] = [root];
  while (stack.length > 0 && text.length <= limit) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    else for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return text;
}

/**
 * Whether `el` has the `hidden` attribute in its hiding state: `hidden="until-found"` marks content
 * the page collapses (an accordion's panel) that a browser's find-in-page and a link to a fragment
 * in it reveal, and that is the page's text.
 */
export function hasHiddenAttribute(el: Element): boolean {
  const hidden = el.getAttribute('hidden');
  return hidden !== null && hidden.toLowerCase() !== 'until-found';
}

/** Whether `el` itself is hidden: `hidden`, `aria-hidden="true"` or an inline hiding style. */
export function isHidden(el: Element): boolean {
  if (hasHiddenAttribute(el) || el.getAttribute('aria-hidden') === 'true') return true;
  const style = el.getAttribute('style');
  return style !== null && HIDDEN_STYLE.test(style);
}

/**
 * Whether text that an element begins right after another element's starts a new word: a
 * capital after a word of two or more letters or digits that ends in a small one
 * (`<span>Gabriel Peal</span><span>OpenAI</span>`, a card's name and role that only the page's
 * styles set apart), or a capitalized word after two capitals (`<span>HOKA</span><span>Clifton</span>`,
 * a brand and its model; `XS` and `Extra small`). A drop cap (`<b>I</b><span>f you…`), capitals split
 * by markup (`NA`, `SA`) and words split by markup in lower case run on, and code is read as written.
 * On the WCXB pages the second rule split 22 pages' words (`SQL Data`, `PST View`, `HQ Engineering`),
 * F1 unchanged in both halves, as the references do not hold every such line.
 */
export function startsWord(before: string, text: string): boolean {
  if (/[\p{L}\p{N}][\p{Ll}\p{N}]$/u.test(before)) return /^\p{Lu}/u.test(text);
  return /\p{Lu}\p{Lu}$/u.test(before) && /^\p{Lu}\p{Ll}/u.test(text);
}

/**
 * A `<pre>` block's text as it is shown: each line's indentation and inner spaces kept (code reads
 * by them), its ends trimmed, and no blank line before or after it. U+2028 marks its line breaks.
 */
function tidyPreformatted(text: string): string {
  const lines = text.split('\u2028').map((line) => line.replace(/\u00a0/g, ' ').trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/** Collapses whitespace; U+2028 marks a kept line break (from `<br>` or inside `<pre>`). */
function tidy(text: string): string {
  return text
    .split('\u2028')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => VISIBLE.test(line))
    .join('\n');
}

/**
 * A character a reader sees: not whitespace, and not one that shows nothing (a zero-width joiner or
 * space, a soft hyphen). Page builders fill empty paragraphs with one (Webflow writes `<p>&zwj;</p>`),
 * which is no line of text.
 */
const VISIBLE = /[^\s\p{Default_Ignorable_Code_Point}]/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

/**
 * Text or markdown without its lines that show nothing, and without the paragraphs (parted by a
 * blank line) left empty by that: a zero-width joiner the mojibake repair gave back (`â€\u008d` →
 * `\u200d`), as tidy leaves out such a line of the page. Blank lines stay (inside a code block too).
 */
export function withoutInvisibleParagraphs(text: string): string {
  if (!IGNORABLE.test(text)) return text;
  return text
    .split('\n\n')
    .flatMap((paragraph) => {
      if (!IGNORABLE.test(paragraph)) return [paragraph];
      const lines = paragraph.split('\n').filter((line) => line === '' || VISIBLE.test(line));
      return lines.some((line) => line !== '') ? [lines.join('\n')] : [];
    })
    .join('\n\n');
}

/** Collapses all whitespace of a short string (titles, names) to single spaces. */
export function squash(text: string | null | undefined): string {
  return (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
}

/**
 * The first line of `text` that has words, on one line and cut at a word to at most `maxChars`
 * (see {@link truncate}); '' when it has none. What names a page that names itself nowhere.
 */
export function leadLine(text: string, maxChars: number): string {
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    if (line.trim() !== '') return truncate(line, maxChars);
    at = end < 0 ? text.length : end + 1;
  }
  return '';
}

/** {@link squash}ed text of at most `maxChars`, cut after a word when one ends past half of it, with `…`. */
export function truncate(text: string, maxChars: number): string {
  const flat = squash(text);
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * Puts an element's children in its place and removes it, moving them one by one:
 * `el.replaceWith(...el.childNodes)` spreads them as arguments, and an element of tens of
 * thousands of children (40,000 links and words inside one unclosed `<b>`) overflows the stack.
 */
export function unwrap(el: Element): void {
  const parent = el.parentNode;
  if (parent === null) return;
  for (let child = el.firstChild; child !== null; child = el.firstChild) parent.insertBefore(child, el);
  el.remove();
}

/** Moves `from`'s children to the end of `to`, one by one (see {@link unwrap}). */
export function appendChildrenOf(from: Node, to: Node): void {
  for (let child = from.firstChild; child !== null; child = from.firstChild) to.appendChild(child);
}

/** Characters of a string that are not whitespace. */
export function visibleChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 0xa0) n++;
  }
  return n;
}

/**
 * Whether more than `max` visible characters of text follow `el` up to the end of `root` (its
 * following siblings', up the tree): the count stops once past `max`, so an element early in a long
 * text costs a few siblings, not the rest of the text.
 */
export function hasTextAfter(el: Element, root: Element, max: number): boolean {
  let after = 0;
  for (let up: Element | null = el; up !== null && up !== root; up = up.parentElement) {
    for (let next = up.nextSibling; next !== null; next = next.nextSibling) {
      after += visibleChars(next.textContent ?? '');
      if (after > max) return true;
    }
  }
  return false;
}

/**
 * The text nodes under `root`, in document order, of at most `maxChars` characters that `test`
 * accepts: one walk that reads only short texts, not every element's (a copy of its whole text each).
 */
export function shortTextNodes(root: Node, maxChars: number, test: (value: string) => boolean): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const type = node.nodeType;
    if (type === 3) {
      const value = node.nodeValue ?? '';
      if (value.length <= maxChars && test(value)) found.push(node);
    } else if (type === 1) for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return found;
}
