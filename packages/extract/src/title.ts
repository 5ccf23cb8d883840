import { stripSiteName } from './dom-facts.js';
import { repairMojibake } from './mojibake.js';
import { truncate } from './text.js';
import { slugCoverage, slugWords } from './title-slug.js';
import {
  fold,
  hostLabels,
  isHomePage,
  MAX_CJK_TAIL_CHARS,
  MAX_RUN_CHARS,
  namesSite,
  SEPARATOR,
  SEPARATOR_MARK,
  segmentRuns,
  stripTitle,
} from './title-strip.js';
import { titleText } from './title-text.js';

/** What a page says its title is, from each source ('' or null when it says nothing). */
export interface TitleSources {
  ogTitle: string | null;
  /** `twitter:title`: a title when nothing else declares one, never a confirmation of one. */
  twitterTitle?: string | null;
  /** JSON-LD `headline`, when it agrees with the page (see agreesWith). */
  jsonLdHeadline: string | null;
  readabilityTitle: string | null;
  docTitle: string;
  /** The main `<h1>` (inside `<article>`/`<main>`, else the first one). */
  h1: string;
  /** The first few `<h1>` texts as shown, in document order (the site's logo is often the first). */
  h1s?: readonly string[];
  siteName: string | null;
  url: string;
  /** Whether the page declares itself an article (og:type, JSON-LD): its `<h1>` is its headline. */
  declaresArticle?: boolean;
}

const MAX_H1_CHARS = MAX_RUN_CHARS;
/** The longest declared title read whole (the longest of the 1,458 shared pages' is 257 characters). */
const MAX_TITLE_CHARS = 1_000;
/** What a `<title>` calls a page when it names none (`Best Sharpening Stones | Home Page`). */
const GENERIC_PAGE_NAME = /^(?:home(?:\s*page)?|homepage|index|untitled(?: document)?|welcome)$/i;
/** A declared title this long that an `<h1>` continues mid-word was cut from it (see cutFrom). */
const MIN_CUT_CHARS = 20;
/** How much more of the URL's slug a title must cover to replace the agreed one (see preferSlugMatch). */
const SLUG_MARGIN = 0.34;
/** A title cut short by the site (`What do you guys think will be the trend in the watch...`). */
const TRUNCATED = /(?:\.\.\.|…)$/u;
/** The share of words two titles must have in common to be one title reworded. */
const NEARLY_SAME = 0.8;
/** A word, or one Chinese or Japanese character (written without spaces). */
const WORD =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])+/gu;
/** Chinese or Japanese text, where {@link nearlySame} counts characters, not words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** A file name or path shown as a page's `<h1>` (`/writeup.md` on a gist): not its headline. */
const PATH_H1 = /^\/\S*$/;
/** A dateline that a site put inside its `<h1>`, after the headline (`… Guide! January 1, 2025`). */
const TRAILING_DATE =
  /\s+(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2})$/i;

/**
 * A separator at either end of a declared title, its headline or site left empty by the page's
 * template (`| Nuts & Volts Magazine`, `Real Headline |`): the empty part goes with it. Not a sign
 * or a dash that a word follows closely (`-40 degrees`). When the empty part is the first, what is
 * left names the site.
 */
const LEADING_SEPARATOR = new RegExp(`^${SEPARATOR_MARK}\\s+`, 'u');
const TRAILING_SEPARATOR = new RegExp(`\\s+${SEPARATOR_MARK}$`, 'u');

const usable = (text: string | null | undefined): text is string =>
  typeof text === 'string' && text.trim() !== '' && !/^(?:https?:\/\/|www\.)\S+$/i.test(text.trim());

/** A title's words, lower-cased (a Chinese or Japanese character is one, see {@link WORD}). */
const titleWords = (title: string): string[] => title.toLowerCase().match(WORD) ?? [];

/** Whether two titles share most of their words (`The Best X of 2025` and `Best X of 2025`). */
function nearlySame(a: string, b: string): boolean {
  const wa = titleWords(a);
  const wb = new Set(titleWords(b));
  return wa.filter((w) => wb.has(w)).length >= NEARLY_SAME * Math.max(wa.length, wb.size);
}

