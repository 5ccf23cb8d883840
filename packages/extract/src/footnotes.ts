import { idLookup } from './element-ids.js';
import { fragmentOf } from './links.js';

/**
 * Footnotes as a reader takes them. A reference is a raised link to a note further down the page
 * (`<sup><a href="#fn:1">1</a></sup>`, written so by Pandoc, kramdown, Hugo, GitHub and MediaWiki);
 * read as text its number ran into the sentence (`released in 2014.1`). It reads `[1]` in the text
 * and `[^1]` in the markdown, as markdown writes a footnote, and the note it leads to, a list item,
 * is written `[^1]: …` there. The link back from each note (`↩︎`,
 * MediaWiki's `^`) only moves the reader, and goes.
 */

/** The attribute that marks a footnote reference; its value is the note's label (`1`, `a`). */
export const FOOTNOTE_ATTRIBUTE = 'data-footnote';
/** The attribute that marks the list item holding a note a reference leads to; its value is the label. */
export const FOOTNOTE_NOTE_ATTRIBUTE = 'data-footnote-note';

/** A reference's text: a number or a letter or two, bracketed or not. */
const REFERENCE_TEXT = /^\[?\s*(\d{1,4}|[a-z]{1,2})\s*\]?$/i;
/** What a link back from a note shows. */
const BACK_ARROWS = new Set(['↩', '↩︎', '↩️', '↑', '^', '⤴', '⤴︎', '↵', '⮌']);
/** Markup that names a link back from a note (DPUB-ARIA's role; GitHub's, kramdown's, Pandoc's and markdown-it's). */
const BACK_LINK_CLASS = /(?:^|\s)(?:footnote-backref|reversefootnote|footnote-back|footnote-backlink)(?:\s|$)/;

/** Marks the footnote references and removes the links back of `doc` (edits it); returns how many changed. */
export function markFootnotes(doc: Document): number {
  // Raised in-page links with a label; some are a note's own number, linking back to its reference.
  const raised: { sup: Element; link: Element; label: string }[] = [];
  /** Where the references stand (their ids): a link to one of them is a note's link back. */
  const referenceIds = new Set<string>();
  for (const sup of Array.from(doc.getElementsByTagName('sup'))) {
    const link = referenceLink(sup);
    const label = link === null ? undefined : REFERENCE_TEXT.exec((link.textContent ?? '').trim())?.[1];
    if (link === null || label === undefined) continue;
    raised.push({ sup, link, label });
    for (const id of [sup.getAttribute('id'), link.getAttribute('id')]) if (id) referenceIds.add(id);
  }
  let changed = 0;
  const byId = idLookup(doc);
  for (const { sup, link, label } of raised) {
    if (referenceIds.has(fragmentOf(link) ?? '')) continue; // A link back: below.
    let marked = sup;
    if (link.contains(sup)) {
      // Pandoc raises the number inside the link: the same reference, written the other way round.
      marked = doc.createElement('sup');
      link.replaceWith(marked);
      marked.appendChild(link);
    }
    link.textContent = `[${label}]`;
    marked.setAttribute(FOOTNOTE_ATTRIBUTE, label);
    const note = noteOf(byId, link);
    if (note !== null && !note.hasAttribute(FOOTNOTE_NOTE_ATTRIBUTE)) note.setAttribute(FOOTNOTE_NOTE_ATTRIBUTE, label);
    changed++;
  }
  for (const link of Array.from(doc.getElementsByTagName('a'))) {
    const href = link.getAttribute('href') ?? '';
    if (!href.startsWith('#')) continue;
    const toReference = referenceIds.has(fragmentOf(link) ?? '');
    if (!toReference && !isBackLink(link)) continue;
    const text = (link.textContent ?? '').trim();
    if (/^\d+$/.test(text)) {
      // A note's own number, linking back: the number stays, as text.
      link.replaceWith(doc.createTextNode(text));
    } else {
      const holder = link.parentElement;
      link.remove();
      // MediaWiki's `^ a b`: what is left of the links back is the arrow.
      if (holder?.localName.toLowerCase() === 'span' && BACK_ARROWS.has((holder.textContent ?? '').trim()))
        holder.remove();
    }
    changed++;
  }
  return changed;
}

/**
 * The in-page link that is all of `sup` (blank text around it aside), or that `sup` is all of
 * (Pandoc's `<a href="#fn1"><sup>1</sup></a>`); null when neither.
 */
function referenceLink(sup: Element): Element | null {
  const inner = sup.firstElementChild;
  const parent = sup.parentElement;
  let link: Element | null = null;
  if (inner !== null && inner === sup.lastElementChild && inner.localName.toLowerCase() === 'a') link = inner;
  else if (
    parent?.localName.toLowerCase() === 'a' &&
    parent.firstElementChild === sup &&
    parent.lastElementChild === sup
  )
    link = parent;
  if (link === null || !(link.getAttribute('href') ?? '').startsWith('#')) return null;
  return (sup.textContent ?? '').trim() === (link.textContent ?? '').trim() ? link : null;
}

/** The list item the reference `link` leads to, when it is one. */
function noteOf(byId: (id: string) => Element | null, link: Element): Element | null {
  const id = fragmentOf(link);
  const target = id === null ? null : byId(id);
  return target?.localName.toLowerCase() === 'li' ? target : null;
}

function isBackLink(link: Element): boolean {
  if (link.getAttribute('role') === 'doc-backlink' || link.hasAttribute('data-footnote-backref')) return true;
  if (BACK_LINK_CLASS.test(link.getAttribute('class') ?? '')) return true;
  return BACK_ARROWS.has((link.textContent ?? '').trim());
}
