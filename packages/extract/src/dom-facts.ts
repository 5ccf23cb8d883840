import { hasBylineNames, hasTextAnchorId } from './readability-names.js';
import { type TeaserTest, teaserTest } from './teaser-items.js';
import { blockText, squash } from './text.js';

/** Facts read from the DOM before Readability rewrites it. */
export interface DomFacts {
  htmlLang: string | null;
  docTitle: string;
  h1: string;
  /**
   * With no `<h1>` before it, the first `<h2>`–`<h4>` whose words the page's `<title>` holds and
   * that links nowhere: a headline set in a lower heading (`<h4 class="headline">`); '' when none. Text bylines are read
   * after it as after an `<h1>`.
   */
  titledSubheading: string;
  /** The first `<h1>` inside `<article>`/`<main>`, '' when none. */
  mainH1: string;
  /** The texts of the first few non-empty `<h1>` elements, in document order (see headingText). */
  h1s: string[];
  /**
   * Short texts of the leaf elements around the first `<h1>` (a few before it, more after it), where
   * a dateline is printed; '' when the page has no `<h1>`.
   */
  nearHeadline: string;
  /** Texts of elements that look like bylines, best first (none said in a quoted voice, see quotedVoice). */
  bylines: string[];
  /**
   * Texts of elements Readability may take for the byline (its class/id test) that sit in a quoted
   * voice: a customer's testimonial, a review, a comment (see quotedVoice). Up to a few.
   */
  quotedBylines: string[];
  /**
   * Short texts after the first `<h1>` that are only a label and a person's name (`By Amy Wilhelm`,
   * `Written by John Crenshaw`), in document order: bylines that no class or attribute marks.
   */
  textBylines: string[];
  /**
   * The byline text of the author of a forum thread or question as its microdata declares it
   * (`itemprop="author"` of a schema.org `DiscussionForumPosting` or `Question`), else the name
   * after the page's one `Thread starter` label (XenForo); null when none.
   */
  threadAuthor: string | null;
  /** The first `data-author` attribute: forum software marks each post with its poster's name. */
  postAuthor: string | null;
  /**
   * The first `itemprop="datePublished"` value (content, datetime or text) that is not a teaser's
   * (an item describing another page, see teaserTest).
   */
  itempropDate: string | null;
  /**
   * The first `dateCreated` or `datePublished` of a thread's or a question's own item (not an
   * answer's or a comment's): when the thread was started.
   */
  threadDate: string | null;
  /** First `<time datetime>` inside `<article>`/`<main>`, or one marked `pubdate`. */
  articleTime: string | null;
  /**
   * Distinct `datetime` values of the `<time>` elements {@link articleTime} is chosen from, up to
   * {@link MAX_TIMES}: a page of items dates each.
   */
  times: Set<string>;
  /**
   * The elements metadata and links are read from, in document order (see meta.ts, links.ts); a
   * `<meta itemprop>` of a teaser's item (see teaserTest) is left out.
   */
  metas: Element[];
  jsonLdScripts: Element[];
  anchors: Element[];
  linkElements: Element[];
  /** `href` of the first `<base href>`. */
  baseHref: string | null;
  /**
   * The text of the page's footers (`<footer>`, `role="contentinfo"`, the outermost of nested ones),
   * one line per block as {@link blockText} reads it; '' when it has none.
   */
  footerText: string;
  /** How deep elements nest below the root element (`<html>` is 1, `<body>` 2). */
  maxDepth: number;
}

/** Classes and ids that mark a byline; `rel=author` and `itemprop=author` are checked too. */
const BYLINE_CLASS = /(?:^|[\s_-])(?:byline|by-line|author|writer|dateline-author)(?:$|[\s_-])/i;
/**
 * Classes of what an author box says about the author beside the name (`author-title`,
 * `author_bio`, `byline__role`): a job title or a biography, never the name.
 */
const AUTHOR_DETAIL_CLASS =
  /(?:^|[\s_-])(?:author|writer|byline)[_-]+(?:title|job|role|position|bio|biography|desc|description|company|org|organi[sz]ation|about)(?:$|[\s_-])/i;
