import { isDataTable } from './data-tables.js';
import { dropSignInPrompts, dropTemplateExpressions } from './interface-text.js';
import { dropItemFilters } from './repeated-blocks.js';
import { dropQuotedCopies, dropRepeatedBlocks } from './repeated-text.js';
import { blockText, HEADINGS, HIDDEN_STYLE, hasHiddenAttribute, visibleChars } from './text.js';

/** Elements that are page chrome wherever they appear (HTML5 sectioning and ARIA landmarks). */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'menu', 'dialog', 'template']);
const CHROME_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
]);
/**
 * Class and id words of blocks that are not the content on any kind of page: comment threads under
 * an article, related or recommended links, share bars, newsletter and cookie prompts, breadcrumbs,
 * sidebars. Whole words only (`comment-list`, `related_posts`), never inside a longer word.
 * Not `promo`: design systems name every card so (`cmp-promo__services`: a services page's whole
 * content).
 */
const CHROME_WORDS =
  /(?:^|[\s_-])(?:comments?|comment-list|commentlist|related|recommended|share|sharing|social|newsletter|subscribe|cookie|consent|breadcrumbs?|sidebar|widget|popup|modal|banner|advert|ads|skip-link|visually-hidden|sr-only|screen-reader-text|up-?sells?|cross-?sells?|recently-viewed|also-(?:bought|viewed|like)|similar-(?:items|products))(?:$|[\s_-])/i;
/**
 * A class or id naming the page's own footer (`footer`, `site-footer`, `page_footer`): its links,
 * partner lists and copyright lines. Parts named after it (`card__footer`, `section-footer`) are
 * often content: a card's date, a product's disclaimers.
 */
const SITE_FOOTER = /(?:^|\s)(?:(?:site|page|global|main)[-_]?)?footer(?:$|\s)/i;

/**
 * The main region a page declares: `<main>` or `role="main"`, when there is exactly one; else its
 * `<article>`, when it has exactly one outside any other and no `<h1>` outside it (a news page
 * whose story is the one `<article>` beside unmarked columns of teasers). Pages of items mark each
 * item an `<article>`, or show their own headline above a featured one.
 */
function declaredMain(body: Element): Element | null {
  // One walk of the body for all three (linkedom answers each selector query with a walk of its own).
  const found = Array.from(body.querySelectorAll('main, [role="main"], article, h1'));
  const mains = outermost(
    found.filter((el) => el.localName.toLowerCase() === 'main' || el.getAttribute('role') === 'main'),
  );
  if (mains.length > 0) return mains.length === 1 ? (mains[0] ?? null) : null;
  const articles = outermost(found.filter((el) => el.localName.toLowerCase() === 'article'));
  const story = articles.length === 1 ? (articles[0] ?? null) : null;
  // A page's headline outside it: the page is about something else (a category whose featured
  // post is the one `<article>`).
  if (story === null || found.some((el) => el.localName.toLowerCase() === 'h1' && !story.contains(el))) return null;
  return story;
}

/** The elements of `elements` that no other of them contains. */
function outermost(elements: readonly Element[]): Element[] {
  return elements.filter((el) => !elements.some((other) => other !== el && other.contains(el)));
}

/** Not chrome; chrome whatever its size; chrome unless it holds most of the region's text. */
enum Chrome {
  None = 0,
  Always = 1,
  Small = 2,
  /** Comments and hidden blocks: chrome on a declared article whatever its size, else as Small. */
  Secondary = 3,
  /** Hidden until a script shows it: as Secondary, kept only above {@link HIDDEN_MIN_SHARE}. */
  Hidden = 4,
}
/**
 * Some shops hide their whole content until a script shows it; a hidden block smaller than this
 * share of the region is a popup, a menu or the page's other (mobile) version.
 */
const HIDDEN_MIN_SHARE = 0.7;
const COMMENT_WORDS = /(?:^|[\s_-])(?:comments?|comment-list|commentlist)(?:$|[\s_-])/i;
/**
 * A `<form>` or a block named `comments` holds the posts of many forums (vBulletin, Invision), and
 * some shops hide their whole content until a script shows it: such soft chrome is kept when it
 * holds more than this share of the region's text.
 */
const SOFT_CHROME_MAX_SHARE = 0.4;

