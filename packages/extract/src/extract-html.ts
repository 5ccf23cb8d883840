import { type ArticleFacts, runReadability } from './article.js';
import { keepArticleHeaders, withArticleLead } from './article-header.js';
import { cleanAuthor, cleanByline, findZhByline } from './author.js';
import { chooseAuthor } from './author-choice.js';
import { markPictureCaptions } from './captions.js';
import { flattenCodeLines, markCodeLanguages } from './code-blocks.js';
import { mendCodeLines } from './code-line-breaks.js';
import { unnameCommentPosts } from './comment-posts.js';
import { dropDataText, linkShareOf, mainRegion, mainRegionSize, type RegionSize, visibleChars } from './content.js';
import { dropCopyrightNotices } from './copyright-notice.js';
import { dropLinkTables, keepDataTables } from './data-tables.js';
import { findDatelineDate } from './dateline.js';
import { dateFromUrl, defaultOffsetMinutes, earliestDate, findTextDate, parsePageDate } from './dates.js';
import { revealHiddenPage, revealPanels } from './disclosure.js';
import type { DomImpl, ParsedDocument } from './dom.js';
import { flattenDeep, flattenDeepHtml, MAX_TREE_DEPTH, parseDocument, stripInert, withoutControls } from './dom.js';
import { agreesWith, type DomFacts, headlineOf, nameWords, readDomFacts } from './dom-facts.js';
import {
  dropPostChrome,
  firstPostOpening,
  isOnePostOfMany,
  outerArticleSizes,
  postDates,
  restorePostHeaders,
  revealNoscriptContent,
} from './forum-posts.js';
import { dropEditSections, dropHeadingAnchors } from './heading-anchors.js';
import { spaceHiddenSeparators } from './hidden-separators.js';
import { dropConsentPrompts, dropInterfaceText } from './interface-text.js';
import { decideLanguage, declaredLanguage } from './lang.js';
import {
  baseUrlOf,
  canonicalUrlOf,
  extractLinks,
  feedUrlsOf,
  metaRefreshOf,
  pageLinkElements,
  robotsOf,
} from './links.js';
import { dropCardControls } from './listing-page.js';
import { contentMarkdown, markEmojiImages } from './markdown.js';
import { escapeMarkdown } from './markdown-escapes.js';
import { citationByline, publishedMetaValues, readPageMeta, twitterWrittenBy } from './meta.js';
import { mojibakeRepairOf } from './mojibake.js';
import { dropNoSnippetBlocks } from './no-snippet.js';
import { dropPopups } from './popups.js';
import { dropProductExtras, isProductPage, withDeclaredDescription } from './product-page.js';
import { hasRunningText, linkFacts, qualityPrior } from './quality-prior.js';
import { dropTextAnchorBylines, keepScriptShownBlocks, keepSubheadings, markNavboxes } from './readability-names.js';
import { dropRelatedLinks } from './related-links.js';
import { dropSearchFilters } from './search-filters.js';
import { raiseSuperscripts } from './superscripts.js';
import { blockText, squash, textUpTo, truncate, withoutInvisibleParagraphs } from './text.js';
import { reconcileTitle } from './title.js';
import { fold, isHomePage } from './title-strip.js';
import type { ExtractedPage, ExtractHtmlOptions } from './types.js';
import { EXTRACT_DEFAULTS } from './types.js';
import { countWords } from './word-count.js';

const MAX_EXCERPT_CHARS = 300;
/** Distinct `<time>` dates on a page that is not declared an article, from which it is a list of dated items. */
const LIST_TIMES = 5;

/**
 * The main region replaces Readability's article when it has more than this many times its text
 * (fitted on half A of wcxb-dev: forums, products, listings and service pages are where
 * Readability keeps one block of many; their link-dense blocks are already pruned from the region).
 */
const REGION_OVER_ARTICLE = 1.5;
/** The same for a page that declares itself an article (og:type, JSON-LD): its article is trusted more. */
const REGION_OVER_DECLARED_ARTICLE = 3;
/**
 * An article with more than this share of its text in links is menus and link lists Readability
 * fell back to (the page's real content is items or short blocks it did not score): the main region
 * replaces it when it is less link-dense and holds at least {@link MIN_REGION_OVER_LINKY_ARTICLE}
 * of its text.
 */
