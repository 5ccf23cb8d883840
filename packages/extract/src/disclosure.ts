import { visibleTextChars } from './content.js';
import { HIDDEN_STYLE, isHidden } from './text.js';

/**
 * Content a page holds but shows one part at a time: the closed panels of an accordion (a FAQ, a
 * product's specifications) and the other tabs of a tab set. A reader (and WCXB's references) takes
 * them as the page's text, one click away. Everything else hidden stays hidden: menus, popups and dialogs a control opens are not content, and the
 * extractor drops hidden blocks (see content.ts; Readability does the same).
 */

/** A control inside these opens a menu or the site's navigation, not a part of the content. */
const MENU_CONTEXT = 'nav, header, [role="navigation"], [role="menubar"], [role="menu"], [role="banner"]';
/** Panels of these roles are menus, popups and dialogs. */
const POPUP_ROLES = new Set(['menu', 'menubar', 'listbox', 'dialog', 'alertdialog', 'tooltip', 'navigation']);
/** A question that opens its answer (`What does pet insurance cover?`): its text at most this long. */
const MAX_QUESTION_CHARS = 200;
/** ...and the answer at least this long. */
const MIN_ANSWER_CHARS = 40;
/** The declarations of {@link HIDDEN_STYLE}, each whole (with `!important`), to be removed. */
const HIDING_STYLE = new RegExp(`${HIDDEN_STYLE.source}\\s*(?:!important\\s*)?(?=;|$)`, 'gi');

/**
 * Shows the closed panels among `elements` (a body's elements, read in one walk shared with other
 * steps; see the module comment) by removing what hides them: the `hidden` attribute,
 * `aria-hidden="true"` and an inline `display: none` or `visibility: hidden`. A panel is a
 * `role="tabpanel"` element or one whose id a control names in `aria-controls`, unless that control
 * opens a menu (`aria-haspopup`, or it sits in the page's navigation or header) or the panel is a
 * popup or dialog; a tab's pane by its classes (see isTabPane) or the panel a Bootstrap toggle
 * names (see toggledPanel); and a hidden answer right after its question (see isHiddenAnswer), as FAQs built
 * without ARIA show them. Returns how many panels were shown. (The parts a streaming renderer sends hidden
 * are put in place when the page is parsed: see dom.ts.)
 */
export function revealPanels(elements: readonly Element[]): number {
  const ids = new Set<string>();
  const panels = new Set<Element>();
  for (const el of elements) {
    if (el.getAttribute('role') === 'tabpanel' || isTabPane(el)) panels.add(el);
    const controls = el.getAttribute('aria-controls') ?? toggledPanel(el);
    if (controls === null || el.hasAttribute('aria-haspopup') || el.closest(MENU_CONTEXT) !== null) continue;
    for (const id of controls.split(/\s+/)) if (id) ids.add(id);
  }
  for (const el of elements) {
    if ((el.id && ids.has(el.id)) || isHiddenAnswer(el)) panels.add(el);
  }
  let shown = 0;
  const opened = new Set<string>();
  for (const panel of panels) {
    const role = panel.getAttribute('role');
    if ((role !== null && POPUP_ROLES.has(role)) || panel.localName.toLowerCase() === 'dialog') continue;
    if (panel.id) opened.add(panel.id);
    if (unhide(panel)) shown++;
  }
  keepButtonLabels(elements, opened);
  return shown;
}

/** Bootstrap's toggles that show a part of the content: a tab, a pill, a collapsed panel. */
const CONTENT_TOGGLES = new Set(['tab', 'pill', 'collapse']);
/** A tab's pane by its class: Bootstrap's `tab-pane`, and the `tab-panel`, `tabs__panel` of others. */
const TAB_PANE = /(?:^|\s)tabs?(?:-|_|__)?pan(?:e|el)(?:\s|$)/i;
/** The box of a tab set's panes: Bootstrap's `tab-content`, a shop's `tab-panes`. */
const TAB_CONTENT = /(?:^|\s)tabs?(?:-|_|__)?(?:content|panes|panels)(?:\s|$)/i;

/**
 * The id of the panel a Bootstrap toggle opens without ARIA (`<a data-toggle="tab" href="#specs">`,
 * `data-bs-toggle="collapse" data-bs-target="#faq-2"`), or null. Shops built on Bootstrap show a
 * product's specifications so, in a tab the page sends hidden.
 */
function toggledPanel(el: Element): string | null {
  const toggle = el.getAttribute('data-bs-toggle') ?? el.getAttribute('data-toggle');
  if (toggle === null || !CONTENT_TOGGLES.has(toggle.trim().toLowerCase())) return null;
  const target = el.getAttribute('data-bs-target') ?? el.getAttribute('data-target') ?? el.getAttribute('href') ?? '';
  return /^#[\w:.-]+$/.test(target.trim()) ? target.trim().slice(1) : null;
}

/**
 * A tab's pane by its classes (`.tab-content > .tab-pane`, `.tab-panes > .tab-pane`): the box of a
 * tab set's panes holds them, or they are several side by side. A shop's specifications and
 * reviews are panes its tabs show one at a time, the others sent hidden.
 */
