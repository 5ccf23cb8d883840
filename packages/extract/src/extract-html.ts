import { runReadability } from './article.js';
import { cleanAuthor, findZhByline, isOrganisation } from './author.js';
import { dateFromUrl, defaultOffsetMinutes, findTextDate, parsePageDate } from './dates.js';
import type { DomImpl } from './dom.js';
import { parseDocument, stripInert } from './dom.js';
import { agreesWith, headlineOf, readDomFacts, stripSiteName } from './dom-facts.js';
import { decideLanguage } from './lang.js';
import { baseUrlOf, canonicalUrlOf, extractLinks, robotsOf } from './links.js';
import { readPageMeta } from './meta.js';
import { blockText, squash } from './text.js';
import type { ExtractedPage, ExtractHtmlOptions } from './types.js';
import { EXTRACT_DEFAULTS } from './types.js';
import { countWords } from './word-count.js';

const MAX_EXCERPT_CHARS = 300;
/** How far past the headline a Chinese page's dateline and byline are looked for. */
const DATELINE_WINDOW_CHARS = 1_500;
/** The closing `（记者 张三）` of a Chinese article sits in its last characters. */
const CLOSING_BYLINE_CHARS = 200;
const META_DATE_NAMES = [
  'date',
  'pubdate',
  'publishdate',
  'publish-date',
  'dc.date',
  'dc.date.issued',
  'dcterms.date',
  'dcterms.issued',
  'sailthru.date',
  'parsely-pub-date',
  'citation_publication_date',
  'article.published',
  'og:published_time',
  'datepublished',
];

/**
 * Extracts the main text and metadata of a decoded HTML page (see {@link ExtractedPage}). Never
 * fetches anything and never runs the page's scripts. Throws only for a bug, not for bad HTML.
 *
 * @example extractHtml(html, { url: 'https://example.com/post' }).body_text
 */
export function extractHtml(html: string, options: ExtractHtmlOptions): ExtractedPage {
  const dom = options.dom ?? EXTRACT_DEFAULTS.dom;
  if (dom === 'jsdom') return extractWith(html, options, 'jsdom');
  try {
    return extractWith(html, options, 'linkedom');
  } catch (linkedomError) {
    // linkedom is not a complete DOM; the reference implementation handles what it cannot.
    try {
      return extractWith(html, options, 'jsdom');
    } catch {
      throw linkedomError;
    }
  }
}