const LINKY_ARTICLE_SHARE = 0.4;
const MIN_REGION_OVER_LINKY_ARTICLE = 0.2;
/** ...and when at most this share of the region is link text (else both are lists of links). */
const MAX_REGION_LINK_SHARE = 0.5;
/**
 * How many characters of the text around the headline (a few lines before it, then after it) a
 * dateline is looked for in, outside forum threads.
 */
const DATELINE_CHARS = 600;
/** How far past the headline a Chinese page's dateline and byline are looked for. */
const DATELINE_WINDOW_CHARS = 1_500;
/** The closing `（记者 张三）` of a Chinese article sits in its last characters. */
const CLOSING_BYLINE_CHARS = 200;
/**
 * Meta names that hold a publication date, the ones that say "published" first: a generic `date`
 * is often the template's (`01/07/16` beside `og:published_time` 2024-10-08).
 */
const META_DATE_NAMES = [
  'og:published_time',
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
  try {
    return extractWith(html, options, dom);
  } catch (error) {
    // Elements nested thousands deep overflow the recursive walks (Readability's among them); no
    // browser shows a page nested so deep.
    if (isStackOverflow(error)) return extractWith(flattenDeepHtml(html), options, dom, true);
    if (dom === 'jsdom') throw error;
    // linkedom is not a complete DOM; the reference implementation handles what it cannot.
    try {
      return extractWith(html, options, 'jsdom');
    } catch {
      throw error;
    }
  }
}

const isStackOverflow = (error: unknown): boolean => error instanceof RangeError && /call stack/i.test(error.message);

