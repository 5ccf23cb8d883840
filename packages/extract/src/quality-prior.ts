/**
 * The quality prior of a page (`PageDocument.quality`, in (0, 1]): 1 for a page with running text,
 * lower for a link-list page where extraction finds no article (a home page, a tag or category
 * list, a site map), so that it cannot outrank articles for words that only occur in its link
 * text. The LanceDB index multiplies scores by the prior's bucket (below 0.875, 0.625, 0.375).
 *
 * The rule reads the page's visible text outside its chrome (navigation, header, footer, sidebars,
 * forms), before Readability edits the page:
 * - a page that declares itself an article (`og:type` article, JSON-LD Article) is trusted: 1;
 * - a page with at least {@link RUNNING_TEXT_CHARS} characters outside links has running text: 1;
 * - otherwise the share of its text inside links decides: {@link LINK_LIST_SHARE} or more is a link
 *   list ({@link LINK_LIST_QUALITY}), {@link LINKY_SHARE} or more a page mostly of links
 *   ({@link LINKY_QUALITY}).
 * extract-html.ts raises a lowered page back to 1 when the main content it extracts has running text
 * (see {@link hasRunningText}): the chrome left out here held the page (an article in a `<header>`).
 * Listings with descriptions, forums and product pages keep 1 (they have running text);
 * docs/crawler.md gives the figures measured on the shared Readability and WCXB pages
 * (quality-prior.test.ts).
 */

/** Visible text of a page outside its chrome: all of it, and the part inside links. */
export interface LinkFacts {
  readonly chars: number;
  readonly linkChars: number;
}

/** Characters outside links from which a page counts as running text whatever its links. */
export const RUNNING_TEXT_CHARS = 1_000;
/** Share of link text from which a page without running text is a link list. */
export const LINK_LIST_SHARE = 0.5;
/** Share of link text from which a page without running text is mostly links. */
export const LINKY_SHARE = 0.35;
/**
 * The prior of a link list: the index's lowest bucket (scores × 0.25). Half is not enough: a front
 * page of six headlines, three of them with "walrus", has 2.25 times the BM25 score of a 300-word
 * article that mentions the walrus once (apps/crawler/src/quality-rank.int.test.ts).
 */
export const LINK_LIST_QUALITY = 0.25;
/** The prior of a page mostly of links: the index's 0.5 bucket. */
export const LINKY_QUALITY = 0.5;

/** Whether text of these {@link LinkFacts} holds at least {@link RUNNING_TEXT_CHARS} characters outside links. */
export function hasRunningText(facts: LinkFacts): boolean {
  return facts.chars - facts.linkChars >= RUNNING_TEXT_CHARS;
}

/** The quality prior from a page's {@link LinkFacts}; see the module comment for the rule. */
export function qualityPrior(facts: LinkFacts): number {
  const { chars, linkChars } = facts;
  if (chars === 0) return 1;
  if (hasRunningText(facts)) return 1;
  const linkShare = linkChars / chars;
  if (linkShare >= LINK_LIST_SHARE) return LINK_LIST_QUALITY;
  if (linkShare >= LINKY_SHARE) return LINKY_QUALITY;
  return 1;
}

/** Never visible text. */
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'iframe', 'select']);
/** Page chrome by tag and by ARIA role: its links are navigation on every page, articles too. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form', 'menu', 'dialog', 'button', 'textarea']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar']);

/**
 * Measures {@link LinkFacts} over the body, or over the element given (one walk, no recursion, the
 * document untouched).
 *
 * @example qualityPrior(linkFacts(document))
 */
export function linkFacts(root: Document | Element): LinkFacts {
  const facts = { chars: 0, linkChars: 0 };
  const top = 'body' in root ? root.body : root;
  if (!top) return facts;
  const stack: Array<[Node, boolean]> = [[top, false]];
  while (stack.length > 0) {
    const [node, inLink] = stack.pop() as [Node, boolean];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const n = nonSpaceChars(child.nodeValue ?? '');
        facts.chars += n;
        if (inLink) facts.linkChars += n;
      } else if (child.nodeType === 1) {
        const el = child as Element;
        const name = el.localName.toLowerCase();
        if (INVISIBLE.has(name) || CHROME_TAGS.has(name)) continue;
        const role = el.getAttribute('role');
        if (role !== null && CHROME_ROLES.has(role)) continue;
        stack.push([el, inLink || (name === 'a' && el.hasAttribute('href'))]);
      }
    }
  }
  return facts;
}

function nonSpaceChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 0xa0) n++;
  }
  return n;
}