function extractWith(rawHtml: string, options: ExtractHtmlOptions, dom: DomImpl): ExtractedPage {
  const maxHtmlChars = options.maxHtmlChars ?? EXTRACT_DEFAULTS.maxHtmlChars;
  const html = stripInert(rawHtml.length > maxHtmlChars ? rawHtml.slice(0, maxHtmlChars) : rawHtml);
  const url = options.url;
  const parsed = parseDocument(html, url, dom);
  try {
    const doc = parsed.document;
    const facts = readDomFacts(doc);
    const { meta, jsonLd } = readPageMeta(facts.metas, facts.jsonLdScripts);
    const baseUrl = baseUrlOf(facts.baseHref, url);
    const robots = robotsOf(facts.metas);
    const maxLinks = options.maxLinks ?? EXTRACT_DEFAULTS.maxLinks;
    const links = robots.nofollow ? [] : extractLinks(facts.anchors, baseUrl, maxLinks);
    const canonicalUrl = canonicalUrlOf(facts.linkElements, baseUrl);
    // The whole visible text is only needed to find a dateline on CJK pages; skip the walk elsewhere.
    const pageText = /\p{Script=Han}/u.test(html.slice(0, 50_000)) && doc.body ? blockText(doc.body) : '';

    // jsdom keeps Readability's own body snapshot; on linkedom a re-parse is cheaper (see article.ts).
    const reparse = parsed.impl === 'linkedom' ? () => parseDocument(html, url, 'linkedom').document : undefined;
    const article = runReadability(doc, reparse);
    let bodyText = article.text;
    const minArticleChars = options.minArticleChars ?? EXTRACT_DEFAULTS.minArticleChars;
    if (bodyText.length < minArticleChars) {
      // A short Readability result is usually a fragment of chrome; the body minus chrome is
      // the whole page's text and contains whatever Readability found.
      const fallback = visibleBodyText(html, url, dom);
      if (fallback !== '') bodyText = fallback;
    }

    const lang = decideLanguage(
      {
        htmlLang: facts.htmlLang,
        metaContentLanguage: meta.get('content-language'),
        headerContentLanguage: options.contentLanguage,
        ogLocale: meta.get('og:locale'),
      },
      bodyText,
    );
    const siteName =
      meta.get('og:site_name') ??
      jsonLd.publisherName ??
      jsonLd.websiteName ??
      meta.get('application-name') ??
      article.siteName;
    const jsonLdHeadline =
      jsonLd.headline && agreesWith(jsonLd.headline, facts.docTitle || facts.h1) ? jsonLd.headline : null;
    const rawTitle = meta.get('og:title') ?? jsonLdHeadline ?? article.title ?? (facts.docTitle || null) ?? facts.h1;
    const title = stripSiteName(rawTitle, siteName);

    const cjk = lang === 'zh' || lang === 'ja';
    const offset = defaultOffsetMinutes(lang);
    const headline = facts.h1 || headlineOf(facts.docTitle);
    const at = headline && pageText ? pageText.indexOf(headline) : -1;
    const nearTitle =
      at >= 0 ? pageText.slice(at, at + DATELINE_WINDOW_CHARS) : pageText.slice(0, DATELINE_WINDOW_CHARS * 2);

    // The dateline under the headline, searched at most once and only when asked for.
    let dateline: string | null | undefined;
    const textDate = (): string | null => {
      if (dateline === undefined) dateline = pageText ? findTextDate(nearTitle, offset, cjk) : null;
      return dateline;
    };
    const declaredDate = firstOf([
      () => parsePageDate(meta.get('article:published_time'), offset),
      () => parsePageDate(jsonLd.datePublished, offset),
      ...META_DATE_NAMES.map((name) => () => parsePageDate(meta.get(name), offset)),
      () => parsePageDate(facts.itempropDate, offset),
      () => parsePageDate(facts.articleTime, offset),
      () => parsePageDate(article.publishedTime, offset),
      textDate,
      () => dateFromUrl(url, offset),
      // Chinese articles often close with their date or issue (`——《北京之春》1998年3月号`).
      () => (cjk ? findTextDate(bodyText.slice(-CLOSING_BYLINE_CHARS), offset, true) : null),
    ]);
    const published_at = withTimeOfDay(declaredDate, textDate, offset);
    const zhByline = cjk
      ? findZhByline({
          nearTitle,
          articleStart: bodyText.slice(0, CLOSING_BYLINE_CHARS),
          articleEnd: bodyText.slice(-CLOSING_BYLINE_CHARS),
        })
      : null;
    const declaredAuthor = firstOf([
      () => cleanAuthor(article.byline),
      () => cleanAuthor(meta.get('author')),
      () => cleanAuthor(meta.get('article:author')),
      () => cleanAuthor(jsonLd.author),
    ]);
    // A declared news site or agency gives way to the reporter the article itself names.
    const author =
      declaredAuthor !== null && !(zhByline !== null && isOrganisation(declaredAuthor))
        ? declaredAuthor
        : firstOf([
            // On CJK pages a labelled dateline beats `.author` elements, which there hold user panels.
            () => zhByline,
            ...facts.bylines.map((text) => () => cleanAuthor(text)),
          ]);
    const excerpt = truncate(
      meta.get('description') ??
        meta.get('og:description') ??
        jsonLd.description ??
        article.excerpt ??
        bodyText.split('\n\n')[0] ??
        '',
      MAX_EXCERPT_CHARS,
    );
    return {
      title,
      body_text: bodyText,
      excerpt,
      author,
      published_at,
      lang,
      site_name: siteName ?? null,
      word_count: countWords(bodyText),
      links,
      canonicalUrl,
      robots,
      textLength: bodyText.length,
    };
  } finally {
    parsed.close();
  }
}

/** The body's visible text minus page chrome, from a fresh parse (Readability edited the first). */
function visibleBodyText(html: string, url: string, dom: DomImpl): string {
  const parsed = parseDocument(html, url, dom);
  try {
    const body = parsed.document.body;
    return body ? blockText(body, { skipBoilerplate: true }) : '';
  } finally {
    parsed.close();
  }
}

/**
 * A date-only value (midnight, page time) gains the time of the page's own dateline when that shows
 * the same day: `<meta name="publishdate" content="2022-02-13">` and `2022年02月13日07:48` under the
 * headline give 07:48.
 */
function withTimeOfDay(date: string | null, dateline: () => string | null, offsetMinutes: number): string | null {
  if (date === null) return date;
  const local = (iso: string) => new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString();
  const day = local(date);
  // Only a date at local midnight needs the dateline, so the page text is searched only then.
  if (day.slice(11, 19) !== '00:00:00') return date;
  const found = dateline();
  return found !== null && found !== date && local(found).slice(0, 10) === day.slice(0, 10) ? found : date;
}

function firstOf<T>(candidates: ReadonlyArray<() => T | null | undefined>): T | null {
  for (const candidate of candidates) {
    const value = candidate();
    if (value !== null && value !== undefined) return value;
  }
  return null;
}

function truncate(text: string, maxChars: number): string {
  const flat = squash(text);
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars / 2 ? cut.slice(0, space) : cut}…`;
}