/** The folded runs of a title's `: `-separated parts, short of the whole (`A: B : C` → `a`, `b`, `ab`, `bc`...). */
function colonRuns(title: string): string[] {
  const parts = title.split(/\s?:\s/).map(fold);
  const runs: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    let run = '';
    for (let j = i; j < parts.length && j - i < parts.length - 1; j++) {
      run += parts[j];
      // No `<h1>` read is longer (see MAX_RUN_CHARS).
      if (run.length > MAX_RUN_CHARS) break;
      runs.push(run);
    }
  }
  return runs;
}

/**
 * Whether a declared title is a headline cut off mid-word by the site, without an ellipsis
 * (`…your monitor, laptop, and k` of `…your monitor, laptop, and keyboard (checklist)`).
 */
function cutFrom(declared: string, headline: string): boolean {
  const d = declared.toLowerCase();
  const h = headline.toLowerCase();
  return d.length >= MIN_CUT_CHARS && h.startsWith(d) && /^\p{L}{2}/u.test(h.slice(d.length)) && /\p{L}$/u.test(d);
}

/**
 * Whether an `<h1>` words the declared title a little differently, as its headline shown on the
 * page: `…Your Business in 2025` for `…Your Business (2025)`, `Zero Waste for Beginners` for
 * `Zero Waste for Beginners Archives`, an older `…in 2024` brought up to date. Not an `<h1>` in
 * capitals (the declared title keeps the case), one that only puts a label before the declared
 * title (`Thread: …`, `Blog: …`), nor Chinese or Japanese text (counted by characters, where a
 * title and its `_Site` tail look alike).
 */
