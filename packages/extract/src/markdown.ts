import { NodeHtmlMarkdown } from 'node-html-markdown';
import { CAPTION_ATTRIBUTE } from './captions.js';
import { fenceCodeBlocks } from './code-blocks.js';

/** One converter for the process: its options and translators are compiled once. */
let converter: NodeHtmlMarkdown | undefined;

function markdownConverter(): NodeHtmlMarkdown {
  converter ??= new NodeHtmlMarkdown({
    bulletMarker: '-',
    codeBlockStyle: 'fenced',
    maxConsecutiveNewlines: 2,
    // Inline images as data: URIs can be megabytes each; their alt text is what a reader needs.
    keepDataImages: false,
    useLinkReferenceDefinitions: false,
    useInlineLinks: true,
  });
  return converter;
}

/**
 * The main content as Markdown (headings, paragraphs, lists, links, code blocks, tables, image alt
 * text, pictures' captions in emphasis), converted by node-html-markdown from the HTML of the
 * element that holds it. With `baseUrl` (the page's, after any `<base href>`), links and images are
 * resolved against it, so that they lead somewhere outside the page too; a `javascript:` link, or
 * one that does not resolve, keeps its text only. Returns '' for an element without content.
 *
 * @example contentMarkdown(articleElement, 'https://example.com/post') // '# Title\n\nFirst paragraph…'
 */
export function contentMarkdown(content: Element | null, baseUrl?: string): string {
  if (content === null) return '';
  unwrapLayoutTables(content);
  fenceCodeBlocks(content);
  if (baseUrl !== undefined) resolveTargets(content, baseUrl);
  emphasizeCaptions(content);
  const converter = markdownConverter();
  const parts: string[] = [];
  for (const chunk of htmlChunks(content)) {
    const markdown = converter.translate(chunk).trim();
    if (markdown !== '') parts.push(markdown);
  }
  return parts.join('\n\n').replace(/\n{3,}/g, '\n\n');
}

/** Containers that only group blocks: a big one is converted child by child. */
const WRAPPERS = new Set(['div', 'section', 'article', 'main', 'span', 'center', 'font', 'header', 'footer', 'aside']);
/** node-html-markdown's time grows faster than linearly with its input (minutes for 200 KB). */
const MAX_CHUNK_HTML_CHARS = 20_000;

/**
 * The HTML of `root`'s content in pieces of at most about {@link MAX_CHUNK_HTML_CHARS}: a big
 * wrapper is split at its children, recursively (without a call stack, in document order); lists,
 * tables and other structures stay whole.
 */
function htmlChunks(root: Element): string[] {
  // Each child is serialized once: a big root's HTML as a whole would only be split again.
  const children = Array.from(root.childNodes);
  const serializedChildren = children.map(serialized);
  const html = serializedChildren.join('');
  if (html.length <= MAX_CHUNK_HTML_CHARS) return html.trim() === '' ? [] : [html];
  const chunks: string[] = [];
  let pending = '';
  const flush = (): void => {
    if (pending.trim() !== '') chunks.push(pending);
    pending = '';
  };
  const queue = children.map((node, i) => ({ node, html: serializedChildren[i] as string | undefined })).reverse();
  while (queue.length > 0) {
    const next = queue.pop() as { node: Node; html: string | undefined };
    const outer = next.html ?? serialized(next.node);
    if (next.node.nodeType !== 1) {
      pending += outer;
      continue;
    }
    const el = next.node as Element;
    if (outer.length > MAX_CHUNK_HTML_CHARS && WRAPPERS.has(el.localName.toLowerCase())) {
      flush();
      for (const node of Array.from(el.childNodes).reverse()) queue.push({ node, html: undefined });
      continue;
    }
    if (pending.length + outer.length > MAX_CHUNK_HTML_CHARS) flush();
    pending += outer;
  }
  flush();
  return chunks;
}

