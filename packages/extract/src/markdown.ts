import { NodeHtmlMarkdown, PostProcessResult, type TranslatorConfigFactory } from 'node-html-markdown';
import { CAPTION_ATTRIBUTE } from './captions.js';
import { fenceAroundFences, fenceCodeBlocks, plainCodeSpans } from './code-blocks.js';
import { FOOTNOTE_ATTRIBUTE } from './footnotes.js';
import { loadLazyImages } from './image-sources.js';
import { isLayoutTable, unwrapLayoutTables } from './layout-tables.js';
import { linkCardTitles } from './markdown-card-links.js';
import { EMPHASIS_TAGS, fitEmphasisMarks } from './markdown-emphasis.js';
import {
  GLOBAL_ESCAPE,
  LINE_START_ESCAPE_OPTION,
  mendLineEscapes,
  mendLinkText,
  unescapeLineStart,
} from './markdown-escapes.js';
import { trimBlockEndBreaks } from './markdown-lines.js';
import { flattenDeepNesting, listItem } from './markdown-list-items.js';
import { CODE_SPAN, mendTableCells, unpadTables } from './markdown-table-cells.js';
import { dropEmptyColumns } from './markdown-table-columns.js';
import { alignSpannedCells, rowsOf, unfoldRaggedTables } from './markdown-table-spans.js';
import {
  BLOCKS,
  blankInlinesAsSpaces,
  collapseLineBreaks,
  collapseSpaceRuns,
  spaceOutsideLinks,
  spaceStyledWords,
  writeAltsAndTitles,
} from './markdown-whitespace.js';
import { TEX_ATTRIBUTE } from './math-tex.js';
import { appendChildrenOf, unwrap, walkElements, withoutInvisibleParagraphs } from './text.js';

/** One converter for the process: its options and translators are compiled once. */
let converter: NodeHtmlMarkdown | undefined;

function markdownConverter(): NodeHtmlMarkdown {
  if (converter !== undefined) return converter;
  converter = new NodeHtmlMarkdown(
    {
      bulletMarker: '-',
      // Not `_`: the converter drops every unescaped delimiter inside emphasis, and an underscore
      // inside a word is left unescaped (`<em>cached_property</em>` came out `_cachedproperty_`);
      // and `*` also emphasizes part of a word, which `_` cannot.
      emDelimiter: '*',
      codeBlockStyle: 'fenced',
      maxConsecutiveNewlines: 2,
      // Inline images as data: URIs can be megabytes each; their alt text is what a reader needs.
      keepDataImages: false,
      useLinkReferenceDefinitions: false,
      useInlineLinks: true,
      globalEscape: GLOBAL_ESCAPE,
      lineStartEscape: LINE_START_ESCAPE_OPTION,
      // Blocks the plain text parts too (text.ts BLOCK) that the converter's own list lacks: an FAQ's
      // `<details><summary>Returns?</summary>Within 30 days.</details>` came out `Returns?Within 30 days.`
      blockElements: ['details', 'summary', 'dialog'],
    },
    {
      // A formula's TeX (math-tex.ts), as math-aware markdown writes it, its backslashes and
      // underscores as they are.
      span: ({ node }) => {
        const tex = node.getAttribute(TEX_ATTRIBUTE);
        if (tex === 'block') return { prefix: '$$', postfix: '$$', noEscape: true, surroundingNewlines: 2 };
        return tex === 'inline' ? { prefix: '$', postfix: '$', noEscape: true } : {};
      },
      // Code blocks in list items stay whole and inside the item (markdown-list-items.ts).
      li: listItem,
      sup: footnoteReference,
      'h1,h2,h3,h4,h5,h6': heading,
    },
  );
  mendTableCells(converter);
  unpadTables(converter);
  mendLinkText(converter);
  fenceAroundFences(converter);
  // In a table cell or a link, blocks and lines are written on one line: a line break between two,
  // which the cell and the link then write as a space. The converter wrote nothing (`<p>a</p><p>b</p>`
  // or `a<br>b` in a cell read `ab`).
  const blocks = Array.from(BLOCKS).join(',');
  for (const translators of [converter.tableCellTranslators, converter.aTagTranslators]) {
    translators.set(blocks, { prefix: '\n', postfix: '\n' });
    translators.set('br', { content: '\n', recurse: false });
  }
  converter.tableCellTranslators.set('sup', footnoteReference);
  // A link's code as code (`[`From`](…)`): the converter wrote its text only. A key pressed, or a
  // program's output, as code too, as in a table cell (the converter wrote them as plain text:
  // `Ctrl+C`, and `Win**+**Space` showed its stars beside a key's text).
  converter.aTagTranslators.set('code,kbd,samp', CODE_SPAN);
  converter.translators.set('kbd,samp', CODE_SPAN);
  return converter;
}