/** URLs of an author's page in blog and news software (WordPress, Ghost, Drupal...). */
const AUTHOR_HREF = /(?:[?&]author=[^&#]+|\/(?:author|authors|autor|auteur)\/[^/?#]+\/?(?:[?#]|$))/i;
/** A link to a page listing a tag, category or topic (`/blog/tag/personal-finance`): never a name. */
const TAXONOMY_HREF = /\/(?:tags?|categor(?:y|ies)|topics?)\/[^/?#]/i;
/** Bylines are short; longer matches are containers that happen to carry the class. */
const MAX_BYLINE_SOURCE_CHARS = 200;
/** A longer byline element is an author box, read for its first line only; longer still, a container. */
const MAX_AUTHOR_BOX_CHARS = 1_500;
const MAX_BYLINES = 5;
const MAX_TIMES = 20;
const MAX_H1S = 5;
/** Text bylines kept (see {@link DomFacts.textBylines}); the first is the article's. */
const MAX_TEXT_BYLINES = 2;
/** A label and a name; longer first text is prose that starts with `By`. */
const MAX_TEXT_BYLINE_CHARS = 60;
/** The words that label a byline: `By`, `Written by`. */
const BY_WORDS = '(?:(?:[Ww]ritten|[Pp]osted|[Rr]eported|[Aa]uthored) )?[Bb]y';
/** An element's first words that label a byline. */
const BY_LABEL = new RegExp(`^\\s*${BY_WORDS}\\b`);
/** A name word: capitalised (`Amy`, `O'Brien`, `D.`), or a particle inside a name (`van`, `de`). */
const NAME_WORD = "\\p{Lu}[\\p{L}'’.-]*";
const NAME_PARTICLE = '(?:van|von|de|der|den|da|del|della|di|du|la|le|bin|al)';
/** A label and two to four name words, and nothing else (see {@link DomFacts.textBylines}). */
const NAME = `${NAME_WORD}(?: (?:${NAME_PARTICLE} )*${NAME_WORD}){1,3}`;
const TEXT_BYLINE = new RegExp(`^${BY_WORDS}:? ${NAME}$`, 'u');
/** A month's name or its abbreviation, in English as {@link BY_WORDS} are. */
const MONTH =
  '(?:[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|[Mm]ar(?:ch)?|[Aa]pr(?:il)?|[Mm]ay|[Jj]une?|[Jj]uly?|[Aa]ug(?:ust)?|[Ss]ep(?:t(?:ember)?)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?)';
/** A date written out (`2025-09-13`, `03/01/2017`, `Jan 22, 2025`, `22 January 2025`). */
const WRITTEN_DATE = `(?:\\d{1,4}[-/.]\\d{1,2}[-/.]\\d{1,4}|${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}|\\d{1,2} ${MONTH}\\.?,? \\d{4})`;
/**
 * A byline and its date on one line under the headline (`by ALLIN ONE on Jan 22, 2025`, `by Jon
 * Foster - 2025-09-13 Updated: 2025-09-13`, `03/01/2017 by Agatha Caleo, Candidate Representative…`):
 * the name is what stands between the label and the date, or between the label and the end or a
 * comma when the date comes first. A sentence that opens with `By` (`By Friday Morning, 300 people
 * had left`) has no date after its name.
 */
const DATED_BYLINES = [
  new RegExp(`^${BY_WORDS}:? (${NAME})\\s*(?:[-–—|·,]\\s*|\\s)(?:on )?${WRITTEN_DATE}`, 'u'),
  new RegExp(`^${WRITTEN_DATE} ${BY_WORDS}:? (${NAME})(?:,|$)`, 'u'),
];
/** A dated byline's line is short: a longer text is prose. */
const MAX_DATED_BYLINE_CHARS = 160;
/**
 * An element that is only a byline's label (`By`, `Written by`, `Article by`, `Author:`), set apart
 * from the name in the element after it (`<p>Written by</p><p>Edzel Tabing</p>`).
 */
const BYLINE_LABEL = new RegExp(`^(?:(?:[Aa]rticle|[Ss]tory|[Ww]ords) by|${BY_WORDS}|Author):?$`);
const NAME_ONLY = new RegExp(`^${NAME}$`, 'u');

/**
 * Reads everything {@link extractHtml} needs from the untouched DOM in one walk: linkedom answers a
 * querySelector or getElementsByTagName by walking the whole tree, so ten lookups cost ten walks.
 * The walk keeps no stack (parent pointers), so nesting depth cannot overflow it, and it does not
 * enter `<template>` contents, which browsers do not render either. `pageUrl` is the document's
 * URL, which tells the page's own microdata item from teasers of other pages.
 */
export function readDomFacts(doc: Document, pageUrl = ''): DomFacts {
  const root = doc.documentElement;
  const facts: DomFacts = {
    htmlLang: root?.getAttribute('lang') ?? root?.getAttribute('xml:lang') ?? null,
    docTitle: '',
    h1: '',
    titledSubheading: '',
    mainH1: '',
    h1s: [],
    nearHeadline: '',
    bylines: [],
    quotedBylines: [],
    textBylines: [],
    threadAuthor: null,
    postAuthor: null,
    itempropDate: null,
    threadDate: null,
    articleTime: null,
    times: new Set(),
    metas: [],
    jsonLdScripts: [],
    anchors: [],
    linkElements: [],
    baseHref: null,
    footerText: '',
    maxDepth: 0,
  };
  // Asked in <body>, when the head's <base>, canonical link and og:url have been read.
  const teaser = teaserTest(
    () => [pageUrl, ...canonicalHrefs(facts.linkElements), ...ogUrls(facts.metas)],
    () => (facts.baseHref === null ? pageUrl : resolveOr(facts.baseHref, pageUrl)),
  );
  let footer: Element | null = null;
  const body = doc.body;
  const near: NearHeadline = {
    before: [],
    recent: [],
    after: [],
    afterChars: 0,
    seen: false,
    titled: false,
    run: null,
  };
  let title: Element | null = null;
  /** The element of {@link DomFacts.titledSubheading}, null until one is found. */
  let subheading: Element | null = null;
  let subheadingsRead = 0;
  let inBody = false;
  /** How many `<article>`/`<main>` elements enclose the current one. */
  let articleDepth = 0;
  /** Names after a `Thread starter` label, up to two (see starterName). */
  const starters: string[] = [];
  // Every top-level element, not just the root: linkedom keeps markup after `</html>` beside it.
  for (const top of Array.from(doc.childNodes)) {
    if (top.nodeType !== 1) continue;
    let node: Element | null = top as Element;
    let depth = 1;
    while (node !== null) {
      if (depth > facts.maxDepth) facts.maxDepth = depth;
      const el: Element = node;
      const name = el.localName.toLowerCase();
      if (el === body) inBody = true;
      switch (name) {
        case 'meta':
          // A teaser's `<meta itemprop="datePublished">` dates the page it links to.
          if (!inBody || !el.hasAttribute('itemprop') || !teaser(itemScopeOf(el))) facts.metas.push(el);
          break;
        case 'a':
          facts.anchors.push(el);
          break;
        case 'link':
          facts.linkElements.push(el);
          break;
        case 'title':
          title ??= el;
          break;
        case 'base':
          if (facts.baseHref === null) facts.baseHref = el.getAttribute('href');
          break;
        case 'script':
          if (el.getAttribute('type') === 'application/ld+json') facts.jsonLdScripts.push(el);
          break;
      }
      if (inBody && el !== body) readBodyFacts(el, name, facts, articleDepth > 0, starters, teaser);
      // A heading that links elsewhere is a teaser's (a stream of stories above the article).
      const subheadingWanted = inBody && facts.h1 === '' && facts.titledSubheading === '';
      if (subheadingWanted && SUBHEADINGS.test(name) && subheadingsRead++ < MAX_SUBHEADINGS_READ) {
        const text = headingText(el);
        if (isTitled(text, squash(title?.textContent)) && el.querySelector('a[href]') === null) {
          facts.titledSubheading = text;
          subheading = el;
        }
      }
      if (inBody && (name === 'footer' || el.getAttribute('role') === 'contentinfo') && !footer?.contains(el)) {
        footer = el;
        facts.footerText += `${blockText(el)}\n`;
      }
      const child = name === 'template' ? null : firstElement(el.firstChild);
      // The window around the headline is anchored at a lower heading the title holds when no
      // `<h1>` came before it.
      if (inBody && name === 'h1') anchorNearHeadline(el, near, title);
      else if (inBody && el === subheading) anchorNearHeadline(el, near, title, true);
      else if (inBody && (child === null || isTextRun(el, near))) collectNearHeadline(el, near);
      else if (inBody) collectLooseText(el, near);
      if (child !== null) {
        if (name === 'article' || name === 'main') articleDepth++;
        node = child;
        depth++;
        continue;
      }
      // No element children: the next element in document order is a following sibling of this
      // element or of its nearest ancestor (below the top-level one) that has one.
      let at: Node = el;
      node = at === top ? null : firstElement(at.nextSibling);
      while (node === null && at !== top) {
        const parent = at.parentNode;
        if (parent === null) break;
        const parentName = (parent as Element).localName?.toLowerCase();
        if (parentName === 'article' || parentName === 'main') articleDepth--;
        if (parent === body) inBody = false;
        at = parent;
        depth--;
        if (at === near.run) near.run = null;
        if (at !== top) node = firstElement(at.nextSibling);
      }
    }
  }
  facts.docTitle = squash(title?.textContent);
  facts.nearHeadline = nearHeadlineText(near);
  // A label said once names the thread's starter; a page of threads says it for each.
  if (facts.threadAuthor === null && starters.length === 1) facts.threadAuthor = starters[0] ?? null;
  return facts;
}

/**
 * Leaves kept around the headline: a window before it (texts read at the end) and after it. The
 * headline is the first `<h1>` whose words the page's `<title>` holds (see isTitled), else the
 * first `<h1>`: a site's header may hold an `<h1>` of its own (`Search`) before the article's.
 */
interface NearHeadline {
  before: Element[];
  /** The latest leaves, while no headline the title holds has been seen (see anchorNearHeadline). */
  recent: Element[];
  after: string[];
  afterChars: number;
  seen: boolean;
  /** Whether the page's title holds the words of the `<h1>` the window is anchored at. */
  titled: boolean;
  /** The text run the walk is in, read whole (see isTextRun): its descendants are not read again. */
  run: Element | null;
}

/** Inline elements a dateline or a byline is set in, beside its own words. */
const PHRASING = new Set(['a', 'abbr', 'b', 'br', 'em', 'i', 'img', 'small', 'span', 'strong', 'time', 'u']);

/**
 * Whether `el` is a line of text with inline elements in it (`<p>by Jon Foster - 2025-09-13<br>`,
 * `<span><span>●</span> December 23, 2025</span>`), read whole like a leaf: its own words are in
 * no leaf. Not inside a run already read.
 */
function isTextRun(el: Element, near: NearHeadline): boolean {
  if (near.run !== null) return false;
  let words = false;
  for (let node = el.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 3) words ||= (node.nodeValue ?? '').trim() !== '';
    else if (node.nodeType === 1 && !PHRASING.has((node as Element).localName.toLowerCase())) return false;
  }
  if (words) near.run = el;
  return words;
}

const NEAR_BEFORE_LEAVES = 6;
const NEAR_AFTER_CHARS = 1_200;
const MAX_LEAF_CHARS = 200;

/** A leaf's text when it is short enough to be a dateline or byline, else ''. */
function leafText(el: Element): string {
  const text = el.textContent ?? '';
  if (text.length > MAX_LEAF_CHARS * 4) return '';
  const flat = squash(text);
  return flat.length > MAX_LEAF_CHARS ? '' : flat;
}

/**
 * Anchors the window at an `<h1>`: the first one, or a later one whose words the page's title holds
 * when it did not hold the first one's (the window after the headline starts again there). A lower
 * heading the title holds (`provisional`, see DomFacts.titledSubheading) anchors it as an `<h1>`
 * the title does not hold would: a later `<h1>` the title holds takes the window.
 */
function anchorNearHeadline(h1: Element, near: NearHeadline, title: Element | null, provisional = false): void {
  if (near.seen && near.titled) return;
  const titled = !provisional && isTitled(headingText(h1), squash(title?.textContent));
  if (near.seen && !titled) return;
  near.before = near.recent.slice();
  near.after = [];
  near.afterChars = 0;
  near.seen = true;
  near.titled = titled;
}

/** Words a heading needs for the title to hold it as its headline (`Discord` in a title is a word of it). */
const MIN_TITLED_WORDS = 3;

/** Whether the page's `<title>` holds a heading's whole text, of {@link MIN_TITLED_WORDS} words or more. */
function isTitled(heading: string, title: string): boolean {
  return heading.split(' ').length >= MIN_TITLED_WORDS && title.toLowerCase().includes(heading.toLowerCase());
}

/** Called for elements without element children and for text runs, in document order (see readDomFacts). */
function collectNearHeadline(el: Element, near: NearHeadline): void {
  if (near.run !== null && near.run !== el) return;
  // Until a headline the title holds, the latest leaves are kept: they are before the next `<h1>`.
  if (!near.titled) {
    near.recent.push(el);
    if (near.recent.length > NEAR_BEFORE_LEAVES * 2) near.recent.splice(0, NEAR_BEFORE_LEAVES);
    if (!near.seen) return;
  }
  if (near.afterChars >= NEAR_AFTER_CHARS) return;
  const text = leafText(el);
  if (text === '') return;
  near.after.push(text);
  near.afterChars += text.length;
}

/**
 * The words an element holds beside its blocks, outside any element (`<fieldset><legend>Title</legend>
 * 20 December 2025 <div>…</div>`): read after the headline, each run a line of its own, before the
 * element's blocks (a dateline is looked for as the first date of the window).
 */
function collectLooseText(el: Element, near: NearHeadline): void {
  if (!near.seen || near.run !== null || near.afterChars >= NEAR_AFTER_CHARS) return;
  for (let node = el.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== 3) continue;
    const text = squash(node.nodeValue);
    if (text === '' || text.length > MAX_LEAF_CHARS) continue;
    near.after.push(text);
    near.afterChars += text.length;
  }
}

/** The texts around the first `<h1>`, one a line; '' when the page has none. */
function nearHeadlineText(near: NearHeadline): string {
  if (!near.seen) return '';
  const before = near.before
    .map(leafText)
    .filter((t) => t !== '')
    .slice(-NEAR_BEFORE_LEAVES);
  return [...before, ...near.after].join('\n');
}

/** The first element among a node and its following siblings (linkedom leaves some links undefined). */
function firstElement(start: Node | null | undefined): Element | null {
  let node = start;
  while (node && node.nodeType !== 1) node = node.nextSibling;
  return (node as Element | null | undefined) ?? null;
}

function readBodyFacts(
  el: Element,
  name: string,
  facts: DomFacts,
  inArticle: boolean,
  starters: string[],
  teaser: TeaserTest,
): void {
  if (name === 'h1') readHeading(el, facts, inArticle);
  const itemprop = el.getAttribute('itemprop');
  if (itemprop === 'datePublished' && facts.itempropDate === null && !teaser(itemScopeOf(el))) {
    facts.itempropDate = el.getAttribute('content') ?? el.getAttribute('datetime') ?? squash(el.textContent);
  }
  if (
    (itemprop === 'dateCreated' || itemprop === 'datePublished') &&
    facts.threadDate === null &&
    isThreadItem(itemScopeOf(el))
  ) {
    facts.threadDate = el.getAttribute('content') ?? el.getAttribute('datetime') ?? squash(el.textContent);
  }
  const articleTime = name === 'time' && (inArticle || el.hasAttribute('pubdate'));
  if (articleTime && facts.times.size < MAX_TIMES) facts.times.add(el.getAttribute('datetime') ?? '');
  if (articleTime && facts.articleTime === null) {
    if (!isModifiedTime(el, itemprop)) facts.articleTime = el.getAttribute('datetime');
  }
  const marked = facts.bylines.length < MAX_BYLINES && isBylineElement(el, name, itemprop);
  // A quoted person's name (a testimonial's, a reviewer's) is not the page's byline.
  const quoted = (marked || hasBylineNames(el)) && quotedVoice(el);
  if (quoted && facts.quotedBylines.length < MAX_BYLINES) facts.quotedBylines.push(squash(el.textContent));
  const byline = marked && !quoted;
  const thread = itemprop === 'author' && facts.threadAuthor === null && isThreadItem(itemScopeOf(el));
  if (byline || thread) {
    const flat = squash(el.textContent);
    const short = flat.length <= MAX_BYLINE_SOURCE_CHARS;
    // Read even when it shows no text: a `<meta itemprop="name">` may name the author.
    const text = flat.length <= MAX_AUTHOR_BOX_CHARS ? bylineText(el) : '';
    if (thread && short && flat !== '') facts.threadAuthor = text;
    // An author box: the name on its first line, a biography under it. An empty byline element
    // takes one of the places too.
    if (byline && flat.length <= MAX_AUTHOR_BOX_CHARS)
      facts.bylines.push(short ? text : (text.split('\n', 1)[0] ?? ''));
  }
  if (starters.length < 2 && el.firstElementChild === null) {
    const starter = starterName(el);
    if (starter !== null) starters.push(starter);
  }
  if (facts.postAuthor === null) {
    const poster = squash(el.getAttribute('data-author'));
    if (poster !== '' && poster.length <= MAX_POSTER_CHARS) facts.postAuthor = poster;
  }
  if (facts.textBylines.length < MAX_TEXT_BYLINES && (facts.h1 !== '' || facts.titledSubheading !== '')) {
    const text = startsWithByLabel(el) || startsWithDateThenBy(el) ? squash(el.textContent) : '';
    const dated = text.length <= MAX_DATED_BYLINE_CHARS ? datedBylineName(text) : null;
    if (TEXT_BYLINE.test(text)) facts.textBylines.push(text);
    else if (dated !== null) facts.textBylines.push(`By ${dated}`);
    else if (el.firstElementChild === null) {
      const name = labelledName(el);
      if (name !== null) facts.textBylines.push(`By ${name}`);
    }
  }
}

/**
 * The name in the element after `el` when `el` is only a byline's label (see {@link BYLINE_LABEL}),
 * else null.
 */
function labelledName(el: Element): string | null {
  const label = el.textContent ?? '';
  if (label.length > 20 || !BYLINE_LABEL.test(label.trim())) return null;
  const next = el.nextElementSibling;
  const name = next === null ? '' : squash(next.textContent);
  return name.length <= MAX_TEXT_BYLINE_CHARS && NAME_ONLY.test(name) ? name : null;
}

/** What a forum writes before the name of a thread's starter (XenForo: `Thread starter`, for screen readers). */
const STARTER_LABEL = /^(?:thread starter|topic starter|original poster)$/i;
/** A user name: one to four words, no colon or bar, a letter in it. */
const USER_NAME = /^(?=.*\p{L})[^\s:|]+(?: [^\s:|]+){0,3}$/u;

/**
 * The user name in the element after `el` when `el` is only a thread starter's label (see
 * {@link STARTER_LABEL}), else null.
 */
function starterName(el: Element): string | null {
  // Asked of every element without children: a label is one short text node.
  const only = el.firstChild;
  if (only === null || only !== el.lastChild || only.nodeType !== 3) return null;
  const label = (only as CharacterData).data;
  if (label.length > 30 || !STARTER_LABEL.test(label.trim())) return null;
  const name = squash(el.nextElementSibling?.textContent);
  return name.length <= MAX_POSTER_CHARS && USER_NAME.test(name) ? name : null;
}

function readHeading(el: Element, facts: DomFacts, inArticle: boolean): void {
  const wanted = facts.h1 === '' || (inArticle && facts.mainH1 === '') || facts.h1s.length < MAX_H1S;
  if (!wanted) return;
  const text = headingText(el);
  if (facts.h1 === '') facts.h1 = text;
  if (inArticle && facts.mainH1 === '') facts.mainH1 = text;
  if (text !== '' && facts.h1s.length < MAX_H1S) facts.h1s.push(text);
}

/** The headings a headline is set in when a page has no `<h1>` (see DomFacts.titledSubheading). */
const SUBHEADINGS = /^h[2-4]$/;
/**
 * Lower headings read for the headline at most: each read walks the heading, and a page nesting
 * thousands would cost their square. A headline so set is among a page's first headings.
 */
const MAX_SUBHEADINGS_READ = 20;

/** Tags inside a heading that are not its words: a dateline's `<time>`, a heading left unclosed. */
const NOT_HEADLINE_TAG = /^(?:time|button|h[2-6])$/;

/**
 * Whether an element inside a heading is not part of its words: copies hidden from readers
 * (`aria-hidden`, `hidden`; animated headlines repeat their words there), a `<time>` printed beside
 * the headline, a byline, a button (`Copy item path`), or the next heading where
 * the page left the `<h1>` unclosed.
 */
function notHeadlineText(el: Element, tag: string): boolean {
  if (NOT_HEADLINE_TAG.test(tag) || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden')) return true;
  const cls = el.getAttribute('class');
  return cls !== null && BYLINE_CLASS.test(cls);
}

/**
 * A heading's text as shown: `<br>` is a space (`Data Analytics<br>Agency`); hidden copies, dates
 * and bylines inside it are left out (see notHeadlineText).
 */
export function headingText(el: Element): string {
  let out = '';
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) out += child.nodeValue ?? '';
      if (child.nodeType !== 1) continue;
      const e = child as Element;
      const tag = e.localName.toLowerCase();
      if (tag === 'br') out += ' ';
      else if (!notHeadlineText(e, tag)) walk(e);
    }
  };
  walk(el);
  // Documentation generators end headings with a permalink sign (`Title¶`).
  return squash(out).replace(/\s*[¶#§]$/u, '');
}

/** A forum user name; longer `data-author` values are not one. */
const MAX_POSTER_CHARS = 60;
/** schema.org types of a forum thread's or a question's first post. */
const THREAD_ITEM = /schema\.org\/(?:DiscussionForumPosting|Question)$/i;

/** The `href`s of `<link rel="canonical">` elements. */
function canonicalHrefs(links: readonly Element[]): string[] {
  return links
    .filter((link) => /(?:^|\s)canonical(?:\s|$)/i.test(link.getAttribute('rel') ?? ''))
    .map((link) => link.getAttribute('href') ?? '');
}

/** The contents of `og:url` meta tags. */
function ogUrls(metas: readonly Element[]): string[] {
  return metas.filter((m) => m.getAttribute('property') === 'og:url').map((m) => m.getAttribute('content') ?? '');
}

/** `href` resolved against `base`; `base` when it cannot be. */
function resolveOr(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return base;
  }
}

