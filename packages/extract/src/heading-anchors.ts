/**
 * The links a heading carries to itself. Documentation sites put a permalink glyph after each
 * heading (`¶` in Sphinx and MkDocs, `#` in many themes, an empty or zero-width link in Docusaurus
 * and react.dev, titled "Link to this heading"), and some wrap the heading's words in a link to its
 * own anchor (MDN, the Rust book) or back to the table of contents (Sphinx). Kept, they are noise in the page's text and markdown:
 * `## Setup[¶](https://example.org/guide#setup "Permalink to this heading")`.
 */

import { idLookup } from './element-ids.js';
import { fragmentOf } from './links.js';
import { HEADINGS, unwrap } from './text.js';

/** Zero-width characters a permalink uses as its text, so that it takes no room until hovered. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;

/** Whether `id` names the heading, an element around it or in it, or the empty anchor just before it. */
function namesHeading(heading: Element, id: string): boolean {
  for (let el: Element | null = heading; el !== null; el = el.parentElement) if (el.id === id) return true;
  if (heading.previousElementSibling?.id === id) return true;
  for (const inner of Array.from(heading.querySelectorAll('[id]'))) if (inner.id === id) return true;
  return false;
}

/**
 * Whether `anchor` links to another part of this page (`href="#…"`), to a link there, and holds all
 * of the heading's words: Sphinx's link from each heading back to its entry in the table of contents.
 */
function holdsHeading(
  heading: Element,
  anchor: Element,
  fragment: string,
  byId: (id: string) => Element | null,
): boolean {
  const href = anchor.getAttribute('href') ?? '';
  if (!href.startsWith('#') || (anchor.textContent ?? '').trim() !== (heading.textContent ?? '').trim()) return false;
  // Where it leads is the contents' own link to the heading (an accordion's toggle leads to a panel).
  return byId(fragment)?.localName.toLowerCase() === 'a';
}

/**
 * Removes from the headings among `elements` (a body's elements, read in one walk shared with
 * other steps) each link to a fragment whose text is a glyph, nothing, or the fragment's name
 * (`¶`, `#`, `🔗`, `#section2`), and the link right after a heading to that heading's id; and
 * unwraps a heading's words from a link to its own anchor, or from a link to another part of the
 * page that holds all of them (back to the table of contents), keeping the words. Links to other
 * pages, and a link to another part of this one among the heading's words, stay. Returns how many links were removed or unwrapped.
 */
export function dropHeadingAnchors(elements: readonly Element[]): number {
  let changed = 0;
  const doc = elements[0]?.ownerDocument;
  const byId = doc ? idLookup(doc) : () => null;
  for (const heading of elements) {
    if (!HEADINGS.has(heading.localName.toLowerCase())) continue;
    const words: { anchor: Element; fragment: string }[] = [];
    for (const anchor of Array.from(heading.querySelectorAll('a[href]'))) {
      const fragment = fragmentOf(anchor);
      if (fragment === null) continue;
      const text = (anchor.textContent ?? '').replace(ZERO_WIDTH, '').trim();
      if (!/[\p{L}\p{N}]/u.test(text) || text.replace(/^#/, '') === fragment) {
        anchor.remove();
        changed++;
      } else {
        words.push({ anchor, fragment });
      }
    }
    // Asked once the glyphs are gone, which the heading's text counted.
    for (const { anchor, fragment } of words) {
      if (namesHeading(heading, fragment) || holdsHeading(heading, anchor, fragment, byId)) {
        unwrap(anchor);
        changed++;
      }
    }
    // Starlight's permalink follows its heading, its text for screen readers only ("Section titled …").
    const next = heading.nextElementSibling;
    if (next?.localName.toLowerCase() === 'a' && heading.id !== '' && fragmentOf(next) === heading.id) {
      next.remove();
      changed++;
    }
  }
  return changed;
}

/** A wiki's link to edit a section: MediaWiki's `?title=Page&action=edit&section=2`, VisualEditor's `veaction=edit`. */
const EDIT_HREF = /[?&](?:ve)?action=edit(?:&|$)/i;

/** MediaWiki's class for a heading's edit control. */
const EDIT_SECTION_CLASS = /(?:^|\s)mw-editsection(?:\s|$)/;

/** Text beside an edit link that belongs to it: its brackets and separators (`[edit | edit source]`). */
const EDIT_FRAME = /^[\s[\]|·]*$/;

/**
 * Removes a wiki's `[edit]` controls from the headings among `elements`: MediaWiki's
 * `mw-editsection` (inside its heading, or beside it in a `mw-heading` wrapper since MediaWiki 1.42)
 * and, in a heading, a link that edits a section, with the brackets around it. In the page's text
 * they were words of the heading (`History[edit]`). Returns how many were removed.
 */
export function dropEditSections(elements: readonly Element[]): number {
  let removed = 0;
  for (const el of elements) {
    // Read from the class attribute: `classList` would build a token list for every element.
    if (EDIT_SECTION_CLASS.test(el.className)) {
      // Gone already when its heading, read before it, held it.
      if (!el.isConnected) continue;
      el.remove();
      removed++;
      continue;
    }
    if (!HEADINGS.has(el.localName.toLowerCase()) || !el.isConnected) continue;
    for (const link of Array.from(el.querySelectorAll('a[href]'))) {
      if (!EDIT_HREF.test(link.getAttribute('href') ?? '')) continue;
      // A control's word or two (`edit`, `Quelltext bearbeiten`), beside the heading's own words.
      const label = (link.textContent ?? '').trim();
      if (label.length > 24 || (el.textContent ?? '').replace(label, '').replace(/[\s[\]|·]/g, '') === '') continue;
      // The link, or the heading's part that holds only it and its brackets.
      let part: Element = link;
      while (part.parentElement !== null && part.parentElement !== el) {
        const rest = (part.parentElement.textContent ?? '').replace(part.textContent ?? '', '');
        if (!EDIT_FRAME.test(rest)) break;
        part = part.parentElement;
      }
      part.remove();
      removed++;
    }
  }
  return removed;
}
