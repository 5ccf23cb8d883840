import { HIDDEN_STYLE, hasHiddenAttribute, walkElements } from './text.js';

/**
 * Readability 0.6's element tests that read a whole subtree's text on every element of its search
 * (private methods of the pinned version, checked before use; see withCheapChecksFirst).
 */
export interface ReadabilityChecks {
  ELEMENT_NODE: number;
  REGEXPS: { byline: RegExp };
  _isValidByline(node: Element, matchString: string): boolean;
  _isElementWithoutContent(node: Element): boolean;
  _isProbablyVisible(node: Element): boolean;
  _getAllNodesWithTag(node: ParentNode, tagNames: readonly string[]): ArrayLike<Element>;
  _grabArticle(page?: Element): Element | null;
  _removeNodes(nodes: ArrayLike<Element>, filter?: NodeFilterFn): void;
  _markDataTables(root: Element): void;
  _getRowAndColumnCount(table: Element): { rows: number; columns: number };
  _getInnerText(node: Element, normalizeSpaces?: boolean): string;
  _getTextDensity(node: Element, tags: readonly string[]): number;
}

/** The test `_removeNodes` asks of each element, called with the Readability instance as `this`. */
type NodeFilterFn = (this: unknown, node: Element, index: number, nodes: ArrayLike<Element>) => boolean;

/**
 * Gives a Readability instance the same element tests as its own, computed more cheaply (about a
 * seventh of extraction time on the Readability test pages):
 * - `_isValidByline` and `_isElementWithoutContent` read an element's whole text (`textContent`, a
 *   walk of its subtree) before the attribute or child tests that settle nearly every element,
 *   which made both quadratic in the page's depth; here the cheap tests come first, and a blank
 *   element's text is walked once, stopping at the first visible character;
 * - `_isProbablyVisible` builds a style declaration for every element; here only for those with a
 *   `style` attribute (without one, an element's style declares nothing);
 * - `_getAllNodesWithTag` finds elements by tag name with a walk instead of linkedom's general
 *   selector engine (a template's content stays out, as a selector leaves it);
 * - `_removeNodes`' tests read an element's `children` once per child (`_cleanConditionally` asks
 *   `node.children[x]` of each item of a list it would remove), and linkedom builds that list anew
 *   at each read: a list of 8,000 empty items took 8.4 s. While a test runs on an element with many
 *   children, they are read from a copy made once (no test changes the document);
 * - `_markDataTables` searches each table's whole subtree for seven tags one after another (a
 *   caption, `col`, `th`… or a nested table): tables nested in tables made it quadratic (10,000
 *   nested tables took 20 s). Here one walk of each outermost table, from the leaves up, gives every
 *   table the tags below it, and each table gets the same mark by the same rules;
 * - `_cleanConditionally` asks, for each element it would remove, the text density of its
 *   descendants of about twenty tags (`_getTextDensity`): the whitespace-collapsed text of each
 *   descendant, read anew for every ancestor tested, so nested blocks made it cubic (5,000 nested
 *   `<div>`s of a few words took 35 s). While one `_removeNodes` runs, each element's text length is
 *   read once. No text read in it changes before the call ends: the list is in document order and
 *   is tested from its end, so an element is tested (and removed) before every element around it,
 *   whose densities are the ones that read its text and the text around it;
 * - `parse` serializes the article it grabbed to HTML for a debug message, debugging or not
 *   (`this.log("Grabbed: " + articleContent.innerHTML)`): where its source still says so, the
 *   article's first `innerHTML` read, which is that one, gives '' (the serializer, if it reads
 *   `innerHTML`, comes after it).
 * Every test is free of side effects, so only the work changes, never a result (see the tests,
 * which compare both on real pages with linkedom and jsdom). An instance whose methods are not
 * those of Readability 0.6 is left as it is.
 */