/** `flat`: `rawHtml` is already nested no deeper than {@link MAX_TREE_DEPTH} (see flattenDeepHtml). */
function extractWith(rawHtml: string, options: ExtractHtmlOptions, dom: DomImpl, flat = false): ExtractedPage {
  const maxHtmlChars = options.maxHtmlChars ?? EXTRACT_DEFAULTS.maxHtmlChars;
  const html = stripInert(withoutControls(rawHtml.length > maxHtmlChars ? rawHtml.slice(0, maxHtmlChars) : rawHtml));
  const url = options.url;
  const parsed = parseDocument(html, url, dom);
  try {
    const doc = parsed.document;
    const facts = readDomFacts(doc, url);
    // Readability's cleaning reads every element's text once per ancestor of the same kind, a cost
    // that grows with the cube of the nesting: 1,000 nested <div>s took 3 s, 5,000 took minutes.
    // Laid out as Chromium's parser lays them out, such a page reads as a browser shows it.
    if (!flat && facts.maxDepth > MAX_TREE_DEPTH + 1 && doc.documentElement) {
      return extractWith(flattenDeep(doc.documentElement), options, dom, true);
    }
    const { meta, citationAuthors, jsonLd } = readPageMeta(facts.metas, facts.jsonLdScripts);
    const baseUrl = baseUrlOf(facts.baseHref, url);
    const robots = robotsOf(facts.metas, options.robotsAgent);
    const maxLinks = options.maxLinks ?? EXTRACT_DEFAULTS.maxLinks;
    const followable = [...facts.anchors, ...pageLinkElements(facts.linkElements)];
    const links = robots.nofollow ? [] : extractLinks(followable, baseUrl, maxLinks);
    const canonicalUrl = canonicalUrlOf(facts.linkElements, baseUrl);
    const feeds = robots.nofollow ? [] : feedUrlsOf(facts.linkElements, baseUrl);
    const refresh = metaRefreshOf(facts.metas, baseUrl, url);
    // The whole visible text is only needed to find a dateline on CJK pages; skip the walk elsewhere.
    const pageText = /\p{Script=Han}/u.test(html.slice(0, 50_000)) && doc.body ? blockText(doc.body) : '';

    // Measured before Readability edits the document; a declared article needs more to be replaced.
    const declaresArticle = meta.get('og:type') === 'article' || jsonLd.declaresArticle;
    const product = isProductPage(doc, {
      ogType: meta.get('og:type'),
      jsonLdProducts: jsonLd.products,
      declaresArticle,
    });
    const thread = facts.postAuthor !== null || facts.threadAuthor !== null;
    const reading: PageReading = {
      parsed,
      facts,
      source: { html, url, baseUrl, dom, thread },
      declaresArticle,
      product,
      productDescription: product ? jsonLd.productDescription : null,
    };
    const { article, quality, firstPoster, firstPost, ...described } = options.plain
      ? plainContent(reading, options)
      : mainContent(reading, options);
    // A source saved twice as UTF-8 shows `letâ€™s` where a reader expects `let’s`.
    const repair = mojibakeRepairOf(described.text);
    // The repair may give back a paragraph of nothing visible (`â€\u008d` is a zero-width joiner).
    const main = repair
      ? {
          text: withoutInvisibleParagraphs(repair(described.text)),
          markdown: withoutInvisibleParagraphs(repair(described.markdown)),
        }
      : described;
    const bodyText = main.text;
    const languageHints = {
      htmlLang: facts.htmlLang,
      metaContentLanguage: meta.get('content-language'),
      headerContentLanguage: options.contentLanguage,
      ogLocale: meta.get('og:locale'),
    };
    const lang = decideLanguage(languageHints, bodyText);
    // The name the title and the address agree on before the publisher's (Wikipedia's JSON-LD
    // names only the Wikimedia Foundation, Inc., its titles `… - Wikipedia`), as the page's data
    // spells it when that is the same name.
    const declaredName = jsonLd.publisherName ?? jsonLd.websiteName;
    const others = [declaredName, meta.get('application-name'), article.siteName];
    const fromTitle = titleSiteName(facts.docTitle, url);
    const spelled = fromTitle === undefined ? undefined : others.find((name) => name && fold(name) === fold(fromTitle));
    const siteName =
      withoutTagline(meta.get('og:site_name'), declaredName) ?? spelled ?? fromTitle ?? others.find((name) => name);
    const jsonLdHeadline =
      jsonLd.headline && agreesWith(jsonLd.headline, facts.docTitle || facts.h1) ? jsonLd.headline : null;
    const title = reconcileTitle({
      ogTitle: meta.get('og:title') ?? null,
      twitterTitle: meta.get('twitter:title') ?? null,
      jsonLdHeadline,
      readabilityTitle: article.title,
      docTitle: facts.docTitle,
      h1: facts.mainH1 || facts.h1,
      h1s: facts.h1s,
      siteName: siteName ?? null,
      url,
      declaresArticle,
    });

    const cjk = lang === 'zh' || lang === 'ja';
    const offset = defaultOffsetMinutes(lang);
    const headline = facts.h1 || headlineOf(facts.docTitle);
    const at = headline && pageText ? pageText.indexOf(headline) : -1;
    const nearTitle =
      at >= 0 ? pageText.slice(at, at + DATELINE_WINDOW_CHARS) : pageText.slice(0, DATELINE_WINDOW_CHARS * 2);

    // The dateline under the headline, searched at most once and only when asked for. Past its
    // first characters the text around the headline is the page's, not the headline's: a man
    // page's `created 2026-01-16` footer, a card's date on a short listing, an editor's note. A
    // forum thread's first post may come later, under the thread's tools.
    const datelineText = thread ? facts.nearHeadline : facts.nearHeadline.slice(0, DATELINE_CHARS);
    let dateline: string | null | undefined;
    const textDate = (): string | null => {
      if (dateline === undefined) {
        // A page that only quotes some Han characters is read for an English dateline too.
        const fromText = pageText ? findTextDate(nearTitle, offset, cjk) : null;
        // The site's chrome around the headline speaks the language its markup declares.
        const langs = [lang, declaredLanguage(languageHints) ?? lang];
        dateline = fromText ?? (cjk ? null : findDatelineDate(datelineText, offset, langs));
      }
      return dateline;
    };
    // A page of items that date each (news, events, jobs): its first date is an item's. A forum
    // thread's posts date each too; its first is the thread's.
    const listOfDated = !declaresArticle && !thread && facts.times.size >= LIST_TIMES;
    const declaredDate = firstOf([
      () => parsePageDate(meta.get('article:published_time'), offset),
      () => parsePageDate(jsonLd.datePublished, offset),
      ...META_DATE_NAMES.map((name) => () => parsePageDate(meta.get(name), offset)),
      () => earliestDate(publishedMetaValues(meta).map((value) => parsePageDate(value, offset))),
      // A question's own date, not the first comment's or answer's `datePublished`.
      () => parsePageDate(facts.threadDate, offset),
      () => parsePageDate(facts.itempropDate, offset),
      () => (listOfDated ? null : parsePageDate(facts.articleTime, offset)),
      () => parsePageDate(article.publishedTime, offset),
      () => (listOfDated ? null : textDate()),
      // A thread without an `<h1>` (phpBB's topic title is an `<h2>`) has no dateline by one.
      () => (firstPost === '' ? null : findDatelineDate(firstPost, offset, [lang])),
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
          articleText: bodyText,
        })
      : null;
    // A thread's microdata names its starter, and its first post's data-author the first poster; a
    // forum page's Readability byline is any poster's card.
    const threadAuthor = facts.threadAuthor === null ? null : cleanByline(facts.threadAuthor);
    // A product has a maker and reviewers, no author: its bylines are its reviews'. A thread that
    // names its posters in info panels only (FluxBB) is its first poster's, as the panel writes it
    // (user names may hold numbers, which a byline's name may not: `archuser38013`).
    const author = product
      ? null
      : (chooseAuthor({
          declared: [
            threadAuthor,
            posterOr(facts.postAuthor, unquoted(article.byline, facts.quotedBylines)),
            meta.get('author'),
            meta.get('article:author'),
            jsonLd.author,
            citationByline(citationAuthors),
            twitterWrittenBy(meta),
          ],
          zhByline,
          bylines: facts.bylines,
          textBylines: facts.textBylines,
          postAuthor: facts.postAuthor,
          siteName: siteName ?? null,
          url,
        }) ?? firstPoster);
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
      body_markdown: main.markdown,
      excerpt,
      author,
      published_at,
      lang,
      site_name: siteName ?? null,
      word_count: countWords(bodyText),
      quality,
      links,
      feeds,
      refresh,
      canonicalUrl,
      robots,
      textLength: bodyText.length,
      ...(options.plain ? { plain: true as const } : {}),
    };
  } finally {
    parsed.close();
  }
}

