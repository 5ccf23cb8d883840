import { CODE_SPANS } from './code-blocks.js';
import { BLOCKS } from './markdown-whitespace.js';
import { PICTURES, unwrap } from './text.js';

/*
 * Markdown reads `**` as closing bold only when it does not stand between punctuation and a letter
 * (CommonMark's flanking rules), and as opening bold only when it does not stand between a letter
 * and punctuation. A page's bold that ends in punctuation right before a word, `<b>李金泽：</b>政府`
 * or `<b>Burek (UK)</b>Reviewed`, came out `**李金泽：**政府`: no bold, and its stars showing.
 */

/** Bold and italics, which the converter writes between marks. */
export const EMPHASIS_TAGS: ReadonlySet<string> = new Set(['strong', 'b', 'em', 'i']);
const EMPHASIS = Array.from(EMPHASIS_TAGS).join(', ');

/** A character markdown counts as punctuation (Unicode P and S, as CommonMark 0.31 does). */
const PUNCTUATION = /[\p{P}\p{S}]/u;
const WORD = /[\p{L}\p{N}]/u;
/** Scripts written without spaces between words: punctuation moves out of the marks, no space goes in. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;

/** Pictures, which emphasis changes nothing of. */
const PICTURE = 'img, picture, svg';

/** How many nodes the look for the character beside an element walks before it gives up. */
const MAX_STEPS = 64;

/**
 * Fits each bold or italic element's marks where markdown reads them (edits `root`), outside code.
 * Emphasis of punctuation alone beside a word is unwrapped (`Win<b>+</b>Space`, `top<b>.</b>`): it
 * shows nothing a reader misses. Punctuation that opens the emphasis right after a word moves
 * before it (`real<b>: Those cups</b>` reads `real: **Those cups**`). Punctuation that ends it right
 * before a word moves after it where that word runs on (`**Gallery**’s`) or the text is written
 * without spaces (`**李金泽**：政府`); before a capital or a digit a space parts the two (`**Burek
 * (UK)** Reviewed`), as the page's layout does where it shows a bold label apart from its text.
 * Emphasis that holds only a link goes inside the link where a word stands beside it, and one that
 * holds only pictures is unwrapped.
 */
export function fitEmphasisMarks(root: Element): void {
  for (const el of Array.from(root.querySelectorAll(EMPHASIS))) {
    if (el.parentNode === null || el.closest('code, pre') !== null) continue;
    const text = el.textContent ?? '';
    if (text.trim() === '') {
      // Bold around a picture alone changes nothing a reader sees, and before a word its closing
      // marks, after the picture's `)`, showed as stars (`**![…](…)**Solo travelers`).
      if (el.querySelector(PICTURE) !== null) unwrap(el);
      continue;
    }
    if (!WORD.test(text)) {
      if (el.querySelector(PICTURE) === null && (isWord(charBeside(el, false)) || isWord(charBeside(el, true)))) {
        unwrap(el);
      }
      continue;
    }
    const link = onlyLink(el);
    if (link !== null) {
      if (isWord(charBeside(el, true)) || isWord(charBeside(el, false))) moveInto(el, link);
      continue;
    }
    if (PUNCTUATION.test(edgeText(el, true).charAt(0)) && isWord(charBeside(el, false))) moveOut(el, true);
    const end = edgeText(el, false);
    const last = end.charAt(end.length - 1);
    const after = charBeside(el, true);
    if (!PUNCTUATION.test(last) || after === null || !isWord(after)) continue;
    // A word that runs on in small letters (`Gallery’s`) or without spaces takes the punctuation.
    if (/\p{Ll}/u.test(after) || UNSPACED.test(after) || UNSPACED.test(last)) moveOut(el, false);
    else el.after(el.ownerDocument.createTextNode(' '));
  }
}

const isWord = (char: string | null): boolean => char !== null && WORD.test(char);

/** The link that is all an emphasis holds (white space aside), or null. */
function onlyLink(el: Element): Element | null {
  let link: Element | null = null;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 3 && (child.nodeValue ?? '').trim() === '') continue;
    if (link !== null || child.nodeType !== 1 || nameOf(child) !== 'a') return null;
    link = child as Element;
  }
  return link;
}

/**
 * Puts the emphasis inside the link it wraps (`<b><a>改善本条目</a></b>` becomes
 * `<a><b>改善本条目</b></a>`), which shows the same: written around the link, its closing marks
 * stood after the link's `)`, where markdown does not close emphasis before a letter
 * (`**[改善本条目](…)**或在` showed its stars).
 */