function chromeOf(el: Element, name: string): Chrome {
  if (CHROME_TAGS.has(name)) return Chrome.Always;
  const role = el.getAttribute('role');
  if (role !== null && CHROME_ROLES.has(role)) return Chrome.Always;
  // Hidden until a script shows it: page chrome, or the whole content of pages that reveal it.
  // aria-hidden marks duplicates and decoration, whatever its size.
  if (el.getAttribute('aria-hidden') === 'true') return Chrome.Always;
  if (hasHiddenAttribute(el)) return Chrome.Hidden;
  const style = el.getAttribute('style');
  if (style !== null && HIDDEN_STYLE.test(style)) return Chrome.Hidden;
  if (name === 'form') return Chrome.Small;
  const cls = el.getAttribute('class');
  const id = el.getAttribute('id');
  const named = (re: RegExp): boolean =>
    (cls !== null && cls.length < 200 && re.test(cls)) || (id !== null && id.length < 100 && re.test(id));
  if (!named(CHROME_WORDS) && !named(SITE_FOOTER)) return Chrome.None;
  return named(COMMENT_WORDS) ? Chrome.Secondary : Chrome.Small;
}

/** Text that opens like a JSON object or array of objects or strings (`{"painterId":…`). */
const JSON_OPENING = /^\s*(?:\{\s*"|\[\s*(?:\{\s*)?")/;
const JSON_CLOSING = /[}\]]\s*$/;
/** Shorter JSON-like text may be a code sample's line; data for scripts is longer. */
const MIN_DATA_CHARS = 80;

/**
 * Whether an element holds only a script's data as its text: a JSON object a page keeps in a hidden
 * element for its scripts (a shop's price table, a widget's state), never meant to be read. A code
 * block shows JSON on purpose, so the insides of `<pre>` and `<code>` are never data.
 */
function isDataText(el: Element): boolean {
  // Text alone (linkedom splits it into a node per run between character references).
  const first = el.firstChild;
  if (first === null || first.nodeType !== 3 || el.firstElementChild !== null) return false;
  const head = (first.nodeValue ?? '').trimStart();
  if (head !== '' && head[0] !== '{' && head[0] !== '[') return false;
  const text = el.textContent ?? '';
  if (text.length < MIN_DATA_CHARS || !JSON_OPENING.test(text) || !JSON_CLOSING.test(text)) return false;
  return el.closest('pre, code') === null;
}

/**
 * Removes those of `elements` (a body's elements, read in one walk shared with other steps) that
 * hold only a script's data (see {@link isDataText}); returns how many. Run before Readability and
 * the main region, which would both read it as text.
 */
export function dropDataText(elements: readonly Element[]): number {
  let dropped = 0;
  for (const el of elements) {
    if (DATA_HOLDERS.has(el.localName) && isDataText(el)) {
      el.remove();
      dropped++;
    }
  }
  return dropped;
}

/** Elements a page keeps a script's data in. */
const DATA_HOLDERS = new Set(['div', 'span', 'p', 'section', 'li', 'td']);

/** Elements whose content is never visible text (as in text.ts). */
const INVISIBLE = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'svg',
  'iframe',
  'select',
  'textarea',
  'button',
]);

/** Characters of a string that are not whitespace (see text.ts), for this module's importers. */
export { visibleChars };

/**
 * `visibleChars(el.textContent)`, counted on `el`'s text nodes: a big subtree's text is not copied
 * into one string (a copy of a page's size costs about a millisecond).
 */
export function visibleTextChars(el: Element): number {
  let n = 0;
  const stack: Node[] = [el];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const type = node.nodeType;
    if (type === 3 || type === 4) n += visibleChars(node.nodeValue ?? '');
    else if (type === 1) for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  }
  return n;
}

/**
 * Share of an element's visible text that is inside links, but for those of data tables (0 for an
 * element without text).
 */
export function linkShareOf(el: Element): number {
  const chars = visibleChars(el.textContent ?? '');
  if (chars === 0) return 0;
  let linkChars = 0;
  const tables = new Map<Element, boolean>();
  for (const a of Array.from(el.querySelectorAll('a[href]'))) {
    // The linked names of a data table (a list of laureates, a season's results) are its data.
    const table = a.closest('table');
    if (table !== null && el.contains(table)) {
      const data = tables.get(table) ?? isDataTable(table);
      tables.set(table, data);
      if (data) continue;
    }
    linkChars += visibleChars(a.textContent ?? '');
  }
  return Math.min(1, linkChars / chars);
}

/** Size of the region {@link mainRegion} would keep: non-whitespace characters, and those in links. */
export interface RegionSize {
  chars: number;
  linkChars: number;
}