/** A node's HTML as a chunk holds it: an element's own, a text's escaped, nothing of the rest. */
function serialized(node: Node): string {
  if (node.nodeType === 3) return escapeText(node.nodeValue ?? '');
  return node.nodeType === 1 ? (node as Element).outerHTML : '';
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const TABLE_PARTS = 'table, thead, tbody, tfoot, tr, td, th, caption';
/** Paragraphs (or lines broken by `<br>`) of a cell that lays an article out. */
const MIN_CELL_PARAGRAPHS = 2;
/** Text (visible characters) of a cell that is an article rather than a value. */
const MAX_CELL_CHARS = 500;

/**
 * Whether a table lays an article out rather than holding data: a cell of it holds more than
 * {@link MAX_CELL_CHARS} characters in two paragraphs or more (an old site's article in the cell of
 * a two-column page). A Markdown table cell is one line: the article's paragraphs would run
 * together into a row. (Cells with two paragraphs alone, or a heading, are data often enough: an
 * address, a product's name over its price.)
 */
function laysOutArticle(table: Element): boolean {
  for (const cell of Array.from(table.querySelectorAll('td, th'))) {
    if (cell.closest('table') !== table) continue;
    const long = (cell.textContent ?? '').replace(/\s+/g, '').length > MAX_CELL_CHARS;
    if (long && cell.querySelectorAll('p, br').length >= MIN_CELL_PARAGRAPHS) return true;
  }
  return false;
}

/**
 * Turns layout tables into plain blocks (edits `root`): tables marked `role="presentation"`, every
 * table that holds or sits in another table, and one that lays an article out (see
 * laysOutArticle). They are not data, and node-html-markdown's table conversion grows much faster
 * than linearly on nested tables (minutes on a wiki page).
 */
function unwrapLayoutTables(root: Element): void {
  const layout = new Set<Element>();
  for (const table of Array.from(root.querySelectorAll('table'))) {
    const nested = table.querySelector('table') !== null || table.parentElement?.closest('table') != null;
    if (nested || table.getAttribute('role') === 'presentation' || laysOutArticle(table)) layout.add(table);
  }
  if (layout.size === 0) return;
  const doc = root.ownerDocument;
  const parts: Element[] = [];
  for (const table of layout) {
    // Parts of a data table nested in a layout table stay that table's.
    for (const part of Array.from(table.querySelectorAll(TABLE_PARTS)))
      if (part.closest('table') === table) parts.push(part);
    parts.push(table);
  }
  for (const part of parts) {
    const block = doc.createElement('div');
    while (part.firstChild) block.appendChild(part.firstChild);
    part.replaceWith(block);
  }
}

/**
 * Sets the captions of pictures (marked by captions.ts) in emphasis (edits `root`), so that the
 * markdown tells them from the text: `_Our camp on the second night. Credit: …_`.
 */
function emphasizeCaptions(root: Element): void {
  const doc = root.ownerDocument;
  for (const caption of Array.from(root.querySelectorAll(`[${CAPTION_ATTRIBUTE}]`))) {
    if ((caption.textContent ?? '').trim() === '') continue;
    const em = doc.createElement('em');
    while (caption.firstChild) em.appendChild(caption.firstChild);
    caption.appendChild(em);
  }
}

/** Link targets that lead nowhere outside the page's scripts: the link keeps its text only. */
const SCRIPT_TARGET = /^\s*(?:javascript|vbscript|data):/i;

/**
 * Resolves the targets of links (`href`) and images (`src`) under `root` against `baseUrl` (edits
 * `root`): `/docs/start` becomes `https://example.com/docs/start`. A link to a script, or a target
 * that is no URL, loses its `href`.
 */
function resolveTargets(root: Element, baseUrl: string): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of Array.from(root.querySelectorAll(selector))) {
      const value = (el.getAttribute(attribute) ?? '').trim();
      if (value === '' || (attribute === 'src' && value.startsWith('data:'))) continue;
      const resolved = SCRIPT_TARGET.test(value) ? null : resolveUrl(value, baseUrl);
      if (resolved === null) el.removeAttribute(attribute);
      else el.setAttribute(attribute, resolved);
    }
  }
}

function resolveUrl(value: string, baseUrl: string): string | null {
  try {
    return new URL(value, baseUrl).href;
  } catch {
    return null;
  }
}