export function withCheapChecksFirst(readability: object): void {
  const reader = readability as ReadabilityChecks;
  if (
    typeof reader._isValidByline !== 'function' ||
    typeof reader._isElementWithoutContent !== 'function' ||
    typeof reader._getAllNodesWithTag !== 'function' ||
    typeof reader._isProbablyVisible !== 'function' ||
    typeof reader._grabArticle !== 'function' ||
    typeof reader._removeNodes !== 'function' ||
    typeof reader._markDataTables !== 'function' ||
    typeof reader._getRowAndColumnCount !== 'function' ||
    typeof reader._getInnerText !== 'function' ||
    typeof reader._getTextDensity !== 'function' ||
    !(reader.REGEXPS?.byline instanceof RegExp)
  ) {
    return;
  }
  reader._isValidByline = (node, matchString) => {
    const named =
      node.getAttribute('rel') === 'author' ||
      node.getAttribute('itemprop')?.includes('author') === true ||
      reader.REGEXPS.byline.test(matchString);
    if (!named) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  };
  reader._isElementWithoutContent = (node) => {
    if (node.nodeType !== reader.ELEMENT_NODE) return false;
    const breaks = breaksIfBlank(node);
    if (breaks === null) return false;
    const children = node.children.length;
    return children === 0 || children === breaks;
  };
  reader._isProbablyVisible = (node) => {
    // Read from the attribute: linkedom's `style.display` keeps the priority (`none !important`),
    // which Readability's `=== 'none'` took for visible, and building `style` is costly.
    const style = node.getAttribute('style');
    if (style !== null && HIDDEN_STYLE.test(style)) return false;
    if (hasHiddenAttribute(node)) return false;
    return node.getAttribute('aria-hidden') !== 'true' || hasClassText(node, 'fallback-image');
  };
  reader._getAllNodesWithTag = (node, tagNames) => elementsByTagNames(node, tagNames);
  reader._markDataTables = (root) => markDataTables(reader, root);
  // The text lengths read during the running `_removeNodes` (see textLength); null outside one.
  let lengths: Map<Element, number> | null = null;
  const textLength = (el: Element): number => {
    let length = lengths?.get(el);
    if (length === undefined) {
      length = reader._getInnerText(el, true).length;
      lengths?.set(el, length);
    }
    return length;
  };
  reader._getTextDensity = (node, tags) => {
    const length = textLength(node);
    if (length === 0) return 0;
    let below = 0;
    for (const el of elementsByTagNames(node, tags)) below += textLength(el);
    return below / length;
  };
  const removeNodes = reader._removeNodes.bind(reader);
  reader._removeNodes = (nodes, filter) => {
    const outer = lengths;
    lengths = filter ? new Map() : null;
    try {
      removeNodes(
        nodes,
        filter &&
          function (this: unknown, node, index, list) {
            return withChildrenCopied(node, () => filter.call(this, node, index, list));
          },
      );
    } finally {
      lengths = outer;
    }
  };
  // Only where parse still logs the grabbed article's HTML, which is then its first read.
  if (!logsGrabbedHtml(reader)) return;
  const grab = reader._grabArticle.bind(reader);
  reader._grabArticle = (page) => {
    const article = grab(page);
    if (article !== null) skipFirstSerialization(article);
    return article;
  };
}

/** The debug message of Readability 0.6's `parse`, written without a test of `_debug`. */
const GRABBED_LOG = 'this.log("Grabbed: " + articleContent.innerHTML)';
const loggingParses = new WeakMap<object, boolean>();

/** Whether the instance's `parse` builds {@link GRABBED_LOG}'s message (read once per function). */
function logsGrabbedHtml(reader: object): boolean {
  const parse = (reader as { parse?: unknown }).parse;
  if (typeof parse !== 'function') return false;
  let logs = loggingParses.get(parse);
  if (logs === undefined) {
    logs = Function.prototype.toString.call(parse).includes(GRABBED_LOG);
    loggingParses.set(parse, logs);
  }
  return logs;
}

/** Makes the next read of `el.innerHTML` give '' without serializing; later reads are native. */
function skipFirstSerialization(el: Element): void {
  Object.defineProperty(el, 'innerHTML', {
    configurable: true,
    get: () => {
      Reflect.deleteProperty(el, 'innerHTML');
      return '';
    },
    set: (html: string) => {
      Reflect.deleteProperty(el, 'innerHTML');
      el.innerHTML = html;
    },
  });
}

/** The tags whose presence under a table settles Readability's data-table test, as bits. */
const TABLE_TAG_BITS: Readonly<Record<string, number>> = {
  col: 1,
  colgroup: 2,
  tfoot: 4,
  thead: 8,
  th: 16,
  table: 32,
};
/** Any of the tags that make a table a data table (Readability's `dataTableDescendants`). */
const DATA_TABLE_TAGS = 1 | 2 | 4 | 8 | 16;

/** What is below an element: its tags' bits, and its first `<caption>` in document order. */
interface Below {
  tags: number;
  caption: Element | null;
}

