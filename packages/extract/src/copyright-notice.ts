import { hasTextAfter, shortTextNodes, squash, visibleChars } from './text.js';

/**
 * The site's copyright line at the end of the main text: `Copyright © 2025 WABC-TV. All Rights
 * Reserved.`, `© 2026 Tauri Contributors. CC-BY / MIT`, `© ESPN Enterprises, Inc. All rights
 * reserved.`. Sites put it in the article's own markup (a disclaimer under the story) or in a
 * footer without a `<footer>` element, so it survives the removal of page chrome. It says who owns
 * the site, not what the page says: a reader passes over it, and a passage quoted from the page for
 * an answer should not end with it.
 *
 * Only a short block whose whole text opens with the notice, and names a year or reserves rights,
 * is read as one; text that merely mentions copyright (`(Copyright: Parts of this paper are
 * reproduced from…)`, `…an excerpt from Achieving Your Pinnacle, Copyright 2013.`) and a heading
 * `Copyright` over a licence paragraph are the page's own.
 */

/** How a notice opens: `Copyright`, `©`, `(c)`, `Copr.`, `版权所有`. */
const OPENS_NOTICE = /^(?:copyright\b|©|\(c\)\s|copr\.|版权所有|版權所有)/iu;
/** What makes it a notice rather than a heading: a year, or rights reserved. */
const NOTICE_BODY =
  /\b(?:19|20)\d{2}\b|all rights reserved|tous droits réservés|alle rechte vorbehalten|版权所有|版權所有/iu;
/** A notice is a line, not a paragraph: longer text that opens so is the page's own. */
const MAX_NOTICE_CHARS = 200;
/** Text after the notice that still leaves it at the content's end (a tag line, a share bar's words). */
const MAX_CHARS_AFTER = 200;
/** A notice text is looked for in text nodes this short (room for the markup's blanks). */
const MAX_NODE_CHARS = 2 * MAX_NOTICE_CHARS;
/**
 * The texts read, from the content's end: a page ends with a notice or two, and each text read costs
 * a walk up its elements (a page of 20,000 `© 2025 …` lines took 100 s when all were read).
 */
const MAX_NOTICES_READ = 20;

/** Whether a block's whole text is a copyright notice (see the module's comment). */
export function isCopyrightNotice(text: string): boolean {
  const line = squash(text);
  return line.length <= MAX_NOTICE_CHARS && OPENS_NOTICE.test(line) && NOTICE_BODY.test(line);
}

/**
 * Removes from `content` (the main content chosen for a page) the copyright notices at its end: each
 * block whose whole text is one (see {@link isCopyrightNotice}), with at most
 * {@link MAX_CHARS_AFTER} characters of text after it, and never the content's only text. Returns
 * how many were removed.
 */
export function dropCopyrightNotices(content: Element): number {
  let removed = 0;
  const nodes = noticeTexts(content);
  let total: number | undefined;
  // From the end: a notice goes once what follows it has gone. Only the last few texts that open
  // like one are read (see MAX_NOTICES_READ).
  for (let i = nodes.length - 1; i >= 0 && i >= nodes.length - MAX_NOTICES_READ; i--) {
    const el = (nodes[i] as Node).parentElement;
    if (el === null || el === content || !content.contains(el)) continue;
    const block = outerBlock(el, content);
    // The texts before this one are followed by its text as well: none of them ends the content.
    if (hasTextAfter(block, content, MAX_CHARS_AFTER)) break;
    if (!isCopyrightNotice(block.textContent ?? '')) continue;
    const own = visibleChars(block.textContent ?? '');
    total ??= visibleChars(content.textContent ?? '');
    if (own >= total) continue;
    total -= own;
    block.remove();
    removed++;
  }
  return removed;
}

/** The text nodes of `content` that open a notice, in document order. */
function noticeTexts(content: Element): Node[] {
  return shortTextNodes(content, MAX_NODE_CHARS, (value) => OPENS_NOTICE.test(value.trimStart()));
}

/**
 * The outermost element around `el`, inside `content`, whose text opens with `el`'s: `<p><small>©
 * 2025 Site</small> All rights reserved.</p>` is one notice, and `<div><p>Story…</p><p>© 2025
 * Site</p></div>` is a story and a notice.
 */
function outerBlock(el: Element, content: Element): Element {
  let block = el;
  for (let up = el.parentElement; up !== null && up !== content; up = up.parentElement) {
    const before = squash(up.textContent);
    if (!before.startsWith(squash(block.textContent)) || before.length > MAX_NOTICE_CHARS) break;
    block = up;
  }
  return block;
}
