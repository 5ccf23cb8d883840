import { parseHTML } from 'linkedom';
import { idLookup } from './element-ids.js';
import { markFootnotes } from './footnotes.js';
import { dropLineNumbers } from './line-numbers.js';
import { mathAsTex, mathJaxAsTex } from './math-tex.js';
import { flattenShadowRoots } from './shadow-roots.js';
import { appendChildrenOf, BLOCK } from './text.js';

type JsdomModule = typeof import('jsdom');
let jsdomModule: JsdomModule | undefined;

/**
 * jsdom is loaded on first use through Node's own `require`: it is only needed as the reference
 * and fallback, and its ESM-only dependencies load natively that way (Node 20.19+ `require(esm)`)
 * even inside test runners whose module loader cannot require ESM.
 */
function loadJsdom(): JsdomModule {
  // getBuiltinModule hands out Node's real `module`, which test runners do not patch.
  const { createRequire } = process.getBuiltinModule('node:module');
  jsdomModule ??= createRequire(import.meta.url)('jsdom') as JsdomModule;
  return jsdomModule;
}

/**
 * The DOM implementation that parses the page. `jsdom` is the reference (a spec-complete HTML5
 * parser); `linkedom` is several times faster and is the default because the golden tests show
 * the same extraction quality (see bench/extract.mjs).
 */
export type DomImpl = 'jsdom' | 'linkedom';

/** A parsed document and how to release it. */
export interface ParsedDocument {
  document: Document;
  /** The implementation that built it (linkedom hands shapes it cannot build to jsdom). */
  impl: DomImpl;
  close(): void;
}