/** Containers that are navigation when nearly all their text is in several links. */
const LINK_BLOCKS = new Set(['ul', 'ol', 'dl', 'div', 'section', 'table', 'tbody', 'p', 'span', 'li', 'article']);
/** Share of link text above which a block with {@link MIN_NAV_LINKS} links is navigation. */
const NAV_LINK_SHARE = 0.8;
const MIN_NAV_LINKS = 3;
/**
 * Menus name pages in a word or two; the titles of a listing's items are longer. Blocks whose
 * links average at least this many visible characters are kept whatever their link share.
 */
const MAX_NAV_LINK_CHARS = 20;

/**
 * Visible text sizes of the elements below `root`, in arrays indexed in depth-first order (so an
 * element's subtree is the `size[i]` entries from `i`): characters, those in links, links,
 * headings, and whether the element is chrome. Invisible elements are left out (listed in
 * `invisible`).
 */
interface Measured {
  els: Element[];
  parent: number[];
  size: number[];
  chars: number[];
  linkChars: number[];
  /** Characters inside `<pre>` (code, logs, output). */
  preChars: number[];
  links: number[];
  headings: number[];
  chrome: Chrome[];
  invisible: Element[];
}

function measure(root: Element): Measured {
  const m: Measured = {
    els: [],
    parent: [],
    size: [],
    chars: [],
    linkChars: [],
    preChars: [],
    links: [],
    headings: [],
    chrome: [],
    invisible: [],
  };
  const isLink: boolean[] = [];
  const isPre: boolean[] = [];
  /** Each link's `href`, trimmed ('' for other elements), read once for the card check below. */
  const hrefs: string[] = [];
  const stack: Element[] = [root];
  const stackParent: number[] = [-1];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const i = m.els.length;
    m.els.push(el);
    m.parent.push(stackParent.pop() as number);
    const name = el.localName.toLowerCase();
    const link = name === 'a' && el.hasAttribute('href');
    isLink.push(link);
    hrefs.push(link ? (el.getAttribute('href') ?? '').trim() : '');
    m.links.push(link ? 1 : 0);
    m.headings.push(HEADINGS.has(name) ? 1 : 0);
    m.chrome.push(i === 0 ? Chrome.None : chromeOf(el, name));
    m.size.push(1);
    let chars = 0;
    for (let child = el.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) chars += visibleChars(child.nodeValue ?? '');
      else if (child.nodeType === 1) {
        const c = child as Element;
        if (INVISIBLE.has(c.localName.toLowerCase())) m.invisible.push(c);
        else {
          stack.push(c);
          stackParent.push(i);
        }
      }
    }
    m.chars.push(chars);
    m.linkChars.push(link ? chars : 0);
    m.preChars.push(0);
    isPre.push(name === 'pre');
  }
  for (let i = m.els.length - 1; i > 0; i--) {
    // Its descendants are summed by now; text inside a link counts as link text however deep.
    if (isLink[i]) m.linkChars[i] = m.chars[i] as number;
    if (isPre[i]) m.preChars[i] = m.chars[i] as number;
    const p = m.parent[i] as number;
    m.size[p] = (m.size[p] as number) + (m.size[i] as number);
    m.chars[p] = (m.chars[p] as number) + (m.chars[i] as number);
    m.links[p] = (m.links[p] as number) + (m.links[i] as number);
    m.headings[p] = (m.headings[p] as number) + (m.headings[i] as number);
    m.linkChars[p] = (m.linkChars[p] as number) + (m.linkChars[i] as number);
    m.preChars[p] = (m.preChars[p] as number) + (m.preChars[i] as number);
  }
  // A card links its page twice, by its image and by its title, and says more (a price, a date):
  // the image's link is no entry of a menu, and is not counted (else a grid of cards averages half
  // its titles' length a link, and reads as a menu).
  for (let i = 1; i < m.els.length; i++) {
    if (isLink[i] && m.chars[i] === 0 && hasTitledTwin(m, hrefs, i)) {
      for (let p = i; p >= 0; p = m.parent[p] as number) m.links[p] = (m.links[p] as number) - 1;
    }
  }
  return m;
}

/** Elements a card is looked for in, at most: the twin link is near. */
const MAX_CARD_SIZE = 300;

/**
 * Whether link `i` (without text) has a twin with text to the same page in the card around it
 * (`hrefs`: each element's link target, '' when it is no link).
 */
