import { squash } from './text.js';

/** Facts read from the DOM before Readability rewrites it. */
export interface DomFacts {
  htmlLang: string | null;
  docTitle: string;
  h1: string;
  /** Texts of elements that look like bylines, best first. */
  bylines: string[];
  /** `itemprop="datePublished"` value (content, datetime or text). */
  itempropDate: string | null;
  /** First `<time datetime>` inside `<article>`/`<main>`, or one marked `pubdate`. */
  articleTime: string | null;
}

/** Classes and ids that mark a byline; `rel=author` and `itemprop=author` are checked too. */
const BYLINE_CLASS = /(?:^|[\s_-])(?:byline|by-line|author|writer|dateline-author)(?:$|[\s_-])/i;
/** Bylines are short; longer matches are containers that happen to carry the class. */
const MAX_BYLINE_SOURCE_CHARS = 200;
const MAX_BYLINES = 5;

/**
 * Reads the facts {@link extractHtml} needs from the untouched DOM in one walk (linkedom answers a
 * querySelector by walking the whole tree, so ten selectors cost ten walks).
 */
export function readDomFacts(doc: Document): DomFacts {
  const root = doc.documentElement;
  const facts: DomFacts = {
    htmlLang: root?.getAttribute('lang') ?? root?.getAttribute('xml:lang') ?? null,
    docTitle: squash(doc.querySelector('title')?.textContent),
    h1: '',
    bylines: [],
    itempropDate: null,
    articleTime: null,
  };
  if (doc.body) visit(doc.body, facts, false);
  return facts;
}

function visit(node: Node, facts: DomFacts, inArticle: boolean): void {
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType !== 1) continue;
    const el = child as Element;
    const name = el.nodeName.toLowerCase();
    if (name === 'h1' && facts.h1 === '') facts.h1 = squash(el.textContent);
    const itemprop = el.getAttribute('itemprop');
    if (itemprop === 'datePublished' && facts.itempropDate === null) {
      facts.itempropDate = el.getAttribute('content') ?? el.getAttribute('datetime') ?? squash(el.textContent);
    }
    if (name === 'time' && facts.articleTime === null && (inArticle || el.hasAttribute('pubdate'))) {
      facts.articleTime = el.getAttribute('datetime');
    }
    if (facts.bylines.length < MAX_BYLINES && isBylineElement(el, name, itemprop)) {
      const text = squash(el.textContent);
      if (text !== '' && text.length <= MAX_BYLINE_SOURCE_CHARS) facts.bylines.push(text);
    }
    visit(el, facts, inArticle || name === 'article' || name === 'main');
  }
}

function isBylineElement(el: Element, name: string, itemprop: string | null): boolean {
  if (itemprop === 'author') return true;
  if (name === 'a' && /(?:^|\s)author(?:\s|$)/i.test(el.getAttribute('rel') ?? '')) return true;
  const cls = el.getAttribute('class');
  if (cls && BYLINE_CLASS.test(cls)) return true;
  const id = el.getAttribute('id');
  return id !== null && BYLINE_CLASS.test(id);
}

const SEPARATORS = '[|\\-–—:·»/_]+';

/**
 * Removes the site name from a title: `Headline | Site`, `Site - Headline`, `Headline__Site`.
 * Titles that are nothing but the site name stay as they are.
 */
export function stripSiteName(title: string, siteName: string | null): string {
  if (!siteName) return title;
  // `Aktuálně.cz - Víte, co se právě děje` appears in titles as just `Aktuálně.cz`.
  const short = siteName.split(/\s+[|\-–—:]\s+/)[0] ?? siteName;
  for (const candidate of new Set([siteName, short])) {
    const name = candidate.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const stripped = title
      .replace(new RegExp(`\\s*${SEPARATORS}\\s*${name}\\s*$`, 'i'), '')
      .replace(new RegExp(`^\\s*${name}\\s*${SEPARATORS}\\s*`, 'i'), '')
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