/** The microdata item a property of `el` belongs to: its nearest ancestor with `itemscope`. */
export function itemScopeOf(el: Element): Element | null {
  let at = el.parentElement;
  while (at !== null && !at.hasAttribute('itemscope')) at = at.parentElement;
  return at;
}

function isThreadItem(item: Element | null): boolean {
  return item !== null && THREAD_ITEM.test((item.getAttribute('itemtype') ?? '').trim());
}

/** Words that label a date as a revision's (`This page was last modified on`, `Updated:`). */
const MODIFIED_LABEL = /\b(?:modified|updated|edited|revised|reviewed|changed)(?:\s+(?:on|at))?\s*:?\s*$/i;

/**
 * Whether a `<time>` dates a revision, not the publication: marked `dateModified` (microdata), or
 * labelled so by the text just before it (`This page was last modified on <time>`).
 */
function isModifiedTime(el: Element, itemprop: string | null): boolean {
  if (itemprop !== null && /^date(?:Modified|Updated)$/.test(itemprop)) return true;
  let before = '';
  for (let node = el.previousSibling; node !== null && before.length < 60; node = node.previousSibling) {
    before = (node.textContent ?? '') + before;
  }
  return MODIFIED_LABEL.test(before);
}

/** Whether an element's text starts with a byline's label, read from its first text node alone. */
function startsWithByLabel(el: Element): boolean {
  let node = el.firstChild;
  while (node !== null && node.nodeType === 3 && (node.nodeValue ?? '').trim() === '') node = node.nextSibling;
  const text = node !== null && node.nodeType === 3 ? (node.nodeValue ?? '') : '';
  return squash(text).length <= MAX_TEXT_BYLINE_CHARS && BY_LABEL.test(text);
}