/** A parsed page, about to have its main content read (see mainContent and plainContent). */
interface PageReading {
  parsed: ParsedDocument;
  facts: DomFacts;
  /** Where the page came from; mainContent reads its posts' dates. */
  source: Omit<PageSource, 'dates'>;
  declaresArticle: boolean;
  product: boolean;
  /** A product's description as its JSON-LD declares it, null on other pages. */
  productDescription: string | null;
}

/** A page's main content, and what was learnt about the page while reading it. */
interface PageContent {
  /** Readability's findings (the plain reading finds none but the text). */
  article: ArticleFacts;
  text: string;
  markdown: string;
  /** The quality prior (see quality-prior.ts). */
  quality: number;
  /** The name opening a thread's first poster panel (see dropPostChrome), or null. */
  firstPoster: string | null;
  /** The opening of a thread's first post marked with its poster; '' on other pages. */
  firstPost: string;
}

/**
 * The main content as Readability and Quarry's own readings of page chrome, forums, products and
 * pages of items find it (see chooseMainContent). Edits the parsed document.
 */
function mainContent(reading: PageReading, options: ExtractHtmlOptions): PageContent {
  const { parsed, facts, declaresArticle, product } = reading;
  const { html, url, baseUrl, dom } = reading.source;
  const doc = parsed.document;
  // jsdom keeps Readability's own body snapshot; on linkedom a re-parse is cheaper (see article.ts).
  const reparse =
    parsed.impl === 'linkedom'
      ? () => {
          const fresh = parseDocument(html, url, 'linkedom').document;
          dropPageChrome(fresh, { product, article: declaresArticle }, baseUrl);
          return fresh;
        }
      : undefined;
  const { lead, firstPoster, markedPosts } = dropPageChrome(doc, { product, article: declaresArticle }, baseUrl);
  const region = mainRegionSize(doc, declaresArticle);
  const prior = declaresArticle ? 1 : qualityPrior(linkFacts(doc));
  // Read before Readability edits the page; only a declared article can be a thread of them.
  const postSizes = declaresArticle ? outerArticleSizes(doc) : [];
  // Posts marked with their posters (forum-posts.ts): only then are their headers looked after.
  const markedThread = facts.postAuthor !== null || markedPosts > 0;
  const dates = markedThread ? postDates(doc) : null;
  // A thread is dated by its first post: the opening of the first post marked with its poster.
  const firstPost = markedThread ? firstPostOpening(doc) : '';
  const article = runReadability(doc, reparse, dates);
  const page: PageSource = { ...reading.source, dates };
  // A thread that writes each post as an <article> is no one article, whatever it declares.
  const onePost = isOnePostOfMany(postSizes, visibleChars(article.text));
  const { quality, ...chosen } = chooseMainContent(
    article,
    region,
    { article: declaresArticle && !onePost, product, prior },
    page,
    options,
  );
  // A page its scripts build serves little but its footer, which Readability then falls back to.
  const shown = isFooterOnly(chosen.text, facts.footerText, region)
    ? { text: '', markdown: '' }
    : withArticleLead(chosen, lead, baseUrl);
  const declared = reading.productDescription;
  const described = declared ? withDeclaredDescription(shown, plainText(declared, url, dom)) : shown;
  return { article, ...described, quality, firstPoster, firstPost };
}