const COMMENT_NODE = 8;
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Openings of what no extractor reads; attribute text is bounded so a stray `<script` stays linear. */
const INERT_OPEN = /<(script|style|svg)\b([^>]{0,1000})>|<!(?:--|\[CDATA\[)/gi;
/** Scripts kept: JSON-LD, and the TeX source of MathJax 2's formulas (read by mathJaxAsTex). */
const KEPT_SCRIPT = /application\/ld\+json|\btype\s*=\s*["']?\s*math\/tex/i;
const INERT_CLOSE: Readonly<Record<string, RegExp>> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  svg: /<\/svg\s*>/gi,
};

/**
 * The comments React's streaming rendering marks a Suspense boundary with (`<!--$?-->` before a
 * pending one's placeholder and fallback, `<!--/$-->` after; `<!--$-->` and `<!--$!-->` for a
 * complete and a failed one): kept, so the fallback can be told from the page (revealStreamedParts).
 */
const REACT_BOUNDARY_COMMENTS = ['<!--$?-->', '<!--/$-->', '<!--$-->', '<!--$!-->'];

/** C0 controls but tab, line feed, form feed and carriage return, and DEL: no text holds them. */
const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/**
 * The HTML without the control bytes a page may carry by mistake (a NUL in a title from a
 * database field, a form feed's neighbours): browsers drop or replace them, and in a page's title,
 * text or JSON-LD they only break what reads them.
 */
export function withoutControls(html: string): string {
  return CONTROL.test(html) ? html.replace(CONTROLS, '') : html;
}

/**
 * Drops what no extractor reads (scripts but JSON-LD and TeX, styles, comments but React's boundary
 * marks, inline SVG, a stray `<![CDATA[` up to its `>`) before parsing, so the DOM is smaller. One
 * forward scan, linear in the input whatever its shape (a regex with a lazy body would rescan to the
 * end for every unclosed `<script`). Like the HTML tokenizer, an unclosed script, style or comment
 * runs to the end of the document.
 */
export function stripInert(html: string): string {
  const open = new RegExp(INERT_OPEN.source, 'gi');
  const unclosed = new Set<string>();
  let out = '';
  let kept = 0;
  for (let m = open.exec(html); m !== null; m = open.exec(html)) {
    const start = m.index;
    let end: number;
    if (m[0].startsWith('<![')) {
      // `<![CDATA[` in HTML (outside SVG and MathML) is a bogus comment that ends at the first `>`,
      // as browsers parse it; the parser read it as a section running to `]]>` (a broken template's
      // stray `<![CDATA[` hid the whole page).
      const close = html.indexOf('>', open.lastIndex);
      end = close < 0 ? html.length : close + 1;
    } else if (m[0] === '<!--') {
      if (html[start + 4] === '$' || html[start + 4] === '/') {
        const mark = REACT_BOUNDARY_COMMENTS.find((c) => html.startsWith(c, start));
        if (mark) {
          open.lastIndex = start + mark.length;
          continue;
        }
      }
      const close = html.indexOf('-->', open.lastIndex);
      end = close < 0 ? html.length : close + 3;
    } else {
      const tag = (m[1] ?? '').toLowerCase();
      if (unclosed.has(tag)) continue;
      const closeRe = INERT_CLOSE[tag] as RegExp;
      closeRe.lastIndex = open.lastIndex;
      const close = closeRe.exec(html);
      if (tag === 'script' && KEPT_SCRIPT.test(m[2] ?? '')) {
        // Keep JSON-LD and MathJax's TeX whole, and do not look for comments or tags inside them.
        if (close) open.lastIndex = close.index + close[0].length;
        continue;
      }
      if (!close) {
        // An unclosed <svg> is just an element; stop looking for its end.
        if (tag === 'svg') {
          unclosed.add(tag);
          continue;
        }
        end = html.length;
      } else {
        end = close.index + close[0].length;
      }
    }
    out += html.slice(kept, start);
    kept = end;
    open.lastIndex = end;
  }
  return out + html.slice(kept);
}

/**
 * Makes the parsed `doc` read as a browser shows the page (edits it), on either DOM: streamed parts
 * put in place, shadow trees composed, formulas as their TeX, line numbers beside code removed,
 * footnotes marked, ruby readings left out, controls set apart. Each pass walks the tree, so it
 * runs only on a page whose `html` can need it.
 */
function readAsShown(doc: Document, html: string): void {
  if (html.includes('id="S:')) revealStreamedParts(doc);
  if (html.includes('shadowroot')) flattenShadowRoots(doc);
  if (html.includes('math/tex')) mathJaxAsTex(doc);
  if (html.includes('<math')) mathAsTex(doc);
  if (html.includes('<pre') || html.includes('<table')) dropLineNumbers(doc);
  if (html.includes('<sup')) markFootnotes(doc);
  if (html.includes('<rt')) dropRubyText(doc);
  if (html.includes('role=')) spaceWidgets(doc);
}

/**
 * Parses HTML without running scripts or loading anything: jsdom is built without `runScripts`
 * and `resources` (its defaults load nothing) and with a silent console; linkedom never loads.
 */
export function parseDocument(html: string, url: string, dom: DomImpl): ParsedDocument {
  if (dom === 'jsdom') {
    const { JSDOM, VirtualConsole } = loadJsdom();
    const jsdom = new JSDOM(html, {
      url: safeUrl(url),
      contentType: 'text/html',
      virtualConsole: new VirtualConsole(),
    });
    readAsShown(jsdom.window.document, html);
    return { document: jsdom.window.document, impl: 'jsdom', close: () => jsdom.window.close() };
  }
  // linkedom does not build the implied <html>/<body> of the HTML5 tree construction rules, and
  // anything before <html> becomes the root; when the shape is still wrong, jsdom parses it.
  const { document } = parseHTML(withBody(fromHtmlTag(withLineFeeds(html))));
  normalizeRoot(document as unknown as Document);
  if (document.documentElement?.nodeName !== 'HTML' || !document.body) {
    try {
      return parseDocument(html, url, 'jsdom');
    } catch {
      // jsdom cannot load in this runtime (see loadJsdom); linkedom's tree still has the text.
    }
  }
  readAsShown(document as unknown as Document, html);
  if (/<tr[\s>]/i.test(html)) addImpliedTbody(document as unknown as Document);
  return { document: document as unknown as Document, impl: 'linkedom', close: () => {} };
}

/**
 * The input with each line break as a line feed, as the HTML5 input stream gives it to the parser
 * (`\r\n` and a lone `\r` become `\n`); linkedom skips that step, so a page saved with Windows
 * line ends kept `\r` in its code blocks' text and markdown.
 */
function withLineFeeds(html: string): string {
  return html.includes('\r') ? html.replace(/\r\n?/g, '\n') : html;
}

/** Elements that belong in `<head>` when they stray between it and `<body>`. */
const HEAD_TAGS = new Set(['link', 'meta', 'style', 'script', 'base', 'title', 'noscript', 'template']);

/**
 * Puts `<html>`'s stray children where the HTML5 parser would: linkedom keeps an element between
 * `</head>` and `<body>` (a `<link>`) as a child of `<html>`, and its `document.body` then builds a
 * new empty body instead of returning the page's. Head elements before the body move into the
 * head, anything else (and a second body's content) into the body. So does what a template printed
 * after `</html>` (a whole article, on some sites), which linkedom leaves beside the root and a
 * browser shows at the body's end; comments stay where they are, as there. An element that cannot
 * be in `<head>` but was written there (a notice bar's `<div>`, a skip link), which linkedom keeps
 * in the head, opens the body in a browser: it moves to the body's start, in page order, while the
 * head's own elements stay. Must run before `.body` is read.
 */
function normalizeRoot(doc: Document): void {
  const root = doc.documentElement;
  if (!root) return;
  const children = Array.from(root.children);
  const head = children.find((el) => el.localName === 'head');
  const body = children.find((el) => el.localName === 'body');
  if (!body) return;
  for (let node = root.nextSibling; node !== null; ) {
    const next = node.nextSibling;
    if (node.nodeType !== COMMENT_NODE) body.appendChild(node);
    node = next;
  }
  // What goes to the body's start keeps its order: each is put before the body's first node.
  const start = body.firstChild;
  if (head) {
    for (let node = head.firstChild; node !== null; ) {
      const next = node.nextSibling;
      const stray =
        node.nodeType === ELEMENT_NODE
          ? !HEAD_TAGS.has((node as Element).localName)
          : node.nodeType === TEXT_NODE && (node as Text).data.trim() !== '';
      if (stray) body.insertBefore(node, start);
      node = next;
    }
  }
  let beforeBody = true;
  for (const child of children) {
    if (child === body) {
      beforeBody = false;
      continue;
    }
    if (child === head) continue;
    const name = child.localName;
    if (beforeBody && head && HEAD_TAGS.has(name)) head.appendChild(child);
    else if (name === 'body') {
      appendChildrenOf(child, body);
      child.remove();
    } else if (beforeBody) body.insertBefore(child, start);
    else body.appendChild(child);
  }
}

/**
 * React's streaming server rendering (Next.js and others) sends late parts of a page as
 * `<div hidden id="S:n">` after the shell, and a script moves each into place at its placeholder:
 * `<template id="P:n">` for a segment, `<template id="B:…">` for a boundary's content. Without
 * scripts they would stay hidden, or read as separate blocks after the page's footer: each is moved
 * where the script would put it, or shown where it is when its placeholder is missing. A boundary's
 * fallback (a `Loading…` line, a skeleton) is removed with its placeholder, as React's `$RC` does,
 * when the boundary's comments mark where it ends; a page saved without comments keeps it.
 */
function revealStreamedParts(doc: Document): void {
  const byId = idLookup(doc);
  for (const part of Array.from(doc.querySelectorAll('div[hidden]'))) {
    const id = part.getAttribute('id') ?? '';
    if (!id.startsWith('S:')) continue;
    // A segment (`$RS`) replaces the placeholder of its own number; a boundary's content (`$RC`)
    // goes where its boundary is, whose number the stripped script gave (the same one, most often).
    const placeholder = byId(`P:${id.slice(2)}`) ?? byId(`B:${id.slice(2)}`);
    const parent = placeholder?.parentNode;
    if (placeholder && parent && !part.contains(placeholder)) {
      const at = boundaryEnd(placeholder) ?? placeholder;
      while (part.firstChild) parent.insertBefore(part.firstChild, at);
      part.remove();
    } else part.removeAttribute('hidden');
  }
}

/**
 * For a pending boundary's placeholder (`<!--$?--><template id="B:n">`), removes the placeholder
 * and the fallback after it and returns the boundary's closing `<!--/$-->`, nested boundaries
 * counted; null, removing nothing, for a segment's placeholder or when the marks are missing.
 */
function boundaryEnd(placeholder: Element): ChildNode | null {
  const start = placeholder.previousSibling;
  if (start?.nodeType !== COMMENT_NODE || (start as Comment).data !== '$?') return null;
  let depth = 0;
  let end: ChildNode | null = null;
  for (let node = placeholder.nextSibling; node !== null; node = node.nextSibling) {
    if (node.nodeType !== COMMENT_NODE) continue;
    const data = (node as Comment).data;
    if (data === '$' || data === '$?' || data === '$!') depth++;
    else if (data === '/$') {
      if (depth === 0) {
        end = node;
        break;
      }
      depth--;
    }
  }
  if (end === null) return null;
  while (placeholder.nextSibling !== end) placeholder.nextSibling?.remove();
  placeholder.remove();
  (start as Comment).data = '$';
  return end;
}

/**
 * Removes ruby annotations (`<ruby>読<rt>よ</rt></ruby>む`: the reading printed small above a
 * Japanese or Chinese word) and their fallback parentheses (`<rp>`): read as text they run into
 * the word (`読よむ`), which then matches neither itself nor a search for it. The base text stays.
 */
function dropRubyText(doc: Document): void {
  for (const el of Array.from(doc.querySelectorAll('rt, rtc, rp'))) el.remove();
}

/**
 * ARIA roles of controls and items a browser draws as boxes of their own: a row of tabs, a menu's
 * items, a list's options or a group of buttons each stand apart however their tags meet.
 */
const WIDGET_ROLES = new Set([
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'button',
  'radio',
  'checkbox',
  'switch',
  'treeitem',
  'listitem',
]);

/**
 * Puts a space after each inline element with a control's or an item's role (see
 * {@link WIDGET_ROLES}) that the next element follows directly: `<span role="tab">PHP</span><span
 * role="tab">C#</span>` read `PHPC#`, one word that matches neither.
 */
function spaceWidgets(doc: Document): void {
  for (const el of Array.from(doc.querySelectorAll('[role]'))) {
    const next = el.nextSibling;
    if (next === null || next.nodeType !== ELEMENT_NODE || BLOCK.has(el.localName)) continue;
    if (!WIDGET_ROLES.has((el.getAttribute('role') ?? '').trim().toLowerCase())) continue;
    el.after(doc.createTextNode(' '));
  }
}

/**
 * Wraps rows written directly in a `<table>` in the `<tbody>` the HTML5 parser implies (linkedom
 * does not): Readability looks a fixed number of levels up for a table ancestor, so without it
 * blocks in table layouts (comment lists of old blogs) are judged differently than in a browser.
 */
function addImpliedTbody(doc: Document): void {
  for (const table of Array.from(doc.getElementsByTagName('table'))) {
    let body: Element | null = null;
    for (let child = table.firstChild; child !== null; ) {
      const next = child.nextSibling;
      if (child.nodeType === ELEMENT_NODE) {
        if ((child as Element).localName === 'tr') {
          if (body === null) {
            body = doc.createElement('tbody');
            table.insertBefore(body, child);
          }
          body.appendChild(child);
        } else body = null;
      } else if (body !== null) body.appendChild(child);
      child = next;
    }
  }
}

/** Drops junk before `<html>` (stray text, wrapper elements), which browsers ignore or hoist. */
function fromHtmlTag(html: string): string {
  const at = html.search(/<html[\s>]/i);
  return at > 0 && /<[a-z]/i.test(html.slice(0, at)) ? html.slice(at) : html;
}

function withBody(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  if (/<\/head\s*>/i.test(html)) return html.replace(/<\/head\s*>/i, '$&<body>');
  return `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
}

function safeUrl(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}

/**
 * How deep elements may nest: Chromium's HTML parser appends an element that would be deeper to
 * the element at this depth instead (`kMaximumHTMLParserDOMTreeDepth`), so no page shows deeper.
 */
export const MAX_TREE_DEPTH = 512;

/**
 * `html` with the elements nested deeper than {@link MAX_TREE_DEPTH} laid out flat, in document
 * order, inside the element at that depth, as Chromium's parser builds them. Readability and the
 * extractor's own passes walk the tree by recursion; a page nested thousands deep (a broken
 * generator, or a page built to crash crawlers) overflowed the stack. Walks without recursion.
 */
export function flattenDeepHtml(html: string, maxDepth = MAX_TREE_DEPTH): string {
  const { document } = parseHTML(html);
  const root = document.documentElement as unknown as Element | null;
  return root ? flattenDeep(root, maxDepth) : html;
}

/** {@link flattenDeepHtml} on a parsed document's root element, in place; returns the page's HTML. */
export function flattenDeep(root: Element, maxDepth = MAX_TREE_DEPTH): string {
  const stack: Array<{ el: Element; depth: number }> = [{ el: root, depth: 1 }];
  while (stack.length > 0) {
    const { el, depth } = stack.pop() as { el: Element; depth: number };
    if (depth < maxDepth) {
      for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
        stack.push({ el: child, depth: depth + 1 });
      }
      continue;
    }
    // Every descendant in document order, then moved to the front of `el` from the last: each
    // leaves its place with nothing left inside it, and all end up children of `el`, in order.
    const descendants: Node[] = [];
    const pending: Node[] = Array.from(el.childNodes).reverse();
    while (pending.length > 0) {
      const node = pending.pop() as Node;
      descendants.push(node);
      // linkedom builds `childNodes` anew at each read: read once, or a node of 10,000 children
      // takes 10,000 readings of 10,000 (20,000 links after 20,000 unclosed <b>s: 128 s).
      const children = node.childNodes;
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as Node);
    }
    for (let i = descendants.length - 1; i >= 0; i--) el.insertBefore(descendants[i] as Node, el.firstChild);
  }
  return `<!DOCTYPE html>${root.outerHTML}`;
}
