import { Readability } from '@mozilla/readability';

/**
 * Readability's own patterns (see its `REGEXPS`): an element whose class and id match
 * `unlikelyCandidates` and not `okMaybeItsACandidate` is removed before its search, unless inside a
 * table; `byline` marks an author's line or card. Read from the library so that they stay its.
 */
const PATTERNS = (Readability.prototype as unknown as { REGEXPS: Record<string, RegExp> }).REGEXPS;
const UNLIKELY = PATTERNS.unlikelyCandidates ?? /$^/;
const MAYBE = PATTERNS.okMaybeItsACandidate ?? /$^/;
const BYLINE = PATTERNS.byline ?? /$^/;

/** Whether Readability would remove an element before its search for its class and id alone. */
export function hasUnlikelyNames(el: Element): boolean {
  const names = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return UNLIKELY.test(names) && !MAYBE.test(names);
}

/** Whether Readability would read an element as a byline for its class and id (`author-bio`). */
export function hasBylineNames(el: Element): boolean {
  return BYLINE.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`);
}

const NON_WORD = /[^\p{L}\p{N}]+/gu;
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(NON_WORD, '-')
    .replace(/^-+|-+$/g, '');

/**
 * Whether an element's id is an anchor made from its own text, and names a byline only through
 * that text: a heading `Authoring applications` anchored `#authoring-applications`, a manual's
 * option `--reset-author` anchored `#Documentation/git-commit.txt---reset-author`. Such an id
 * says what the element reads, not what it is; `<div id="author">Jane Doe</div>` is a byline.
 */
export function hasTextAnchorId(el: Element): boolean {
  const id = el.getAttribute('id');
  if (id === null || !BYLINE.test(id)) return false;
  const words = slug(el.textContent ?? '');
  if (words === '' || !BYLINE.test(words)) return false;
  const named = slug(id);
  return named === words || named.endsWith(`-${words}`);
}

/**
 * Removes from the elements among `elements` (a body's elements) the ids that are anchors made
 * from their own text (see {@link hasTextAnchorId}) and that Readability would read as a byline:
 * it took a documentation page's heading `Authoring applications` for the author and removed it
 * from the text. Returns how many ids were removed.
 */
export function dropTextAnchorBylines(elements: readonly Element[]): number {
  let dropped = 0;
  for (const el of elements) {
    if (!el.hasAttribute('id') || BYLINE.test(el.getAttribute('class') ?? '') || !hasTextAnchorId(el)) continue;
    el.removeAttribute('id');
    dropped++;
  }
  return dropped;
}

/** Removes the class names and the id that Readability reads as unlikely from an element. */
export function dropUnlikelyNames(el: Element): void {
  const classes = (el.getAttribute('class') ?? '').split(/\s+/).filter((name) => name !== '' && !UNLIKELY.test(name));
  if (classes.length > 0) el.setAttribute('class', classes.join(' '));
  else el.removeAttribute('class');
  if (UNLIKELY.test(el.getAttribute('id') ?? '')) el.removeAttribute('id');
}

const SUBHEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Keeps the section headings among `elements` (a body's elements) from Readability's removal of
 * unlikely blocks, which reads only their class and id: page builders name a card's or a section's
 * own heading after its place (Divi's `<h4 class="et_pb_module_header">`, `section-header`,
 * `card-header`), and `header` is an unlikely name, so a service page lost the title of each of its
 * services and kept their text. A heading is the text's own: a heading in a sidebar or a menu goes
 * with its box, which keeps its names. Returns how many headings were kept so.
 */
export function keepSubheadings(elements: readonly Element[]): number {
  let kept = 0;
  for (const el of elements) {
    if (!SUBHEADINGS.has(el.localName) || !hasUnlikelyNames(el)) continue;
    dropUnlikelyNames(el);
    kept++;
  }
  return kept;
}

/** MediaWiki's class for a navigation box (`{{Navbox}}`): links to the other pages of a topic. */
const NAVBOX_CLASS = /(?:^|\s)navbox(?:\s|$)/;

/**
 * Marks the navigation boxes among `elements` (a body's elements) as navigation, which Readability
 * removes and the main region leaves out as page chrome: MediaWiki's `{{Navbox}}` has said so with
 * `role="navigation"` since 2022, and wikis built before (or on older templates) draw the same box as
 * a `<table class="navbox">` with no role. At the foot of a wiki article it listed every page of the
 * topic, group by group, as the article's text: Readability keeps a table with header cells as data.
 * Returns how many boxes were marked.
 */
export function markNavboxes(elements: readonly Element[]): number {
  let marked = 0;
  for (const el of elements) {
    if (el.hasAttribute('role') || !NAVBOX_CLASS.test(el.getAttribute('class') ?? '')) continue;
    el.setAttribute('role', 'navigation');
    marked++;
  }
  return marked;
}

/**
 * A class saying that a block is hidden only where scripts do not run (Shopify's Dawn themes put
 * `no-js-hidden` on a product's price, its variant picker and its quantity; `hidden-no-js`
 * elsewhere). A reader's browser runs them and shows the block; Readability reads `hidden` in the
 * name as a sign of a block nobody sees and lowered it until it was cleaned away.
 */
const SHOWN_WITH_SCRIPTS = /^(?:no-?js-hidden|hidden-no-?js)$/i;

/**
 * Removes from the elements among `elements` (a body's elements) the class names that hide them
 * only without scripts (see {@link SHOWN_WITH_SCRIPTS}). Returns how many elements lost one.
 */
export function keepScriptShownBlocks(elements: readonly Element[]): number {
  let kept = 0;
  for (const el of elements) {
    const cls = el.getAttribute('class');
    if (cls === null || !/js/i.test(cls)) continue;
    const names = cls.split(/\s+/);
    const left = names.filter((name) => !SHOWN_WITH_SCRIPTS.test(name));
    if (left.length === names.length) continue;
    el.setAttribute('class', left.join(' '));
    kept++;
  }
  return kept;
}