/**
 * The main content read plainly (see ExtractHtmlOptions.plain): the body's visible text without
 * its nav, header, footer, aside, forms and menus, each block a paragraph, in one walk.
 */
function plainContent({ parsed, declaresArticle }: PageReading, options: ExtractHtmlOptions): PageContent {
  const doc = parsed.document;
  const text = doc.body ? blockText(doc.body, { skipBoilerplate: true }) : '';
  const article: ArticleFacts = {
    text,
    content: null,
    title: null,
    byline: null,
    excerpt: null,
    siteName: null,
    publishedTime: null,
  };
  const quality = declaresArticle ? 1 : qualityPrior(linkFacts(doc));
  const markdown = options.markdown === false ? '' : escapeMarkdown(text);
  return { article, text, markdown, quality, firstPoster: null, firstPost: '' };
}

/**
 * A declared site name (og:site_name) that is the name the page's JSON-LD gives its publisher or
 * site followed by a tagline (`Aktuálně.cz - Víte, co se právě děje`) is that name alone.
 */
function withoutTagline(siteName: string | undefined, declared: string | null | undefined): string | undefined {
  if (siteName === undefined || !declared || declared.length >= siteName.length) return siteName;
  return siteName.startsWith(declared) && TAGLINE.test(siteName.slice(declared.length)) ? declared : siteName;
}

/** A title's parts: `Headline | Site`, `Headline - Site`, `Site :: Headline`. */
const TITLE_PARTS = /\s+(?:[|\-–—·»]|::)\s+/u;
/** The labels of a host that name no site: its `www`, and the endings of its domain. */
const HOST_NOISE = /^(?:www\d*|m|com|org|net|edu|gov|co|io|ac|info|[a-z]{2})$/;

/**
 * The site's name as the first or last part of the page's `<title>` (`Barack Obama - Wikipedia`),
 * when that part spells a label of the page's host (`en.wikipedia.org`; `The Verge` for
 * theverge.com), else undefined: a title's part is the site's name only where the address agrees.
 */
export function titleSiteName(title: string, url: string): string | undefined {
  const parts = title.split(TITLE_PARTS).map((part) => part.trim());
  if (parts.length < 2) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  const labels = host.split('.').filter((label) => !HOST_NOISE.test(label));
  for (const part of [parts[parts.length - 1] ?? '', parts[0] ?? '']) {
    const compact = fold(part);
    if (compact.length >= 3 && labels.some((label) => label.replace(/-/g, '') === compact)) return part;
  }
  return undefined;
}

/** What follows a site's name before its tagline: a dash, a bar, a colon or a middle dot. */
const TAGLINE = /^\s*[-|:·–—]\s*\S/u;