/**
 * Readability 0.6's `_markDataTables`, rule for rule and in the same order (role, `datatable`,
 * summary, a caption with content, a data table's tags, a nested table, then the size), with the
 * tags below each table read from one walk instead of a search of its subtree for each tag.
 */
function markDataTables(reader: ReadabilityChecks, root: Element): void {
  const tables = Array.from(root.getElementsByTagName('table'));
  const below = new Map<Element, Below>();
  for (const table of tables) {
    // A table inside one already walked was read with it.
    if (!below.has(table)) readBelow(table, below);
  }
  for (const table of tables) {
    const marked = table as Element & { _readabilityDataTable?: boolean };
    const { tags, caption } = below.get(table) as Below;
    if (table.getAttribute('role') === 'presentation' || table.getAttribute('datatable') === '0') {
      marked._readabilityDataTable = false;
    } else if (table.getAttribute('summary') || (caption !== null && caption.childNodes.length > 0)) {
      marked._readabilityDataTable = true;
    } else if (tags & DATA_TABLE_TAGS) {
      marked._readabilityDataTable = true;
    } else if (tags & (TABLE_TAG_BITS.table as number)) {
      marked._readabilityDataTable = false;
    } else {
      const { rows, columns } = reader._getRowAndColumnCount(table);
      marked._readabilityDataTable = columns !== 1 && rows !== 1 && (rows >= 10 || columns > 4 || rows * columns > 10);
    }
  }
}

/** What is below `top` and below each element under it, into `below`, from the leaves up. */
function readBelow(top: Element, below: Map<Element, Below>): void {
  const order: Element[] = [top];
  walkElements(top, (el) => {
    order.push(el);
    return true;
  });
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i] as Element;
    let tags = 0;
    let caption: Element | null = null;
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
      const name = child.localName.toLowerCase();
      const under = below.get(child) as Below;
      tags |= (TABLE_TAG_BITS[name] ?? 0) | under.tags;
      caption ??= name === 'caption' ? child : under.caption;
    }
    below.set(el, { tags, caption });
  }
}

/** An element with more children than this gives a copy of them to Readability's tests. */
const MANY_CHILDREN = 32;

/** `read()`, during which `el.children` is a copy of its children made once (`read` must not change them). */
function withChildrenCopied<T>(el: Element, read: () => T): T {
  let count = 0;
  for (let c = el.firstElementChild; c !== null && count <= MANY_CHILDREN; c = c.nextElementSibling) count++;
  if (count <= MANY_CHILDREN) return read();
  Object.defineProperty(el, 'children', { configurable: true, value: Array.from(el.children) });
  try {
    return read();
  } finally {
    Reflect.deleteProperty(el, 'children');
  }
}

/**
 * The `<br>` and `<hr>` elements under `el` when its text (`textContent`: its Text and CDATA
 * nodes) is blank, else null: one walk that stops at the first visible character.
 */
function breaksIfBlank(el: Element): number | null {
  let breaks = 0;
  const stack: Node[] = [];
  for (let c = el.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const type = node.nodeType;
    if (type === TEXT_NODE || type === CDATA_SECTION_NODE) {
      if (NOT_BLANK.test(node.nodeValue ?? '')) return null;
    } else if (type === ELEMENT_NODE) {
      const name = (node as Element).localName.toLowerCase();
      if (name === 'br' || name === 'hr') breaks++;
      for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c);
    }
  }
  return breaks;
}

const [ELEMENT_NODE, TEXT_NODE, CDATA_SECTION_NODE] = [1, 3, 4];
/** A character `String.prototype.trim` keeps (it strips exactly what `\s` matches). */
const NOT_BLANK = /\S/;

/** Whether `el`'s class attribute contains `text` (anywhere, as Readability tests it). */
function hasClassText(el: Element, text: string): boolean {
  const className = (el as { className?: unknown }).className;
  return typeof className === 'string' && className.includes(text);
}

/**
 * The elements under `root` (not itself) with one of `tagNames`, in document order: those
 * `querySelectorAll` finds.
 */
function elementsByTagNames(root: ParentNode, tagNames: readonly string[]): Element[] {
  const wanted = new Set(tagNames.map((name) => name.toLowerCase()));
  const found: Element[] = [];
  walkElements(root, (el) => {
    const name = el.localName.toLowerCase();
    if (wanted.has(name)) found.push(el);
    // A template's content is not part of the document (a selector does not find it).
    return name !== 'template';
  });
  return found;
}