/** Whether `el` opens with a `<time>` and then a byline's label (`<time>03/01/2017</time> by Agatha Caleo`). */
function startsWithDateThenBy(el: Element): boolean {
  let node = el.firstChild;
  while (node !== null && node.nodeType === 3 && (node.nodeValue ?? '').trim() === '') node = node.nextSibling;
  if (node === null || node.nodeType !== 1 || (node as Element).localName.toLowerCase() !== 'time') return false;
  const next = node.nextSibling;
  return next !== null && next.nodeType === 3 && BY_LABEL.test(next.nodeValue ?? '');
}

/** The name of a byline dated on its line (see DATED_BYLINES), else null. */
function datedBylineName(text: string): string | null {
  for (const pattern of DATED_BYLINES) {
    const name = pattern.exec(text)?.[1];
    if (name !== undefined) return name;
  }
  return null;
}

/** Class words of the element of a byline that holds the name alone: `author-name`, `byline__name`, `username`. */
const NAME_CLASS = /(?:^|[\s_-])(?:user)?name(?:$|[\s_-])/i;

/**
 * A byline element's text, one line per block (`Written By`, `Jane Doe`, `AI Writer`), after the
 * first line of its element that holds the name (`itemprop="name"`, a `…-name` class) when it has
 * one: author cards set the name beside a role or a date in elements that only the page's styles
 * separate (`<span class="author__name">Jane Doe</span><span class="author__role">Founder</span>`).
 */