/**
 * A heading on one line, without the escapes the converter puts before whatever starts a text (a
 * heading's `1. Personalized nutrition` came out `1\. Personalized nutrition`; in a heading it
 * cannot start a list), and without the spaces around it; an empty heading is left out.
 */
const heading: TranslatorConfigFactory = ({ node }) => ({
  prefix: `${'#'.repeat(Number(node.tagName.charAt(1)))} `,
  postprocess: ({ content }) =>
    /\S/.test(content) ? unescapeLineStart(content.replace(/\s*\n\s*/g, ' ').trim()) : PostProcessResult.RemoveNode,
});

/** A footnote reference (footnotes.ts) as markdown writes one, `[^1]`; any other `<sup>` as it is. */
const footnoteReference: TranslatorConfigFactory = ({ node }) => {
  const label = node.getAttribute(FOOTNOTE_ATTRIBUTE);
  return label ? { content: `[^${label}]`, recurse: false, noEscape: true } : {};
};

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
  // Asked before a layout table is taken apart.
  const whole = isStructure(content);
  unwrapLayoutTables(content);
  alignSpannedCells(content);
  unfoldRaggedTables(content);
  flattenDeepNesting(content);
  fenceCodeBlocks(content);
  loadLazyImages(content);
  if (baseUrl !== undefined) resolveTargets(content, baseUrl);
  plainCodeSpans(content);
  linkCardTitles(content);
  emphasizeCaptions(content);
  unnestEmphasis(content);
  unwrapEmphasisAroundBlocks(content);
  plainHeadings(content);
  emojiImagesAsText(content);
  collapseLineBreaks(content);
  spaceOutsideLinks(content);
  blankInlinesAsSpaces(content);
  spaceStyledWords(content);
  collapseSpaceRuns(content);
  fitEmphasisMarks(content);
  writeAltsAndTitles(content);
  wrapCrowdedTexts(content);
  const converter = markdownConverter();
  let markdown = '';
  for (const chunk of htmlChunks(content, whole)) {
    const translated = converter.translate(chunk.html);
    const part = (chunk.finish === undefined ? translated : chunk.finish(translated)).trim();
    if (part === '') continue;
    markdown += markdown === '' ? part : `${chunk.glue ?? '\n\n'}${part}`;
  }
  // An empty paragraph holding a zero-width joiner (Webflow's `<p>&zwj;</p>`) is no paragraph.
  // A table left empty goes (markdown-table-columns.ts), and a line of spaces is emptied, with the
  // blank lines around them.
  const mended = trimBlockEndBreaks(withoutInvisibleParagraphs(dropEmptyColumns(markdown))).replace(/\n{3,}/g, '\n\n');
  return mendLineEscapes(separateNotes(mended.replace(/^\n+|\n+$/g, '')));
}

/**
 * A blank line before the first of a run of footnotes' notes (`[^1]: …`): the converter joins a
 * list to the list after it with one line break, and a note right under a list's last item reads
 * as more of that item's text.
 */
function separateNotes(markdown: string): string {
  return markdown.replace(/^(?!\[\^)(.+)\n(?=\[\^[^\]\n]+\]: )/gm, '$1\n\n');
}

/** More texts than this beside the elements of one element, and the converter's parser slows (below). */
const MAX_TEXT_CHILDREN = 1_000;

/**
 * Wraps in a `<span>` each text of an element that holds more than {@link MAX_TEXT_CHILDREN} texts
 * (a table cell of 50,000 lines parted by `<br>`, 250 KB, took 45 s). node-html-markdown's parser,
 * node-html-parser, appends each text to its parent by copying the parent's children first
 * (taoqf/node-html-parser#317), and each element without. A row, a list item and a code block are
 * converted whole, however big; other blocks are converted in pieces (see htmlChunks).
 */
function wrapCrowdedTexts(root: Element): void {
  const doc = root.ownerDocument;
  const crowded: Element[] = [];
  const texts = (el: Element): number => {
    let n = 0;
    for (let child = el.firstChild; child !== null; child = child.nextSibling) if (child.nodeType === 3) n++;
    return n;
  };
  if (texts(root) > MAX_TEXT_CHILDREN) crowded.push(root);
  walkElements(root, (el) => {
    if (texts(el) > MAX_TEXT_CHILDREN) crowded.push(el);
    return true;
  });
  for (const el of crowded) {
    for (const text of Array.from(el.childNodes)) {
      if (text.nodeType !== 3) continue;
      const span = doc.createElement('span');
      text.replaceWith(span);
      span.appendChild(text);
    }
  }
}