function rewordsDeclared(headline: string, declared: string): boolean {
  if (declared === '' || CJK.test(headline) || CJK.test(declared) || !nearlySame(headline, declared)) return false;
  const capitals = headline === headline.toUpperCase() && declared !== declared.toUpperCase();
  // `Headline | Python, SQL & AI`, `Headline (example.com) 139`: the declared title and a tail.
  const tail =
    headline.toLowerCase().startsWith(declared.toLowerCase()) && /^\s*[|\-–—([]/u.test(headline.slice(declared.length));
  // `Event Planning? Beginner? Guide`: characters the page's encoding lost.
  const lost =
    /\uFFFD|[ÂÃ]/u.test(headline) || (headline.match(/\?/g) ?? []).length > (declared.match(/\?/g) ?? []).length;
  return !capitals && !tail && !lost && !fold(headline).endsWith(fold(declared));
}

/**
 * A sentence's end inside a text, before the next one's capital (`…investment)? Get`, `ROI. We'll`);
 * not an initial's period (`J. B. MacKinnon`, `U.S. Army`).
 */
const SENTENCE_BREAKS = /(?:(?<!(?:^|[\s.(])\p{Lu})\.|[!?…])(?=["'”’)]*\s+["'“‘(]*\p{Lu})/gu;

/** A headline of sentences is at least this long (`Mr. Smith Goes. To Washington` is none). */
const MIN_PROSE_CHARS = 120;

/** Whether a text is sentences, not a headline: a long one that goes on after two sentence ends or more. */
function isProse(text: string): boolean {
  return text.length >= MIN_PROSE_CHARS && (text.match(SENTENCE_BREAKS) ?? []).length >= 2;
}

/** Whether two titles have a word of three letters or more in common. */
function sharesWord(a: string, b: string): boolean {
  const words = (t: string) => titleWords(t).filter((w) => w.length >= 3 || CJK.test(w));
  const wb = new Set(words(b));
  return words(a).some((w) => wb.has(w));
}

/** Whether two titles give the same numbers (`in 2025` and `in 2026` do not: one is out of date). */
function sameNumbers(a: string, b: string): boolean {
  const numbers = (t: string) => (t.match(/\d+/g) ?? []).join(' ');
  return numbers(a) === numbers(b);
}

/** Whether a headline is a shorter run of a declared title's words (`Headlamps` in `Headlamps for Camping`). */
function shortNameOf(headline: string, declared: string): boolean {
  const folded = fold(headline);
  return folded !== '' && declared !== '' && fold(declared).includes(folded) && !nearlySame(headline, declared);
}

/**
 * The folded last part of a `<title>` made of parts (`What is Ownership? - The Rust Programming
 * Language` → `therustprogramminglanguage`): where a title names its site or book; '' if none.
 */
function lastSegment(docTitle: string | null): string {
  const segments = docTitle === null ? [] : docTitle.split(SEPARATOR);
  return segments.length >= 2 ? fold(segments.at(-1) ?? '') : '';
}

/**
 * A CJK `<title>` whose last space-separated part is one of the page's `<h1>` texts (its logo):
 * Chinese and Japanese write no spaces between words, so a space there parts the headline from the
 * site's name (`土豆不“土” 土豆无“土” 松花江网`). The head and that tail; null otherwise.
 */
function spacedCjkTail(docTitle: string | null, h1s: readonly string[]): { head: string; tail: string } | null {
  const match = docTitle === null ? null : /^(.*\S)\s+(\S+)$/u.exec(docTitle);
  if (!match) return null;
  const [, head = '', tail = ''] = match;
  if (!CJK.test(head) || !CJK.test(tail) || Array.from(tail).length > MAX_CJK_TAIL_CHARS) return null;
  const folded = fold(tail);
  return h1s.some((h) => h !== '' && fold(h) === folded) ? { head, tail } : null;
}

/** Pages with this many `<h1>` elements use them as section headings (`Day 7`, `Day 8`...). */
const MANY_H1S = 3;

/**
 * The headline that may stand without a declared title confirming it: the main `<h1>`, else the
 * page's first `<h1>`; a later `<h1>` only on a page with few of them (on a page with many, the one
 * after the site's logo is the first section's heading).
 */
function unconfirmedHeadline(headlines: readonly string[], mainH1: string, h1s: readonly string[]): string | undefined {
  const first = headlines[0];
  if (first === undefined || h1s.length < MANY_H1S) return first;
  return first === mainH1 || first === h1s[0] ? first : undefined;
}

/**
 * The page's title, reconciled from what it declares (og:title, twitter:title, JSON-LD headline,
 * Readability's metadata title, `<title>`) and the headline it shows (its `<h1>` elements):
 * - the declared title loses the site's name (see {@link stripTitle}); one that is only the site's
 *   name or cut short (`...`) gives way to the next;
 * - an `<h1>` that is the `<title>`'s last part names the site or book (a logo), not the page;
 * - an `<h1>` that a declared title confirms, whole or as one of its ` | `- or `: `-separated
 *   parts, wins (but og:title when it only rewords, with the same numbers, an `<h1>` that just the
 *   `<title>` confirms), and so does an `<h1>` of which the declared title is a cut-off start;
 * - an `<h1>` that repeats the declared title with a ` | Section` tail loses the tail, and one with
 *   a dateline after the headline is the declared title;
 * - on a page that declares itself an article its `<h1>` wins unless it only rewords the declared
 *   title or shares no word with it (`Our BLOG`, a section's banner; a later `<h1>` only on a page
 *   with few), and so does an `<h1>` that is a shorter run of the declared title's words, and one
 *   that words it a little differently (see rewordsDeclared); an `<h1>` of sentences (see isProse)
 *   does neither;
 * - else the declared title, unless it is a generic `Home Page` or the site's name that a template
 *   left alone (`| Site`, see LEADING_SEPARATOR); else the first `<h1>`;
 * - last, of the declared title and the `<h1>`, the one the URL's slug was made from replaces the
 *   other (see preferSlugMatch), and a short label before the JSON-LD headline goes (see withoutLabel).
 * Every source is read as shown (see titleText), without a separator left at its ends by an empty
 * part (see LEADING_SEPARATOR); an `<h1>` that is a path (`/writeup.md`) is none.
 * Never a bare URL; '' only when the page gives none of these.
 */
export function reconcileTitle(sources: TitleSources): string {
  const { title, stripped, headline } = agreedTitle(sources);
  return withoutLabel(preferSlugMatch(title, [stripped, headline], sources.url), sources.jsonLdHeadline);
}

/** A label a forum or blog puts before a headline (`News`, `Solved`, `2024`): a few words at most. */
const MAX_LABEL_WORDS = 3;

/**
 * A title that is a short label, a separator and the JSON-LD headline (`News - Digital Cameras: …`
 * beside a headline `Digital Cameras: …`): the headline, as the page's structured data states it.
 * The label is a thread's prefix or a section's name, no part of the headline.
 */
function withoutLabel(title: string, jsonLdHeadline: string | null): string {
  const declared = fold(usable(jsonLdHeadline) ? titleText(repairMojibake(jsonLdHeadline)) : '');
  if (declared === '') return title;
  const parts = title.split(SEPARATOR);
  for (let i = 1; i < parts.length; i++) {
    const label = parts.slice(0, i).join(' ');
    if (titleWords(label).length > MAX_LABEL_WORDS) break;
    const rest = rejoinFrom(title, i);
    if (fold(rest) === declared) return rest;
  }
  return title;
}

/** A title from its `index`th separator-parted segment on, with the separators between them. */
function rejoinFrom(title: string, index: number): string {
  let rest = title;
  for (let i = 0; i < index; i++) {
    const m = SEPARATOR.exec(rest);
    if (!m) return '';
    rest = rest.slice(m.index + m[0].length);
  }
  return rest.trim();
}

/**
 * Of the declared title and the headline, the one that covers clearly more of the URL's slug words
 * (see slugCoverage) when the chosen one is one of them: `/r/…/best_laptop_for_college_to_buy/`
 * is not the `<title>`'s `The heart of the internet`.
 */
function preferSlugMatch(chosen: string, candidates: readonly string[], url: string): string {
  const slug = slugWords(url);
  if (slug.length === 0 || !candidates.includes(chosen)) return chosen;
  const own = slugCoverage(slug, chosen);
  const better = candidates.find((c) => c !== '' && slugCoverage(slug, c) >= own + SLUG_MARGIN);
  return better ?? chosen;
}

/**
 * Readability's title, or the `<title>` where Readability cut a kicker the page's headline also
 * starts with: it drops what stands before a title's colon (`Energiewende: Windkraftanlagen in
 * Schleswig-Holstein liefern Rekordstrom` → `Windkraftanlagen…`) unless a heading repeats the
 * whole title, but an `<h1>` `Energiewende: Windkraftanlagen liefern Rekordstrom` shows it is the
 * headline's own word, not a site's name.
 */
function withKicker(readability: string | null, docTitle: string | null, h1: string): string | null {
  if (readability === null || docTitle === null || docTitle === readability || !docTitle.endsWith(readability)) {
    return readability;
  }
  const kicker = /^(.+?)\s?:\s*$/.exec(docTitle.slice(0, docTitle.length - readability.length))?.[1];
  if (kicker === undefined) return readability;
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const heading = words(h1);
  const lead = words(kicker);
  const starts = lead.length > 0 && heading.length > lead.length && lead.every((word, i) => heading[i] === word);
  return starts ? docTitle : readability;
}

/** The title reconciled by agreement between sources, with the two candidates it chose between. */
function agreedTitle(sources: TitleSources): { title: string; stripped: string; headline: string } {
  const labels = hostLabels(sources.url);
  const shown = (h: string) => titleText(repairMojibake(h));
  const h1 = sources.h1.length <= MAX_H1_CHARS ? shown(sources.h1) : '';
  const mainH1 = PATH_H1.test(h1) ? '' : h1;
  // Declared titles whose headline the page's template left empty (see LEADING_SEPARATOR).
  const headless = new Set<string>();
  const clean = (t: string | null | undefined): string | null => {
    const shownTitle = usable(t) ? titleText(repairMojibake(t.trim())) : '';
    const text = shownTitle.replace(LEADING_SEPARATOR, '').replace(TRAILING_SEPARATOR, '').trim();
    if (text !== '' && LEADING_SEPARATOR.test(shownTitle)) headless.add(text);
    // A keyword dump, not a title: cut, and marked cut, so that a source that says less comes first.
    return text === '' ? null : text.length > MAX_TITLE_CHARS ? truncate(text, MAX_TITLE_CHARS) : text;
  };
  const og = clean(sources.ogTitle);
  // `土豆不“土” 土豆无“土” 松花江网` beside an `<h1>` 松花江网: the site's logo, after a space.
  const spaced = spacedCjkTail(clean(sources.docTitle), [mainH1, ...(sources.h1s ?? []).map(shown)]);
  const docTitle = spaced?.head ?? clean(sources.docTitle);
  // Readability's title is the `<title>` too, and another declared title may end with the logo.
  const withoutLogo = (t: string | null) =>
    spaced && t?.endsWith(` ${spaced.tail}`) ? t.slice(0, t.length - spaced.tail.length).trimEnd() : t;
  const declared = [
    og,
    clean(sources.twitterTitle),
    clean(sources.jsonLdHeadline),
    withKicker(clean(sources.readabilityTitle), docTitle, mainH1),
  ]
    .map(withoutLogo)
    .concat(docTitle)
    .filter((t): t is string => t !== null);
  const main = declared.find((t) => !namesSite(t, sources.siteName, labels, 0) && !TRUNCATED.test(t)) ?? declared[0];
  const tail = spaced ? fold(spaced.tail) : lastSegment(docTitle);
  // The `<h1>` of a book or site's logo is the declared title's last part, not its headline.
  const logo = (h: string) => tail !== '' && fold(h) === tail;
  const stripH1 = logo(mainH1) ? '' : mainH1;
  const declaredStripped =
    main !== undefined ? stripTitle(main, sources.siteName, labels, stripH1, isHomePage(sources.url)) : '';
  const stripped = stripH1 === mainH1 ? declaredStripped : stripSiteName(declaredStripped, mainH1);
  const stripDoc = (h: string) => stripTitle(h, sources.siteName, labels, '', isHomePage(sources.url));
  const headlines = [stripH1, ...(sources.h1s ?? []).map(shown)]
    .filter(
      (h) =>
        usable(h) &&
        h.length <= MAX_H1_CHARS &&
        !PATH_H1.test(h) &&
        !namesSite(h, sources.siteName, labels, 0) &&
        !logo(h),
    )
    .map((h) => stripSiteName(h, sources.siteName))
    // An `<h1>` that repeats the whole `<title>`, site and all, loses the site as the title does.
    .map((h) => (docTitle !== null && fold(h) === fold(docTitle) && SEPARATOR.test(h) ? stripDoc(h) : h));
  // An `<h1>` of sentences beside a declared title is the page's summary put in the wrong element:
  // no headline to prefer, by the rules below or by the URL's slug (see preferSlugMatch).
  const asHeadline = (h: string | undefined): string | undefined =>
    h !== undefined && stripped !== '' && isProse(h) ? undefined : h;
  const slugHeadline = asHeadline(headlines[0]) ?? '';
  const done = (title: string) => ({ title, stripped, headline: slugHeadline });

  const confirming = [og, clean(sources.jsonLdHeadline), clean(sources.readabilityTitle), docTitle];
  const confirmed = new Set<string>();
  for (const title of confirming) if (title !== null) for (const run of segmentRuns(title)) confirmed.add(run);
  // `Product name : Category`, `Product: Author: Store`: the parts before a colon name the page too.
  for (const title of confirming) if (title !== null) for (const run of colonRuns(title)) confirmed.add(run);
  const byOgOrJsonLd = new Set<string>();
  for (const title of confirming.slice(0, 2))
    if (title !== null) for (const run of segmentRuns(title)) byOgOrJsonLd.add(run);
  const strippedFolded = fold(stripped);
  for (const h of headlines) {
    const folded = fold(h);
    // `Headline January 1, 2025`: the dateline inside the `<h1>` is no part of the headline.
    const same = folded === strippedFolded || fold(h.replace(TRAILING_DATE, '')) === strippedFolded;
    if (same || cutFrom(stripped, h)) return done(same ? stripped : h);
    if (!confirmed.has(folded)) continue;
    // `Headline | Opinion` shown whole in the `<h1>` too: the section after the pipe goes, as it
    // goes from the declared title (see stripTitle).
    if (stripped !== '' && h.includes(' | ') && fold(h.split(' | ')[0] ?? '') === strippedFolded) return done(stripped);
    // `<title>` and `<h1>` agree, og:title words it a little differently: og:title, as
    // Readability and social sites take it.
    const ogRewords = og !== null && !byOgOrJsonLd.has(folded) && nearlySame(h, stripped) && sameNumbers(h, stripped);
    return done(ogRewords ? stripped : h);
  }
  const headline = asHeadline(unconfirmedHeadline(headlines, mainH1, sources.h1s ?? []));
  if (
    sources.declaresArticle &&
    headline !== undefined &&
    !(stripped !== '' && nearlySame(headline, stripped)) &&
    (stripped === '' || sharesWord(headline, stripped))
  ) {
    return done(headline);
  }
  // A shorter `<h1>` in the declared title's own words is the page's name for itself (`Headlamps`
  // under `Headlamps for Camping, Hiking & Running`).
  if (headline !== undefined && shortNameOf(headline, stripped)) return done(headline);
  // The shown `<h1>` over a declared title that words it a little differently (see rewordsDeclared).
  if (headline !== undefined && rewordsDeclared(headline, stripped)) return done(headline);
  // A declared title without its headline is the site's name: the `<h1>` names the page better.
  const named = main !== undefined && headless.has(main) && headline !== undefined;
  if (stripped !== '' && !GENERIC_PAGE_NAME.test(stripped) && !named) return done(stripped);
  return done(headline ?? (usable(mainH1) ? mainH1 : stripped));
}