/** Text that may hold HTML (a JSON-LD description) as plain paragraphs. */
function plainText(text: string, url: string, dom: DomImpl): string {
  if (!/[<&]/.test(text))
    return text
      .replace(/[^\S\n]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n\n')
      .trim();
  const parsed = parseDocument(`<!DOCTYPE html><html><body>${text}</body></html>`, url, dom);
  try {
    return parsed.document.body ? blockText(parsed.document.body) : '';
  } finally {
    parsed.close();
  }
}

/** The page as chooseMainContent may parse it again to build its main region. */
interface PageSource {
  html: string;
  url: string;
  baseUrl: string;
  dom: DomImpl;
  /** Whether the page is a forum thread (its posts or its starter marked, see dom-facts.ts). */
  thread: boolean;
  /** The dates of posts marked with their posters (forum-posts.ts `postDates`); null on other pages. */
  dates: ReadonlyMap<string, string> | null;
}

/**
 * Readability's article, unless the page's main region (see {@link mainRegion}; `region` is its
 * size) holds more than {@link REGION_OVER_ARTICLE} times its text ({@link REGION_OVER_DECLARED_ARTICLE}
 * when the page `declaresArticle`): on forums, product, listing and service pages Readability picks
 * one block of many. It also replaces an article that is mostly links (see {@link isLinkyArticle}):
 * Readability fell back to the menus of a page of items. Below `minArticleChars` the region is used whenever it has any text. The
 * region is built (from a fresh parse) only when used. `quality` is the page's `prior`, or 1 when
 * the content chosen has running text (see quality-prior.ts).
 */
function chooseMainContent(
  article: ArticleFacts,
  region: RegionSize,
  { article: declaresArticle, product, prior }: { article: boolean; product: boolean; prior: number },
  { html, url, baseUrl, dom, thread, dates }: PageSource,
  options: ExtractHtmlOptions,
): { text: string; markdown: string; quality: number } {
  const minArticleChars = options.minArticleChars ?? EXTRACT_DEFAULTS.minArticleChars;
  const short = article.text.length < minArticleChars;
  const articleChars = visibleChars(article.text);
  const overArticle = declaresArticle ? REGION_OVER_DECLARED_ARTICLE : REGION_OVER_ARTICLE;
  const linky = !short && isLinkyArticle(article, region, articleChars);
  const wantsRegion = short || linky || region.chars > overArticle * articleChars;
  const toMarkdown = (el: Element | null): string => (options.markdown === false ? '' : contentMarkdown(el, baseUrl));
  // A page whose text outside its chrome reads as a list of links has running text after all when
  // its main content does: its chrome held the page (an article written in a <header>, a forum's
  // posts in a <form>).
  const qualityOf = (el: Element | null): number =>
    prior < 1 && el !== null && hasRunningText(linkFacts(el)) ? 1 : prior;
  // Readability keeps a table of ten rows as data, so a box of related headlines stayed in the
  // article (see dropLinkTables); it is left out once the article is chosen over the region, as are
  // labelled lists of other pages (related-links.ts) and the site's copyright line at its end
  // (copyright-notice.ts).
  const fromArticle = () => {
    const relinked =
      article.content !== null &&
      dropLinkTables(article.content) + dropRelatedLinks(article.content) + dropCopyrightNotices(article.content) > 0;
    return {
      text: relinked && article.content !== null ? blockText(article.content) : article.text,
      markdown: toMarkdown(article.content),
      quality: qualityOf(article.content),
    };
  };
  if (!wantsRegion) return fromArticle();
  const parsed = parseDocument(html, url, dom);
  try {
    revealNoscriptContent(parsed.document);
    dropPageChrome(parsed.document, { product, article: declaresArticle }, baseUrl);
    // The buttons every card of a page of items repeats (listing-page.ts) are not its text.
    if (parsed.document.body) dropCardControls(parsed.document.body, thread);
    const region = mainRegion(parsed.document, declaresArticle);
    // The region is narrowed when built (see mainRegion); it must still hold more than the article
    // (a part of it, when the article is link lists).
    const minChars = short ? 0 : linky ? MIN_REGION_OVER_LINKY_ARTICLE * articleChars : articleChars;
    if (region === null || visibleChars(region.text) <= minChars) return fromArticle();
    // The region drops each post's <header>, with its poster and date, as page chrome; a copyright
    // line outside a <footer> is left to drop here.
    const restored = dates !== null && restorePostHeaders(region.element, dates) > 0;
    const changed = dropCopyrightNotices(region.element) > 0 || restored;
    const text = changed ? blockText(region.element) : region.text;
    return { text, markdown: toMarkdown(region.element), quality: qualityOf(region.element) };
  } finally {
    parsed.close();
  }
}

/**
 * Whether every paragraph of a page's main text is text of its footers (see DomFacts.footerText) and
 * the page shows less text than that outside its chrome (`region`, see mainRegionSize): a page whose
 * own words are repeated in its footer (an about blurb) keeps them.
 */
function isFooterOnly(text: string, footerText: string, region: RegionSize): boolean {
  if (footerText === '' || text === '' || region.chars * 2 >= visibleChars(text)) return false;
  const footer = squash(footerText);
  return text.split(/\n+/).every((paragraph) => footer.includes(squash(paragraph)));
}

/**
 * Readability's article is mostly link text (see {@link LINKY_ARTICLE_SHARE}) and the main region,
 * of `region` size, is less link-dense (and mostly not links) and not much smaller.
 */
function isLinkyArticle(article: ArticleFacts, region: RegionSize, articleChars: number): boolean {
  const regionShare = region.linkChars / Math.max(1, region.chars);
  if (article.content === null || regionShare >= MAX_REGION_LINK_SHARE) return false;
  if (region.chars < MIN_REGION_OVER_LINKY_ARTICLE * articleChars) return false;
  // The article's links are counted only when the region could replace it.
  const articleShare = linkShareOf(article.content);
  return articleShare > LINKY_ARTICLE_SHARE && regionShare < articleShare;
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

/**
 * The post chrome of a forum thread (see forum-posts.ts) and, on a `product` page, its reviews,
 * shipping terms, hidden blocks and repeated copies (see product-page.ts), removed from the whole
 * body, as are blocks marked `data-nosnippet` (see no-snippet.ts); the captions of pictures marked, to be left out of the plain text (see captions.ts).
 * Returns copies of the article's lead paragraphs when its header is a box named like page chrome
 * (see article-header.ts), the name opening a thread's first poster panel, and how many posts were
 * marked with their posters (see dropPostChrome).
 */
function dropPageChrome(
  doc: Document,
  { product, article }: { product: boolean; article: boolean },
  baseUrl: string,
): { lead: Element[]; firstPoster: string | null; markedPosts: number } {
  if (!doc.body) return { lead: [], firstPoster: null, markedPosts: 0 };
  // One walk of the body for both (linkedom answers each selector query with a walk of its own).
  const elements = Array.from(doc.body.querySelectorAll('*'));
  revealHiddenPage(doc.body, elements);
  revealPanels(elements);
  unnameCommentPosts(elements, article);
  spaceHiddenSeparators(elements);
  mendCodeLines(elements);
  keepDataTables(elements);
  keepSubheadings(elements);
  markNavboxes(elements);
  keepScriptShownBlocks(elements);
  const lead = keepArticleHeaders(elements);
  markPictureCaptions(elements);
  dropDataText(elements);
  dropEditSections(elements);
  dropHeadingAnchors(elements);
  markCodeLanguages(elements);
  markEmojiImages(elements);
  raiseSuperscripts(elements);
  const { firstPoster, marked } = dropPostChrome(doc.body);
  if (product) dropProductExtras(doc.body);
  dropInPageTocs(elements, baseUrl);
  // After the table of contents is found by the anchors it links to.
  dropTextAnchorBylines(elements);
  dropAuthorBoxes(elements);
  dropInterfaceText(elements);
  dropConsentPrompts(elements);
  dropSearchFilters(elements);
  // A site's front page marks its changing lists of stories so, not only its chrome (InfoQ's).
  if (!isHomePage(baseUrl)) dropNoSnippetBlocks(elements);
  if (!product) dropPopups(elements);
  flattenCodeLines(elements);
  return { lead, firstPoster, markedPosts: marked };
}

/** An author box is at most this long; a longer block so named holds more than the biography. */
const MAX_AUTHOR_BOX_CHARS = 2_000;
/** Paragraph text an author box comes after: one above it, by the headline, is the byline. */
const MIN_TEXT_BEFORE_AUTHOR_BOX = 500;
/** The word after `author` (or `writer`) in the class or id of the box about the article's author. */
const AUTHOR_BOX_WORDS = new Set(['bio', 'bios', 'biography', 'box', 'description', 'desc', 'profile', 'about']);

/**
 * Removes the boxes about the article's author (`author-bio`, `author_box`,
 * `cs-entry__author-description`, `about-the-author`): a biography and links to the author's
 * profiles, shown under every article the author writes. The byline is read before (dom-facts.ts).
 */
function dropAuthorBoxes(elements: readonly Element[]): void {
  // Paragraph text before each element: a box above the article's first paragraphs is its byline.
  let before = 0;
  for (const el of elements) {
    const name = el.localName.toLowerCase();
    if (name === 'p') before += visibleChars(el.textContent ?? '');
    if (before < MIN_TEXT_BEFORE_AUTHOR_BOX || !el.isConnected || !namesAuthorBox(el)) continue;
    if (name === 'article' || name === 'main' || name === 'body' || el.querySelector('h1') !== null) continue;
    if (visibleChars(el.textContent ?? '') > MAX_AUTHOR_BOX_CHARS) continue;
    el.remove();
  }
}

function namesAuthorBox(el: Element): boolean {
  // Most elements name no author: the cheap test first.
  if (!/author|writer/i.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`)) return false;
  const words = nameWords(el);
  for (let i = 0; i < words.length - 1; i++) {
    const [word, next] = [words[i]!, words[i + 1]!];
    if ((word === 'author' || word === 'writer') && AUTHOR_BOX_WORDS.has(next)) return true;
    if (word === 'about' && (next === 'author' || (next === 'the' && words[i + 2] === 'author'))) return true;
  }
  return false;
}

/** Lists of at least this many links to places in the page itself are its table of contents. */
const MIN_TOC_LINKS = 3;

/**
 * Removes tables of contents: lists (and `<nav>`s) of at least {@link MIN_TOC_LINKS} links that
 * all point into the page itself (`#section`), with hardly any text beside the links (numbering).
 * They repeat the page's headings.
 */
function dropInPageTocs(elements: readonly Element[], baseUrl: string): void {
  const page = URL.parse(baseUrl);
  // `#section`, not `#` alone, a hash-bang or a hash route (`#!/home`, `#/home`: pages of an app);
  // or the page's own address with such a fragment (`/blog/trends#costs`).
  const inPage = (href: string): boolean => {
    if (href.startsWith('#') || page === null) return /^#[^#!/\s]/.test(href);
    const target = URL.parse(href, page.href);
    return (
      target !== null &&
      /^#[^#!/\s]/.test(target.hash) &&
      target.origin === page.origin &&
      target.pathname.replace(/\/$/, '') === page.pathname.replace(/\/$/, '') &&
      target.search === page.search
    );
  };
  for (const el of elements) {
    const name = el.localName.toLowerCase();
    if (name !== 'ul' && name !== 'ol' && name !== 'nav') continue;
    if (!el.isConnected) continue;
    const links = Array.from(el.getElementsByTagName('a'));
    if (links.length < MIN_TOC_LINKS) continue;
    if (!links.every((a) => inPage(a.getAttribute('href') ?? ''))) continue;
    const all = visibleChars(el.textContent ?? '');
    const linked = links.reduce((sum, a) => sum + visibleChars(a.textContent ?? ''), 0);
    if (all - linked > 0.2 * all) continue;
    dropTocLabel(el);
    el.remove();
  }
}

/** A table of contents' label, as pages title it, alone or before its toggle (`Table of Contents Toggle`). */
const TOC_LABEL =
  /^(?:table of contents|contents|in this (?:article|post|guide|page)|on this page|jump to(?: a section)?)/i;
/** A table of contents' label is at most this long. */
const MAX_TOC_LABEL_CHARS = 40;

/**
 * Removes what labels a table of contents that is being removed: the element before it when its
 * text is a contents label (`<h2>Table of contents</h2>`), and the wrappers that hold nothing else
 * but such a label once it is gone (`<div class="toc"><h5>Contents</h5><ul>…`).
 */
function dropTocLabel(toc: Element): void {
  const before = toc.previousElementSibling;
  if (before && isTocLabel((before.textContent ?? '').trim())) before.remove();
  // The text beside the table of contents, read no further than a label and its markup's spacing.
  const limit = 1_000;
  let rest = '';
  let wrapper: Element = toc;
  for (let parent = toc.parentElement; parent !== null; parent = parent.parentElement) {
    const name = parent.localName.toLowerCase();
    if (name === 'body' || name === 'main' || name === 'article') break;
    for (let child = parent.firstChild; child !== null && rest.length <= limit; child = child.nextSibling) {
      if (child !== wrapper) rest += textUpTo(child, limit - rest.length);
    }
    const label = rest.replace(/\s+/g, ' ').trim();
    if (rest.length > limit || (label !== '' && !isTocLabel(label))) break;
    wrapper = parent;
  }
  if (wrapper !== toc) wrapper.remove();
}

function isTocLabel(text: string): boolean {
  return text.length <= MAX_TOC_LABEL_CHARS && TOC_LABEL.test(text);
}

/**
 * The first post's poster (`data-author`) in place of Readability's byline, unless it is only the
 * byline's slug (`elaine-chen` for `Elaine Chen`).
 */
/** Readability's byline, unless it is the text of a quoted person's name (see quotedVoice). */
function unquoted(byline: string | null, quoted: readonly string[]): string | null {
  if (byline === null) return null;
  const text = squash(byline);
  return quoted.some((q) => q !== '' && (q === text || q.startsWith(text) || text.startsWith(q))) ? null : byline;
}

function posterOr(poster: string | null, byline: string | null): string | null {
  if (poster === null) return byline;
  const letters = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return byline !== null && letters(poster) === letters(cleanAuthor(byline) ?? byline) ? byline : poster;
}

function firstOf<T>(candidates: ReadonlyArray<() => T | null | undefined>): T | null {
  for (const candidate of candidates) {
    const value = candidate();
    if (value !== null && value !== undefined) return value;
  }
  return null;
}