/** Containers that only group blocks: a big one is converted child by child. */
const WRAPPERS = new Set(['div', 'section', 'article', 'main', 'span', 'center', 'font', 'header', 'footer', 'aside']);
/**
 * Elements whose parts mean something only inside them. (A table's body or row, or a list's item,
 * as the content is a part of a page laid out in a table or a list: its parts are converted alone.)
 */
const STRUCTURES = new Set(['table', 'ul', 'ol', 'dl', 'pre', 'code', 'blockquote', 'p', 'figure']);
/** Whether `root` is converted as one structure (see STRUCTURES), not as its children. */
function isStructure(root: Element): boolean {
  const name = root.localName.toLowerCase();
  return STRUCTURES.has(name) && !(name === 'table' && isLayoutTable(root, true));
}

/**
 * node-html-markdown's time grows with the square of an element's output (it reads the end of
 * the text so far at every append): 0.2 s for a list of 1,000 links, 3 s for 2,000, 38 s for
 * 4,000. No piece given to it is much bigger than this.
 */
const MAX_CHUNK_HTML_CHARS = 20_000;

/**
 * A piece of the content's HTML, converted on its own: `glue` joins its markdown to what came
 * before (a blank line unless said), `finish` edits its markdown first.
 */
export interface HtmlChunk {
  html: string;
  glue?: string;
  finish?: (markdown: string) => string;
}

/**
 * The HTML of `root`'s content in pieces of at most about {@link MAX_CHUNK_HTML_CHARS}, in
 * document order (without a call stack): a big wrapper is split at its children, recursively; a
 * big table into groups of rows that read as one table, a big list into groups of items that read
 * as one list, any other big block (a paragraph of a thousand links) into groups of its children.
 * A single row, item or child stays whole, as does a code block.
 */
export function htmlChunks(root: Element, whole = isStructure(root)): HtmlChunk[] {
  // Each child is serialized once: a big root's HTML as a whole would only be split again. A root
  // that is a table, a list or another structure is converted as one, not as its loose parts.
  const children = whole ? [root] : Array.from(root.childNodes);
  const serializedChildren = children.map(serialized);
  const html = serializedChildren.join('');
  if (html.length <= MAX_CHUNK_HTML_CHARS) return html.trim() === '' ? [] : [{ html }];
  const chunks: HtmlChunk[] = [];
  let pending = '';
  const flush = (): void => {
    if (pending.trim() !== '') chunks.push({ html: pending });
    pending = '';
  };
  const queue = children.map((node, i) => ({ node, html: serializedChildren[i] as string | undefined })).reverse();
  let least: Map<Node, number> | null = null;
  while (queue.length > 0) {
    const next = queue.pop() as { node: Node; html: string | undefined };
    if (next.html === undefined && next.node.nodeType === 1) {
      // A wrapper surely too big is split without serializing it: wrappers nested a thousand deep
      // around the content were each serialized whole, the square of the content's size.
      const el = next.node as Element;
      if (WRAPPERS.has(el.localName.toLowerCase())) {
        least ??= leastHtmlLengths(root);
        if ((least.get(el) ?? 0) > MAX_CHUNK_HTML_CHARS) {
          flush();
          for (const node of Array.from(el.childNodes).reverse()) queue.push({ node, html: undefined });
          continue;
        }
      }
    }
    const outer = next.html ?? serialized(next.node);
    if (next.node.nodeType !== 1) {
      pending += outer;
      continue;
    }
    const el = next.node as Element;
    const name = el.localName.toLowerCase();
    if (outer.length > MAX_CHUNK_HTML_CHARS && name !== 'pre' && name !== 'code') {
      if (WRAPPERS.has(name)) {
        flush();
        for (const node of Array.from(el.childNodes).reverse()) queue.push({ node, html: undefined });
        continue;
      }
      const pieces = name === 'table' ? tableChunks(el) : blockChunks(el);
      if (pieces.length > 1) {
        flush();
        chunks.push(...pieces);
        continue;
      }
    }
    if (pending.length + outer.length > MAX_CHUNK_HTML_CHARS) flush();
    pending += outer;
  }
  flush();
  return chunks;
}

