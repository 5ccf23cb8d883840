import { stripSiteName } from './dom-facts.js';
import { repairMojibake } from './mojibake.js';
import { fold, hostLabels, isHomePage, namesSite, segmentRuns, stripTitle } from './title-strip.js';

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

const MAX_H1_CHARS = 300;
/** A title cut short by the site (`What do you guys think will be the trend in the watch...`). */
const TRUNCATED = /(?:\.\.\.|…)$/u;
/** The share of words two titles must have in common to be one title reworded. */
const NEARLY_SAME = 0.8;
/** A word, or one Chinese or Japanese character (written without spaces). */
const WORD =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])+/gu;

const usable = (text: string | null | undefined): text is string =>
  typeof text === 'string' && text.trim() !== '' && !/^(?:https?:\/\/|www\.)\S+$/i.test(text.trim());

/** Whether two titles share most of their words (`The Best X of 2025` and `Best X of 2025`). */
function nearlySame(a: string, b: string): boolean {
  const words = (t: string) => t.toLowerCase().match(WORD) ?? [];
  const wa = words(a);
  const wb = new Set(words(b));
  return wa.filter((w) => wb.has(w)).length >= NEARLY_SAME * Math.max(wa.length, wb.size);
}

/** Whether a headline is a shorter run of a declared title's words (`Headlamps` in `Headlamps for Camping`). */
function shortNameOf(headline: string, declared: string): boolean {
  const folded = fold(headline);
  return folded !== '' && declared !== '' && fold(declared).includes(folded) && !nearlySame(headline, declared);
}

/**
 * The page's title, reconciled from what it declares (og:title, twitter:title, JSON-LD headline,
 * Readability's metadata title, `<title>`) and the headline it shows (its `<h1>` elements):
 * - the declared title loses the site's name (see {@link stripTitle}); one that is only the site's
 *   name or cut short (`...`) gives way to the next;
 * - an `<h1>` that a declared title confirms, whole or as one of its ` | `-separated parts, wins
 *   (but og:title when it only rewords an `<h1>` that just the `<title>` confirms);
 * - on a page that declares itself an article its first `<h1>` wins unless it only rewords the
 *   declared title, and so does an `<h1>` that is a shorter run of the declared title's words;
 * - else the declared title, else the first `<h1>` that does not just name the site.
 * Never a bare URL; '' only when the page gives none of these.
 */
export function reconcileTitle(sources: TitleSources): string {
  const labels = hostLabels(sources.url);
  const mainH1 = sources.h1.length <= MAX_H1_CHARS ? sources.h1 : '';
  const clean = (t: string | null | undefined): string | null => (usable(t) ? repairMojibake(t.trim()) : null);
  const og = clean(sources.ogTitle);
  const declared = [og, clean(sources.twitterTitle), clean(sources.jsonLdHeadline), clean(sources.readabilityTitle)]
    .concat(clean(sources.docTitle))
    .filter((t): t is string => t !== null);
  const main = declared.find((t) => !namesSite(t, sources.siteName, labels, 0) && !TRUNCATED.test(t)) ?? declared[0];
  const stripped =
    main !== undefined ? stripTitle(main, sources.siteName, labels, mainH1, isHomePage(sources.url)) : '';
  const headlines = [mainH1, ...(sources.h1s ?? [])]
    .filter((h) => usable(h) && h.length <= MAX_H1_CHARS && !namesSite(h, sources.siteName, labels, 0))
    .map((h) => stripSiteName(repairMojibake(h), sources.siteName));

  const confirming = [og, clean(sources.jsonLdHeadline), clean(sources.readabilityTitle), clean(sources.docTitle)];
  const confirmed = new Set<string>();
  for (const title of confirming) if (title !== null) for (const run of segmentRuns(title)) confirmed.add(run);
  const byOgOrJsonLd = new Set<string>();
  for (const title of confirming.slice(0, 2))
    if (title !== null) for (const run of segmentRuns(title)) byOgOrJsonLd.add(run);
  const strippedFolded = fold(stripped);
  for (const h of headlines) {
    const folded = fold(h);
    if (folded === strippedFolded) return stripped;
    if (!confirmed.has(folded)) continue;
    // `<title>` and `<h1>` agree, og:title words it a little differently: og:title, as
    // Readability and social sites take it.
    const ogRewords = og !== null && !byOgOrJsonLd.has(folded) && nearlySame(h, stripped);
    return ogRewords ? stripped : h;
  }
  const headline = headlines[0];
  if (sources.declaresArticle && headline !== undefined && !(stripped !== '' && nearlySame(headline, stripped))) {
    return headline;
  }
  // A shorter `<h1>` in the declared title's own words is the page's name for itself (`Headlamps`
  // under `Headlamps for Camping, Hiking & Running`).
  if (headline !== undefined && shortNameOf(headline, stripped)) return headline;
  if (stripped !== '') return stripped;
  return headline ?? (usable(mainH1) ? mainH1 : '');
}
