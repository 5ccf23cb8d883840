import { visibleChars } from './content.js';

/**
 * Popups and dialogs a page keeps in its markup for a script to open (edits the page): mdBook's
 * keyboard help (`<div id="mdbook-help-popup">`, "Keyboard shortcuts… Press ? to show this
 * help", which opened every page of the Rust book), a newsletter or sign-in modal, a video's
 * lightbox. A stylesheet hides them; Readability keeps one that sits beside the content in the
 * block it chooses. The main-region reading drops them as page chrome (see content.ts); this drops
 * them before Readability too.
 */

/** A popup's name: a class or id word `popup`, `modal`, `dialog` or `lightbox` (`help-popup`, `modal_newsletter`). */
const POPUP_NAME = /(?:^|[\s_-])(?:popup|modal|dialog|lightbox)(?:$|[\s_-])/i;
/** Words that name a popup's opener or state, not the popup (`modal-open` on the body, `popup-trigger`). */
const NOT_THE_POPUP = /(?:popup|modal|dialog|lightbox)[-_]?(?:open|opened|trigger|toggle|button|btn|link)(?:$|[\s_-])/i;
/**
 * The attributes that hold the condition on which a script shows a block: Vue's `v-if` and `v-show`,
 * Alpine's `x-show`, AngularJS's `ng-if` and `ng-show`. Rendered on the server, a framework leaves
 * none; a page that keeps them has its script build the page in place.
 */
const SHOW_CONDITIONS = ['v-if', 'v-show', 'x-show', 'ng-if', 'ng-show'];
/**
 * A condition that a popup is open: it names a modal, popup, dialog or lightbox, and is not a
 * negation (`isNotifyModalOpen`, `isModalOpen('size-guide')`, not `!isModalOpen`).
 */
const POPUP_CONDITION = /^[^!]*(?:modal|popup|dialog|lightbox)/i;
/** The roles of a dialog, and `aria-modal`. */
const DIALOG_ROLES = new Set(['dialog', 'alertdialog']);
/**
 * A popup holds at most this share of the body's text: a page shown in a dialog (an image host's
 * viewer, an article a site opens over its listing) is the page.
 */
const MAX_SHARE = 0.15;
/**
 * The boxes a popup is; a link or a button so named opens one (`<a class="external-popup">`, a
 * link in a sentence).
 */
const BOXES = new Set(['div', 'section', 'aside', 'dialog', 'form']);
/** What a popup (or another block removed as not the page's) never holds: the page's headline or its declared main content. */
export const PAGE_PARTS = 'h1, main, article, [role="main"]';

/**
 * Removes the popups among `elements` (a body's elements; see the module's comment); returns how
 * many. Not on a product page, whose dialogs hold its details and measurements (IKEA's
 * `pipf-product-details-modal`); product-page.ts reads those.
 */
export function dropPopups(elements: readonly Element[]): number {
  let removed = 0;
  let bodyChars: number | undefined;
  for (const el of elements) {
    const name = el.localName.toLowerCase();
    // isConnected last: linkedom answers it with a walk up the tree.
    if (!BOXES.has(name) || !isPopup(el, name) || !el.isConnected) continue;
    if (!standsApart(el) || el.querySelector(PAGE_PARTS) !== null) continue;
    bodyChars ??= visibleChars(el.ownerDocument.body?.textContent ?? '');
    if (visibleChars(el.textContent ?? '') > MAX_SHARE * bodyChars) continue;
    el.remove();
    removed++;
  }
  return removed;
}

function isPopup(el: Element, name: string): boolean {
  if (name === 'dialog' || el.getAttribute('aria-modal') === 'true') return true;
  const role = el.getAttribute('role');
  if (role !== null && DIALOG_ROLES.has(role)) return true;
  const named = (value: string | null): boolean =>
    value !== null && value.length <= 200 && POPUP_NAME.test(value) && !NOT_THE_POPUP.test(value);
  return named(el.getAttribute('class')) || named(el.getAttribute('id')) || opensAsPopup(el);
}

/**
 * Whether a script shows `el` only while a popup is open (see SHOW_CONDITIONS, POPUP_CONDITION):
 * `<div v-if="isNotifyModalOpen">`, a shop's `Notify me when back in stock` form with its thanks
 * and its error message, which a browser shows nobody until they ask.
 */
export function opensAsPopup(el: Element): boolean {
  for (const attr of SHOW_CONDITIONS) {
    const condition = el.getAttribute(attr);
    if (condition !== null && condition.length <= 200 && POPUP_CONDITION.test(condition)) return true;
  }
  return false;
}

/**
 * Whether a popup stands apart from the page's parts: a child of the body, or the one element of
 * its wrappers up to it. One inside a part opens over that part (a product's details, a note on a
 * term), and Readability weighs the part with it.
 */
function standsApart(el: Element): boolean {
  for (let parent = el.parentElement; parent !== null; parent = parent.parentElement) {
    if (parent.localName.toLowerCase() === 'body') return true;
    if (parent.childElementCount > 1) return false;
  }
  return false;
}