/**
 * For `root` and each element and text under it, a length its HTML has at least: its texts'
 * lengths (escaping only lengthens them) and each element's name and brackets once (`<b>`), in
 * one walk from the leaves up.
 */
function leastHtmlLengths(root: Element): Map<Node, number> {
  const order: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    order.push(node);
    if (node.nodeType === 1) for (let c = node.firstChild; c !== null; c = c.nextSibling) stack.push(c);
  }
  const least = new Map<Node, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i] as Node;
    if (node.nodeType === 3) {
      least.set(node, node.nodeValue?.length ?? 0);
    } else if (node.nodeType === 1) {
      let length = (node as Element).localName.length + 2;
      for (let c = node.firstChild; c !== null; c = c.nextSibling) length += least.get(c) ?? 0;
      least.set(node, length);
    }
  }
  return least;
}

/**
 * Consecutive parts in groups of about {@link MAX_CHUNK_HTML_CHARS} characters at most each; a
 * group starts only at a part `starts` accepts.
 */
function groups(parts: string[], starts: (part: string) => boolean = () => true): string[][] {
  const out: string[][] = [];
  let size = 0;
  for (const part of parts) {
    if (out.length === 0 || (size + part.length > MAX_CHUNK_HTML_CHARS && starts(part))) {
      out.push([]);
      size = 0;
    }
    (out[out.length - 1] as string[]).push(part);
    size += part.length;
  }
  return out;
}

/** A Markdown table's delimiter row (`| --- | :-: |`), under its header row. */
const DELIMITER_ROW = /^\|[\s|:-]*-[\s|:-]*$/m;

/**
 * A big table as groups of its rows, each converted as a table under the table's first row (its
 * header, node-html-markdown's or the page's) and joined without it: one table, the header once.
 * Only the first group has the caption.
 */
function tableChunks(table: Element): HtmlChunk[] {
  const rows = rowsOf(table);
  if (rows.length < 2) return [];
  const header = rows[0]?.outerHTML ?? '';
  const caption = Array.from(table.children).find((child) => child.localName.toLowerCase() === 'caption');
  return groups(rows.slice(1).map((row) => row.outerHTML)).map((group, i) => {
    if (i === 0) return { html: `<table>${caption?.outerHTML ?? ''}${header}${group.join('')}</table>` };
    return {
      html: `<table>${header}${group.join('')}</table>`,
      glue: '\n',
      finish: (markdown: string) => {
        const delimiter = DELIMITER_ROW.exec(markdown);
        return delimiter === null ? markdown : markdown.slice(delimiter.index + delimiter[0].length);
      },
    };
  });
}

const isItem = (html: string): boolean => /^<li[\s>]/i.test(html);

/** An ordered list's item, where a line of Markdown starts one at the top level. */
const TOP_LEVEL_NUMBER = /^(\d+)\. /gm;

/**
 * A big block as groups of its children, each in a copy of the block (a link's target too): the
 * groups of a list join as one list (an ordered one numbered on), those of a paragraph as one
 * paragraph, others as blocks of their own.
 */
function blockChunks(block: Element): HtmlChunk[] {
  const name = block.localName.toLowerCase();
  const parts = Array.from(block.childNodes).map(serialized);
  const shell = (block.cloneNode(false) as Element).outerHTML;
  const cut = shell.lastIndexOf('</');
  if (cut < 0) return [];
  const list = name === 'ul' || name === 'ol';
  let items = 0;
  // A list's group starts at an item: a list nested beside the items belongs to the one before.
  return groups(parts, list ? isItem : undefined).map((group, i) => {
    const html = `${shell.slice(0, cut)}${group.join('')}${shell.slice(cut)}`;
    const before = items;
    if (name === 'ol') items += group.filter(isItem).length;
    if (i === 0) return { html };
    const glue = list || name === 'p' ? '\n' : '\n\n';
    if (name !== 'ol') return { html, glue };
    return {
      html,
      glue,
      finish: (md: string) => md.replace(TOP_LEVEL_NUMBER, (_, n: string) => `${Number(n) + before}. `),
    };
  });
}

/** A node's HTML as a chunk holds it: an element's own, a text's escaped, nothing of the rest. */
function serialized(node: Node): string {
  if (node.nodeType === 3) return escapeText(node.nodeValue ?? '');
  return node.nodeType === 1 ? (node as Element).outerHTML : '';
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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
    appendChildrenOf(caption, em);
    caption.appendChild(em);
  }
}