function hasTitledTwin(m: Measured, hrefs: readonly string[], i: number): boolean {
  const href = hrefs[i] as string;
  if (href === '' || href.startsWith('#') || /^javascript:/i.test(href)) return false;
  let card = i;
  for (let up = 0; up < 3 && card > 0; up++) {
    card = m.parent[card] as number;
    const end = card + (m.size[card] as number);
    if (end - card > MAX_CARD_SIZE) return false;
    for (let j = card + 1; j < end; j++) {
      if (j !== i && hrefs[j] === href && (m.chars[j] as number) > 0) {
        // A card says more than its title (a price, a date, a teaser); a thumbnail and a title alone
        // is a link to a related page.
        return (m.chars[card] as number) > (m.linkChars[card] as number);
      }
    }
  }
  return false;
}

/**
 * A block of several links with little else: a menu, a tag cloud, a list of related pages. A block
 * with headings is a list of items (product cards, posts), kept.
 */
function isNavigation(m: Measured, i: number): boolean {
  const links = m.links[i] as number;
  const linkChars = m.linkChars[i] as number;
  return (
    m.headings[i] === 0 &&
    links >= MIN_NAV_LINKS &&
    linkChars > NAV_LINK_SHARE * (m.chars[i] as number) &&
    linkChars < MAX_NAV_LINK_CHARS * links &&
    LINK_BLOCKS.has((m.els[i] as Element).localName.toLowerCase())
  );
}

/** A layout column of links holds at least this many, and this share of its text in them. */
const MIN_COLUMN_LINKS = 5;
const COLUMN_LINK_SHARE = 0.7;
/** Its row's text column holds at least this many times its text, at most this share in links. */
const TEXT_COLUMN_OVER_LINKS = 2;
const TEXT_COLUMN_LINK_SHARE = 0.3;

/**
 * A cell of a layout table that is a column of links beside the page's text: a table-built page's
 * sidebar (its archive, its other posts, its categories), which may carry a few headings and so
 * is no {@link isNavigation} block. Its row has a cell of mostly plain text with
 * {@link TEXT_COLUMN_OVER_LINKS} times its characters. A data table's cells are never layout.
 */
function isLinkColumn(m: Measured, i: number): boolean {
  const chars = m.chars[i] as number;
  if ((m.links[i] as number) < MIN_COLUMN_LINKS || (m.linkChars[i] as number) < COLUMN_LINK_SHARE * chars) return false;
  const el = m.els[i] as Element;
  if (el.localName.toLowerCase() !== 'td') return false;
  const row = m.parent[i] as number;
  if (row < 0) return false;
  // The row's cells follow it in depth-first order, each after the last one's subtree.
  const rowEnd = row + (m.size[row] as number);
  let textColumn = false;
  for (let j = row + 1; j < rowEnd && !textColumn; j += m.size[j] as number) {
    const cellChars = m.chars[j] as number;
    textColumn =
      j !== i &&
      cellChars >= TEXT_COLUMN_OVER_LINKS * chars &&
      (m.linkChars[j] as number) <= TEXT_COLUMN_LINK_SHARE * cellChars;
  }
  if (!textColumn) return false;
  const table = el.closest('table');
  return table === null || !isDataTable(table);
}

/**
 * Goes through the measured region in document order, calling `drop` for each chrome or navigation
 * block (and skipping what it holds); returns the size of what is kept. When hidden blocks held
 * nearly all of it (less than {@link REVEAL_SHARE} of the largest one is left), the page shows its
 * content only once a script reveals it (a shop's whole product inside `style="display: none"`):
 * the hidden blocks are then kept, unless the page declares itself an article (whose hidden blocks
 * are chrome whatever their size).
 */
function prune(m: Measured, article: boolean, drop: (el: Element) => void): RegionSize {
  let pass = pruneOnce(m, article, false);
  if (!article && pass.kept.chars < REVEAL_SHARE * pass.largestHidden) pass = pruneOnce(m, article, true);
  for (const el of pass.doomed) drop(el);
  return pass.kept;
}

/** What is left of a page when hidden blocks are dropped is less than this share of the largest. */
const REVEAL_SHARE = 0.1;