function bylineText(el: Element): string {
  const lines = (root: Element) => blockText(root).split(/\n+/);
  let named: Element | null = el.querySelector('[itemprop="name"]');
  if (named === null) {
    for (const child of Array.from(el.querySelectorAll('[class]'))) {
      if (NAME_CLASS.test(child.getAttribute('class') ?? '')) {
        named = child;
        break;
      }
    }
  }
  // A microdata value on a <meta> is its content (`<meta itemprop="name" content="julian">`).
  const content = named?.getAttribute('content');
  const name = named === null ? [] : content ? [squash(content)] : lines(named).slice(0, 1);
  // A byline's tag and category links (`Personal finance` beside the date) name no one.
  const taxonomy = Array.from(el.querySelectorAll('a[href]'))
    .filter((a) => TAXONOMY_HREF.test(a.getAttribute('href') ?? ''))
    .map((a) => squash(a.textContent))
    .filter((text) => text !== '');
  const withoutTaxonomy = (line: string) => taxonomy.reduce((rest, text) => rest.replace(text, ' '), line).trim();
  return [...name, ...lines(el)]
    .map(withoutTaxonomy)
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * The words of an element's class and id, lower case, camel case split too
 * (`CustomerQuotes_authorInfo` → `customer`, `quotes`, `author`, `info`).
 */
export function nameWords(el: Element): string[] {
  return `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
}

/** Class and id words of a block that quotes someone: a testimonial, a review, a comment. */
const QUOTED_WORDS = new Set([
  'testimonial',
  'testimonials',
  'quote',
  'quotes',
  'customer',
  'customers',
  'review',
  'reviews',
  'comment',
  'comments',
]);
/** How far up a byline's ancestors a quoting block is looked for. */
const QUOTED_DEPTH = 8;

/**
 * Whether `el` is inside a block that quotes someone (a `<blockquote>`, or a class or id word
 * `testimonial`, `quote`, `customer`, `review` or `comment`, camel case too: `CustomerQuotes_author`),
 * below any `<article>` or `<main>`: the name there is the quoted person's, not the page's author.
 */
export function quotedVoice(el: Element): boolean {
  let at: Element | null = el;
  for (let depth = 0; at !== null && depth < QUOTED_DEPTH; depth++, at = at.parentElement) {
    const name = at.localName.toLowerCase();
    if (name === 'article' || name === 'main' || name === 'body') return false;
    if (name === 'blockquote') return true;
    if (nameWords(at).some((w) => QUOTED_WORDS.has(w))) return true;
  }
  return false;
}

function isBylineElement(el: Element, name: string, itemprop: string | null): boolean {
  if (itemprop === 'author') return true;
  if (name === 'a' && /(?:^|\s)author(?:\s|$)/i.test(el.getAttribute('rel') ?? '')) return true;
  // A link to the author's page (`/author/jane/`, `?author=102`) names the author.
  if (name === 'a' && AUTHOR_HREF.test(el.getAttribute('href') ?? '')) return true;
  const cls = el.getAttribute('class');
  if (cls && BYLINE_CLASS.test(cls)) return !AUTHOR_DETAIL_CLASS.test(cls);
  const id = el.getAttribute('id');
  return id !== null && BYLINE_CLASS.test(id) && !AUTHOR_DETAIL_CLASS.test(id) && !hasTextAnchorId(el);
}

const SEPARATORS = '[|\\-–—:·»/_]+';

/**
 * Removes the site name from a title: `Headline | Site`, `Site - Headline`, `Headline__Site`.
 * Titles that are nothing but the site name stay as they are. With `keepColonPrefix` a leading
 * `Site: ` stays (a home page's `Figma: The Collaborative Interface Design Tool` names the site).
 */
export function stripSiteName(title: string, siteName: string | null, keepColonPrefix = false): string {
  if (!siteName) return title;
  const prefixSeparators = keepColonPrefix ? SEPARATORS.replace(':', '') : SEPARATORS;
  // `Aktuálně.cz - Víte, co se právě děje` appears in titles as just `Aktuálně.cz`.
  const short = siteName.split(/\s+[|\-–—:]\s+/)[0] ?? siteName;
  for (const candidate of new Set([siteName, short])) {
    const name = candidate.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const stripped = title
      .replace(new RegExp(`\\s*${SEPARATORS}\\s*${name}\\s*$`, 'i'), '')
      .replace(new RegExp(`^\\s*${name}\\s*${prefixSeparators}\\s*`, 'i'), '')
      .trim();
    if (stripped !== '' && stripped !== title) return stripped;
  }
  return title;
}

/**
 * Whether a candidate title is about the same thing as a reference (the `<title>` or `<h1>`): at
 * least half of its words occur there. JSON-LD `headline` is sometimes a description (Wikipedia).
 */
export function agreesWith(candidate: string, reference: string): boolean {
  const words = candidate.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (reference === '' || words.length === 0) return true;
  const ref = reference.toLowerCase();
  return words.filter((word) => ref.includes(word)).length * 2 >= words.length;
}

/** The headline part of a `<title>` like `Headline__Section_Site` or `Headline - Site` (CJK pages). */
export function headlineOf(title: string): string {
  const first = title.split(/\s*(?:__|_|\||-{1,2}|–|—)\s*/)[0]?.trim() ?? '';
  return first.length >= 4 ? first : title;
}