/** Elements that set their text in bold, and those that set it in italics. */
const EMPHASIS = ['strong, b', 'em, i'];

/**
 * Unwraps bold inside bold and italics inside italics (edits `root`), which show as the outer
 * one alone: node-html-markdown writes each level's marks, and `<b><b>hide caption</b></b>` came
 * out `****hide caption**`, `<em><i>it</i></em>` `__it_`.
 */
function unnestEmphasis(root: Element): void {
  for (const selector of EMPHASIS) {
    for (const el of Array.from(root.querySelectorAll(selector))) {
      if (el.parentElement?.closest(selector) == null) continue;
      unwrap(el);
    }
  }
}

/** Blocks that markdown marks at their lines' start, where emphasis around them cannot go. */
const MARKED_BLOCKS = 'h1, h2, h3, h4, h5, h6, ul, ol, li, dl, table, pre, blockquote';

/**
 * Unwraps bold or italics around a heading, a list, a table, a code block or a quote (edits
 * `root`): the converter wrote the marks around each line, markers included, so
 * `<strong><ul><li>a</li></ul></strong>` came out `**- a**`, a paragraph where the list was, and
 * `<em><h2>Stories</h2></em>` came out `*## Stories*`. Their structure is kept; the emphasis, which
 * markdown cannot put around blocks, goes. Around paragraphs it stays (each is written in marks).
 */
function unwrapEmphasisAroundBlocks(root: Element): void {
  for (const el of Array.from(root.querySelectorAll(EMPHASIS.join(', ')))) {
    if (el.querySelector(MARKED_BLOCKS) !== null) unwrap(el);
  }
}

/**
 * Unwraps bold or italics around the whole of a heading (edits `root`), through a link or span
 * that is all of it: a heading is set apart already, and `## **What are the trends?**` writes
 * marks a reader of the markdown must skip (WCXB: 2,041 headings on 203 pages). Runs of bold that
 * together are the whole heading (`<b>My Top 10</b> <b>Art Books</b>`) go too; a word set in bold
 * beside plain words stays. An empty anchor beside the text (`<a id="top"></a>`) is no text.
 */
function plainHeadings(root: Element): void {
  for (const heading of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    let el: Element | null = heading;
    while (el !== null) {
      const shown = shownChildren(el);
      if (shown === null || shown.length === 0) break;
      if (shown.every((child) => EMPHASIS_TAGS.has(child.localName.toLowerCase()))) {
        for (const child of shown) unwrap(child);
        continue;
      }
      el = shown.length === 1 ? (shown[0] as Element) : null;
    }
  }
}

/**
 * The child elements of `el` that show something, when it holds no text of its own beside them
 * (blank text and empty elements aside), else null.
 */
function shownChildren(el: Element): Element[] | null {
  const shown: Element[] = [];
  for (let node = el.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 3) {
      if ((node.nodeValue ?? '').trim() !== '') return null;
    } else if (node.nodeType === 1) {
      const child = node as Element;
      const empty = (child.textContent ?? '').trim() === '' && child.querySelector('img, svg, picture') === null;
      if (!empty) shown.push(child);
    }
  }
  return shown;
}

/** The classes that mark an image drawing one emoji: WordPress's and Twemoji's, Discourse's. */
const EMOJI_IMAGE_CLASS = /(?:^|\s)(?:emoji|wp-smiley)(?:\s|$)/;
/** Marks an image drawing an emoji; set before Readability, which removes classes. */
const EMOJI_ATTRIBUTE = 'data-emoji';

/** Marks the images among `elements` that draw an emoji (see {@link EMOJI_IMAGE_CLASS}) for the markdown. */
export function markEmojiImages(elements: readonly Element[]): void {
  for (const el of elements) {
    if (el.localName === 'img' && EMOJI_IMAGE_CLASS.test(el.getAttribute('class') ?? '')) {
      el.setAttribute(EMOJI_ATTRIBUTE, '');
    }
  }
}

/**
 * Writes the images that draw an emoji (marked by {@link markEmojiImages}) inline as their alt
 * text (`🙂`, Discourse's `:sob:`) instead of `![🙂](https://s.w.org/…/1f642.svg)`, a link to a
 * picture of a character (edits `root`).
 */
function emojiImagesAsText(root: Element): void {
  for (const img of Array.from(root.querySelectorAll(`img[${EMOJI_ATTRIBUTE}]`))) {
    const alt = (img.getAttribute('alt') ?? '').trim();
    if (alt.length > 0 && alt.length <= 40) img.replaceWith(alt);
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