function isTabPane(el: Element): boolean {
  if (!TAB_PANE.test(el.getAttribute('class') ?? '')) return false;
  const box = el.parentElement;
  if (box === null) return false;
  if (TAB_CONTENT.test(box.getAttribute('class') ?? '')) return true;
  let panes = 0;
  for (const sibling of Array.from(box.children)) if (TAB_PANE.test(sibling.getAttribute('class') ?? '')) panes++;
  return panes >= 2;
}

/** The heading elements, a button inside one being its text. */
const HEADING = 'h1, h2, h3, h4, h5, h6';

/** A question's end (`?`, also the full-width one), spaces after it allowed. */
const QUESTION_END = /[?？]\s*$/;

/**
 * Turns into plain text (a `<span>` holding the same children) each `<button>` that is a question
 * of a FAQ: one inside a heading (an accordion's `<h3><button>What does it cover?</button></h3>`),
 * or one opening a panel {@link revealPanels} showed (its `aria-controls`), whose text ends in a
 * question mark. Buttons are the page's controls and no text (text.ts, and Readability removes
 * them); without these the answers stood alone (`No. Our fee is paid in full…`) on every FAQ
 * built so in a user's trial. Measured on WCXB (`node bench/extract.mjs --set wcxb`), F1 A 0.8823
 * → 0.8824, B 0.8728 → 0.8728 (service pages +0.002 both). Keeping every such button (a panel's
 * title, `Item details`, a tab's `Description`) gave A 0.8822, B 0.8729, product pages A −0.004:
 * a panel's title moved the main region of product pages to more of their chrome.
 */
function keepButtonLabels(elements: readonly Element[], panels: ReadonlySet<string>): void {
  for (const el of elements) {
    if (el.localName.toLowerCase() !== 'button' || el.closest(MENU_CONTEXT) !== null) continue;
    const controls = (el.getAttribute('aria-controls') ?? '').split(/\s+/);
    const question = (el.textContent ?? '').trim();
    if (question.length > MAX_QUESTION_CHARS || !QUESTION_END.test(question)) continue;
    if (el.closest(HEADING) === null && !controls.some((id) => panels.has(id)) && !answerFollows(el)) continue;
    const span = el.ownerDocument.createElement('span');
    while (el.firstChild) span.appendChild(el.firstChild);
    el.replaceWith(span);
  }
}

/** A hidden element holding at least this share of the page's text is the page itself (see revealHiddenPage). */
const PAGE_SHARE = 0.8;

/**
 * Shows a page that hides itself until its scripts run: the body, or an element holding at least
 * {@link PAGE_SHARE} of the body's text, hidden by the `hidden` attribute, `aria-hidden="true"` or
 * an inline `display: none` / `visibility: hidden` (a Next.js site's anti-flash wrapper, a page
 * behind an open dialog). A reader sees it once the scripts have run; Readability and the main
 * region skip hidden elements, and found nothing on such a page. Menus, popups and panels are a small
 * part of a page's text and stay as they are. Returns how many elements were shown.
 */
export function revealHiddenPage(body: Element, elements: readonly Element[]): number {
  let shown = unhide(body) ? 1 : 0;
  let total = -1;
  for (const el of elements) {
    if (!isHidden(el)) continue;
    if (total < 0) total = visibleTextChars(body);
    if (total > 0 && visibleTextChars(el) >= PAGE_SHARE * total && unhide(el)) shown++;
  }
  return shown;
}

/**
 * Whether `el` is hidden itself and follows a question: its previous sibling's text ends in `?`
 * (at most {@link MAX_QUESTION_CHARS} characters) and links nowhere but within the page (a menu's
 * `Need help?` links away), and `el` holds at least {@link MIN_ANSWER_CHARS} characters.
 */
function isHiddenAnswer(el: Element): boolean {
  const question = el.previousElementSibling;
  if (question === null || !isHidden(el)) return false;
  const text = (question.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text.length > MAX_QUESTION_CHARS || !text.endsWith('?')) return false;
  if ((el.textContent ?? '').trim().length < MIN_ANSWER_CHARS) return false;
  return Array.from(question.querySelectorAll('a[href]')).every((a) =>
    /^(?:#|javascript:)/i.test(a.getAttribute('href') ?? ''),
  );
}

/** Whether the element after `el` holds an answer's worth of text (see {@link MIN_ANSWER_CHARS}). */
function answerFollows(el: Element): boolean {
  const next = el.nextElementSibling;
  return next !== null && visibleTextChars(next) >= MIN_ANSWER_CHARS;
}

/** Removes what hides `el` itself; whether anything did. */
function unhide(el: Element): boolean {
  let hidden = false;
  if (el.hasAttribute('hidden')) {
    el.removeAttribute('hidden');
    hidden = true;
  }
  if (el.getAttribute('aria-hidden') === 'true') {
    el.removeAttribute('aria-hidden');
    hidden = true;
  }
  const style = el.getAttribute('style');
  if (style !== null) {
    const visible = style.replace(HIDING_STYLE, '');
    if (visible !== style) {
      el.setAttribute('style', visible);
      hidden = true;
    }
  }
  return hidden;
}