function moveInto(el: Element, link: Element): void {
  // The white space around the link stays between the words, outside both.
  for (let child = el.firstChild; child !== null && child !== link; child = el.firstChild) el.before(child);
  for (let child = el.lastChild; child !== null && child !== link; child = el.lastChild) el.after(child);
  el.before(link);
  for (let child = link.firstChild; child !== null; child = link.firstChild) el.appendChild(child);
  link.appendChild(el);
}

/** How many elements deep the text at an emphasis' edge is looked for. */
const MAX_EDGE_DEPTH = 8;

/**
 * The text node at the element's start (`start`) or end: its first or last child, or that of an
 * element there written as its content alone or as emphasis (`<b><span>: Those cups</span></b>`);
 * null when a link, code, a picture, a line break or a block stands at the edge.
 */
function edgeTextNode(el: Element, start: boolean): Node | null {
  let node: Node = el;
  for (let depth = 0; depth < MAX_EDGE_DEPTH; depth++) {
    const edge = start ? node.firstChild : node.lastChild;
    if (edge === null) return null;
    if (edge.nodeType === 3) return edge;
    if (edge.nodeType !== 1) return null;
    const name = nameOf(edge);
    if (BLOCKS.has(name) || name === 'br' || PICTURES.has(name)) return null;
    if (markAt(name, start, true) !== null && !EMPHASIS_TAGS.has(name)) return null;
    node = edge;
  }
  return null;
}

/** The text at the element's start (`start`) or end (see edgeTextNode); '' when none. */
function edgeText(el: Element, start: boolean): string {
  return edgeTextNode(el, start)?.nodeValue ?? '';
}

/**
 * Moves the punctuation that starts (`start`, with the spaces after it) or ends the element's text
 * out of it, when that text is at the element's edge (see edgeTextNode); the words stay inside.
 */
function moveOut(el: Element, start: boolean): void {
  const edge = edgeTextNode(el, start);
  if (edge === null) return;
  const value = edge.nodeValue ?? '';
  const run = (start ? /^[\p{P}\p{S}\s]+/u : /[\p{P}\p{S}]+$/u).exec(value)?.[0] ?? '';
  // All of the edge's text may go: the element holds words elsewhere (see fitEmphasisMarks).
  if (run === '') return;
  edge.nodeValue = start ? value.slice(run.length) : value.slice(0, -run.length);
  const moved = el.ownerDocument.createTextNode(run);
  if (start) el.before(moved);
  else el.after(moved);
}

/**
 * The mark markdown writes where a walk meets an element's edge: a link's brackets and parentheses,
 * a code span's backtick, emphasis marks. Null for an element written as its content alone.
 */
function markAt(name: string, forward: boolean, entering: boolean): string | null {
  if (name === 'a') return forward === entering ? (forward ? '[' : ')') : forward ? ']' : '[';
  if (CODE_SPANS.has(name)) return '`';
  if (EMPHASIS_TAGS.has(name)) return '*';
  return null;
}

/**
 * The character markdown shows right after (`forward`) or before the element in its line, a mark
 * of markdown's own included: null at a block's edge, a line break or a picture, or past
 * {@link MAX_STEPS} nodes walked.
 */
function charBeside(el: Element, forward: boolean): string | null {
  let node: Node = el;
  // Into the node's children next: never into the element itself.
  let enter = false;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    let next: Node | null = enter ? (forward ? node.firstChild : node.lastChild) : null;
    if (next === null) {
      next = forward ? node.nextSibling : node.previousSibling;
      if (next === null) {
        const parent = node.parentNode;
        if (parent === null || parent.nodeType !== 1 || BLOCKS.has(nameOf(parent))) return null;
        const mark = markAt(nameOf(parent), forward, false);
        if (mark !== null) return mark;
        node = parent;
        enter = false;
        continue;
      }
    }
    node = next;
    if (node.nodeType === 3) {
      const value = node.nodeValue ?? '';
      if (value !== '') return forward ? value.charAt(0) : value.charAt(value.length - 1);
      enter = false;
      continue;
    }
    const name = node.nodeType === 1 ? nameOf(node) : '';
    if (BLOCKS.has(name) || name === 'br' || PICTURES.has(name)) return null;
    const mark = markAt(name, forward, true);
    if (mark !== null) return mark;
    enter = name !== '';
  }
  return null;
}

const nameOf = (node: Node): string => (node as Element).localName.toLowerCase();
