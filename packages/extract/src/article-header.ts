import { linkShareOf, visibleChars } from './content.js';
import { contentMarkdown } from './markdown.js';
import { dropUnlikelyNames, hasBylineNames, hasUnlikelyNames } from './readability-names.js';
import { blockText, squash } from './text.js';

/** A paragraph of at least this many visible characters is prose (an article's lead). */
const MIN_LEAD_CHARS = 80;
/** ...when at most this share of them is link text. */
const MAX_LEAD_LINK_DENSITY = 0.5;
/** An article's header holds at most this many paragraphs of lead. */
const MAX_LEAD_PARAGRAPHS = 5;
/** A lead paragraph is found in the main text by this many of its first characters. */
const LEAD_PROBE_CHARS = 60;

/**
 * Keeps an article's own header from Readability's removal of unlikely blocks. Pages put their
 * `<h1>` and lead paragraphs in a box named like page chrome (`layout__header`, `page-header`,
 * `hero-banner`); Readability reads only the class and id and drops the box, lead and all, before
 * its search. A box that holds the page's first `<h1>` and a paragraph of prose after it (see
 * {@link MIN_LEAD_CHARS}), and no `<nav>`, is the article's header, not the site's: it loses the
 * class names and the id Readability would read as unlikely.
 *
 * Returns copies of the lead paragraphs of the first such box that is a header only (no other
 * heading, at most {@link MAX_LEAD_PARAGRAPHS} paragraphs after its `<h1>`), for
 * {@link withArticleLead}: Readability may still leave the box out when it builds the article
 * from the siblings of its best block.
 */
export function keepArticleHeaders(elements: readonly Element[]): Element[] {
  // The page's own heading comes first; a later one may be a dialog's (`Your privacy settings`).
  const h1 = elements.find((el) => el.localName === 'h1' && visibleChars(el.textContent ?? '') > 0);
  if (h1 === undefined) return [];
  let lead: Element[] | null = null;
  for (let box = h1.parentElement; box !== null && box.localName !== 'body'; box = box.parentElement) {
    if (!hasUnlikelyNames(box)) continue;
    // The boxes around a menu are the site's.
    if (box.localName === 'nav' || box.querySelector('nav') !== null) break;
    // One paragraph of lead is enough to keep the box; the whole lead is read only for a header box.
    if (leadParagraphs(box, h1, 1).length === 0) continue;
    dropUnlikelyNames(box);
    if (lead !== null || box.querySelector('h2, h3, h4, h5, h6') !== null) continue;
    const paragraphs = leadParagraphs(box, h1, MAX_LEAD_PARAGRAPHS + 1);
    if (paragraphs.length <= MAX_LEAD_PARAGRAPHS) lead = paragraphs.map((p) => p.cloneNode(true) as Element);
  }
  return lead ?? [];
}

/**
 * The paragraphs of prose in `box` after its `<h1>`, at most `limit`, each text once (a page may
 * print its lead twice, for small and large screens), but those of an author's card (`author-bio`).
 */
function leadParagraphs(box: Element, h1: Element, limit: number): Element[] {
  const seen = new Set<string>();
  const found: Element[] = [];
  for (const p of Array.from(box.getElementsByTagName('p'))) {
    if (found.length >= limit) break;
    if ((h1.compareDocumentPosition(p) & 4) === 0) continue; // Node.DOCUMENT_POSITION_FOLLOWING
    const text = squash(p.textContent);
    if (seen.has(text) || visibleChars(text) < MIN_LEAD_CHARS || linkShareOf(p) > MAX_LEAD_LINK_DENSITY) continue;
    if (inBylineCard(p, box)) continue;
    seen.add(text);
    found.push(p);
  }
  return found;
}

/** Whether `p` is inside an author's card (a byline's class or id) within `box`. */
function inBylineCard(p: Element, box: Element): boolean {
  for (let el: Element | null = p; el !== null && el !== box; el = el.parentElement) {
    if (hasBylineNames(el)) return true;
  }
  return false;
}

/**
 * The main text with the article's lead (see {@link keepArticleHeaders}) before it, when the text
 * holds none of the lead's paragraphs; an empty text stays empty.
 */
export function withArticleLead(
  main: { readonly text: string; readonly markdown: string },
  lead: readonly Element[],
  baseUrl?: string,
): { text: string; markdown: string } {
  if (lead.length === 0 || main.text === '') return main;
  const shown = squash(main.text);
  const texts = lead.map((p) => blockText(p)).filter((text) => text !== '');
  if (texts.length === 0 || texts.some((text) => shown.includes(squash(text).slice(0, LEAD_PROBE_CHARS)))) return main;
  const owner = lead[0]!.ownerDocument;
  const box = owner.createElement('div');
  for (const p of lead) box.appendChild(p);
  const markdown = main.markdown === '' ? '' : `${contentMarkdown(box, baseUrl)}\n\n${main.markdown}`;
  return { text: `${texts.join('\n\n')}\n\n${main.text}`, markdown };
}