function pruneOnce(
  m: Measured,
  article: boolean,
  revealHidden: boolean,
): { kept: RegionSize; doomed: Element[]; largestHidden: number } {
  const kept = { chars: m.chars[0] ?? 0, linkChars: m.linkChars[0] ?? 0 };
  const doomed: Element[] = [];
  let largestHidden = 0;
  const maxSoftChars = SOFT_CHROME_MAX_SHARE * kept.chars;
  const maxHiddenChars = HIDDEN_MIN_SHARE * kept.chars;
  // Inside a kept `comments` block, the blocks named `comment-123` are the posts themselves.
  let keptSoftEnd = 0;
  for (let i = 1; i < m.els.length; ) {
    const chrome = revealHidden && m.chrome[i] === Chrome.Hidden ? Chrome.None : m.chrome[i];
    const chars = m.chars[i] as number;
    const secondary = chrome === Chrome.Secondary || chrome === Chrome.Hidden;
    const soft = chrome === Chrome.Small || (secondary && !article);
    const big = chars > (chrome === Chrome.Hidden ? maxHiddenChars : maxSoftChars);
    const keepSoft = soft && (big || i < keptSoftEnd);
    if (keepSoft) keptSoftEnd = Math.max(keptSoftEnd, i + (m.size[i] as number));
    if ((!keepSoft && chrome !== Chrome.None) || isNavigation(m, i) || isLinkColumn(m, i)) {
      if (chrome === Chrome.Hidden) largestHidden = Math.max(largestHidden, chars);
      kept.chars -= chars;
      kept.linkChars -= m.linkChars[i] as number;
      doomed.push(m.els[i] as Element);
      i += m.size[i] as number;
    } else i++;
  }
  return { kept, doomed, largestHidden };
}

/**
 * The size of {@link mainRegion}, read without editing the document (so it can run before
 * Readability, which edits it): decides whether the region is worth building. `article`: the page
 * declares itself an article (as for {@link mainRegion}).
 */
export function mainRegionSize(doc: Document, article = false): RegionSize {
  const body = doc.body;
  if (!body) return { chars: 0, linkChars: 0 };
  return prune(measure(declaredMain(body) ?? body), article, () => {});
}

/** A candidate for the main content: the element and its plain text. */
export interface ContentCandidate {
  element: Element;
  text: string;
}

/**
 * The page's main region without chrome, from a document nobody has edited (Readability edits the
 * one it reads): the declared `<main>` when the page has one, else the body, with navigation,
 * headers, footers, asides, forms, hidden blocks, comment/related/share/sidebar blocks and
 * link-dense blocks (menus not marked as such) removed, as are the search filters of a page of items
 * (repeated-blocks.ts) and the second copy of a block shown twice (repeated-text.ts), then narrowed
 * to the block holding nearly all of its text. Blocks named like chrome (and forms, and hidden blocks) stay when they hold most
 * of the text, except comments and hidden blocks of a page that declares itself an `article`.
 * Null when the document has no body.
 */
export function mainRegion(doc: Document, article = false): ContentCandidate | null {
  const body = doc.body;
  if (!body) return null;
  const root = declaredMain(body) ?? body;
  const measured = measure(root);
  const doomed: Element[] = measured.invisible;
  prune(measured, article, (el) => doomed.push(el));
  for (const el of doomed) el.remove();
  // Pages of items: their search filters are not content, and blocks shown twice are kept once.
  dropItemFilters(root);
  dropRepeatedBlocks(root);
  const focused = focus(root);
  dropQuotedCopies(focused);
  dropTemplateExpressions(focused);
  dropSignInPrompts(focused);
  return { element: focused, text: blockText(focused) };
}

/** Share of the region's text that a block must hold to become the region. */
const FOCUS_SHARE = 0.9;

/**
 * The smallest block that holds nearly all the text of `root` (already pruned of navigation): page
 * headers and footers without semantic tags fall outside it. It must hold nearly all the text outside
 * `<pre>` too: a thread one of whose posts quotes a long log is the thread, not that post or its log.
 */
function focus(root: Element): Element {
  const m = measure(root);
  let at = 0;
  for (;;) {
    const total = m.chars[at] as number;
    const prose = total - (m.preChars[at] as number);
    let best = -1;
    const end = at + (m.size[at] as number);
    for (let child = at + 1; child < end; child += m.size[child] as number) {
      const childProse = (m.chars[child] as number) - (m.preChars[child] as number);
      if ((m.chars[child] as number) >= FOCUS_SHARE * total && childProse >= FOCUS_SHARE * prose) best = child;
    }
    if (best < 0 || total === 0) return m.els[at] as Element;
    at = best;
  }
}
