import type { LookupFunction } from 'node:net';
import {
  directoryIndexParent,
  type Filetype,
  hostOf,
  NonRetryableError,
  normalizeUrl,
  type PageDocument,
  pageIdForUrl,
  QuarryError,
  toIsoUtc,
  UNKNOWN_LANG,
} from '@quarry/core';
import {
  extractDocument,
  filetypeFromContentType,
  filetypeFromDisposition,
  filetypeFromUrl,
  sniffFiletype,
} from '@quarry/documents';
import { countWords, detectTextLanguage, type ExtractedPage, leadLine } from '@quarry/extract';
import {
  decodeHtml,
  type Fetcher,
  type FetchResult,
  isProbablyBinary,
  parseSitemap,
  productToken,
  type RobotsCache,
  robotsTagOf,
} from '@quarry/fetcher';
import {
  type CrawlHandler,
  type CrawlOutcome,
  type CrawlQueue,
  type CrawlTask,
  type FingerprintStore,
  type IndexQueue,
  META_REFRESH_REASON,
  type NewCrawlTask,
  REDIRECTED_REASON,
  type UrlStanding,
} from '@quarry/queue';
import { type BrowserPool, needsRendering } from '@quarry/render';
import { simhash } from '@quarry/text';
import type { Logger } from 'pino';
import {
  CANONICAL_ELSEWHERE,
  canonicalFromLinkHeader,
  canonicalOf,
  crawlInstead,
  DUPLICATE,
  NO_DIRECTORY_PAGE,
  storeOnce,
} from './duplicates.js';
import type { ExtractPool } from './extract-pool.js';
import type { LlmsTxtCache } from './llms-cache.js';
import {
  crawlDelayMsOf,
  hostDelayOf,
  ROBOTS_DISALLOWED,
  ROBOTS_UNREACHABLE,
  redirectsOf,
  robotsUnreachable,
  TargetResting,
} from './redirect-gate.js';
import { followUps, type RenderMode, type Seed, scopeOf, seedOf } from './seeds.js';
import type { SideRequests } from './side-requests.js';
import {
  isSitemapTask,
  LINK_LIST,
  queueDeclaredFeeds,
  queueSeedSitemaps,
  queueSitemapEntries,
  readSitemap,
} from './sitemaps.js';
import { isSoftNotFound } from './soft-404.js';

export interface PageHandlerDeps {
  readonly fetcher: Fetcher;
  readonly robots: RobotsCache;
  readonly llms: LlmsTxtCache;
  /**
   * When robots.txt and llms.txt were last asked of each host (a page after one waits its turn),
   * and when this process last sent each host a page or a sitemap request (the next waits a delay).
   */
  readonly sideRequests: SideRequests;
  readonly extractor: ExtractPool;
  /** The browser pool, launched on first use; null when Chromium is unavailable. */
  readonly browser: () => Promise<BrowserPool | null>;
  /** The SSRF policy for requests a rendered page makes. */
  readonly allowRequest: (url: string) => Promise<boolean>;
  /**
   * Resolves the rendered page's request hosts when connecting, keeping refused addresses out (the
   * fetcher's guarded lookup): a name that resolves differently after `allowRequest` (DNS rebinding)
   * reaches no private address. @defaultValue the system resolver
   */
  readonly browserLookup?: LookupFunction;
  readonly crawl: CrawlQueue;
  readonly index: IndexQueue;
  /** Which URL holds each main text: exact duplicates are stored once. */
  readonly fingerprints: FingerprintStore;
  readonly logger: Logger;
  /** Minimum delay between two requests to one host. */
  readonly hostDelayMs: number;
  /** Longest wait for the host's delay before a render (see CrawlerOptions). @defaultValue MAX_RENDER_WAIT_MS */
  readonly maxRenderWaitMs?: number;
  readonly now?: () => Date;
}

type PageText = Pick<
  ExtractedPage,
  'title' | 'body_text' | 'author' | 'published_at' | 'lang' | 'site_name' | 'word_count'
> & { body_markdown?: string; quality?: number };

/**
 * Failure codes after which a page that was indexed from this URL leaves the index: the server says
 * it is gone. Timeouts, 5xx and connection errors do not remove anything (the site may be back).
 */
const GONE_CODES = new Set(['http_404', 'http_410']);
/** The fetcher's code for an address the policy refuses (QUARRY_ALLOW_HOSTS lists exceptions). */
const BLOCKED_ADDRESS = 'blocked_address';
const NO_VALIDATORS = { etag: '', lastModified: '' };
/** Longest wait before the browser asks a page fetched just before (the host's delay after the fetch). */
const MAX_RENDER_WAIT_MS = 10_000;

/**
 * The crawl step for one URL: robots.txt, fetch (conditional when the last crawl left validators),
 * route by content type, extract (rendering script-built pages in Chromium), queue the document for
 * indexing and the in-scope links for crawling. Network and HTTP failures surface as core's
 * Retryable/NonRetryable errors for the queue to retry or record.
 *
 * What a crawl leaves in the task's meta (`etag`, `lastModified`, `indexed`) makes a recrawl cheap
 * and honest: an unchanged page answers 304 and keeps its entry, and a page indexed from this URL
 * that is now gone (404, 410, robots.txt), noindex, empty, or moved elsewhere is removed.
 */
export function createPageHandler(deps: PageHandlerDeps): CrawlHandler {
  const handle = pageHandler(deps);
  return async (task, signal) => {
    const outcome = await handle(task, signal);
    // The queue counts the host's next delay from this task's request when it left after the start.
    const agoMs = deps.sideRequests.sinceSentMs(task.url);
    return agoMs === undefined ? outcome : { ...outcome, lastRequestAgoMs: agoMs };
  };
}

function pageHandler(deps: PageHandlerDeps): CrawlHandler {
  const crawlPage = pageCrawler(deps);
  return async (task, signal) => {
    const ownId = pageIdForUrl(task.url);
    const wasIndexed = task.meta?.indexed === '1';
    // The text fingerprint this URL held after its last crawl: given up when the text changes or leaves.
    const heldFingerprint = task.meta?.fp ?? '';
    let outcome: CrawlOutcome & { indexedId?: string };
    try {
      outcome = await crawlPage(task, signal);
    } catch (error) {
      // Its last try: a canonical that keeps answering 503, or never answers, ends failed too.
      if (error instanceof QuarryError && (!error.retryable || task.attempt >= deps.crawl.maxAttempts)) {
        await canonicalNotIndexed(deps, task);
      }
      if (error instanceof QuarryError && error.code === BLOCKED_ADDRESS) {
        // The crawler's own policy refused the address (of the page, its robots.txt or a redirect
        // target): a skip with its true reason, said once per task at info, never "robots".
        deps.logger.info(
          { url: task.url, reason: BLOCKED_ADDRESS },
          'skipped: a private or reserved address; list the host in QUARRY_ALLOW_HOSTS to crawl it',
        );
        return { status: 'skipped', reason: BLOCKED_ADDRESS, meta: NO_VALIDATORS };
      }
      // A redirect to a page its robots.txt disallows (see redirectsOf), or out of the crawl's scope:
      // a page indexed from this URL before has moved where it is not crawled, and leaves the index.
      if (error instanceof QuarryError && (error.code === ROBOTS_DISALLOWED || error.code === REDIRECT_OUT_OF_SCOPE)) {
        if (wasIndexed) await deps.index.push([{ id: ownId, removed: true }]);
        if (heldFingerprint) await deps.fingerprints.release(heldFingerprint, task.url);
        return { status: 'skipped', reason: error.code, meta: { ...NO_VALIDATORS, indexed: '', fp: '' } };
      }
      if (wasIndexed && error instanceof QuarryError && GONE_CODES.has(error.code)) {
        await deps.index.push([{ id: ownId, removed: true }]);
        if (heldFingerprint) await deps.fingerprints.release(heldFingerprint, task.url);
      }
      // A directory asked for only because of its index file, and answering 4xx, is no failure.
      if (task.meta?.directoryOf && error instanceof QuarryError && /^http_4\d\d$/.test(error.code)) {
        return { status: 'skipped', reason: NO_DIRECTORY_PAGE, meta: { ...NO_VALIDATORS, indexed: '', fp: '' } };
      }
      throw error;
    }
    if (outcome.status === 'postponed' || outcome.reason === 'not_modified') return outcome;
    if (outcome.indexedId === undefined) await canonicalNotIndexed(deps, task);
    const { indexedId, ...rest } = outcome;
    const stillIndexed = indexedId === ownId;
    if (wasIndexed && !stillIndexed) await deps.index.push([{ id: ownId, removed: true }]);
    const fp = stillIndexed ? (rest.meta?.fp ?? '') : '';
    if (heldFingerprint && heldFingerprint !== fp) await deps.fingerprints.release(heldFingerprint, task.url);
    return { ...rest, meta: { ...rest.meta, indexed: stillIndexed ? '1' : '', fp } };
  };
}

/** A page (not a seed) redirected out of its seed's scope: skipped, its target not fetched. */
export const REDIRECT_OUT_OF_SCOPE = 'redirect_out_of_scope';
/** A page (not a seed) that redirects: its target is queued as a page of its own. */
export const REDIRECTED = REDIRECTED_REASON;
/** Redirects in a row queued as pages (each target's meta lists them) before the last is refused. */
const MAX_QUEUED_REDIRECTS = 5;

/**
 * Thrown by a page's redirect gate: the fetch stops at the redirect, whose target is queued (a
 * QuarryError, which the fetcher passes on as it is).
 */
class RedirectQueued extends QuarryError {
  constructor(readonly target: string) {
    super(`redirects to ${target}`, { code: REDIRECTED, retryable: false });
  }
}

/**
 * The redirect gate of a page's fetch. A seed's own redirect is followed at once, anywhere, through
 * `gate` (the operator named it; `example.org` → `www.example.org`, or a site that moved). Any
 * other page's redirect stops the fetch: a hop out of the seed's scope is refused, as a link there
 * is not followed (a site's `/out?url=` links brought other sites' pages into the index), and one
 * within it is queued as a page of its own (see queueRedirectTarget). Followed at once, a target
 * the crawl already had (`/docs` → `/docs/`, `http:` → `https:`, both linked) was fetched and
 * indexed again, and one it did not have was fetched again when a link named it later. `http:` to
 * `https:` never leaves a scope.
 */
function redirectGateOf(
  task: CrawlTask,
  seed: Seed,
  gate: (target: string, signal?: AbortSignal) => Promise<void>,
): (target: string, signal?: AbortSignal) => Promise<void> {
  if (task.depth === 0) return gate;
  const scope = scopeOf(seed);
  return async (target, signal) => {
    if (!scope.contains(target)) {
      throw new NonRetryableError(`the redirect to ${target} leaves the crawl's scope`, REDIRECT_OUT_OF_SCOPE);
    }
    // A redirect to the page's own URL but for a session or tracking parameter (`;jsessionid=`,
    // `?utm_source=`, which normalizing drops) is the page's: followed at once, as queued it would
    // be the page again (a loop), and the page was lost.
    if (sameDocument(target, task.url)) return gate(target, signal);
    throw new RedirectQueued(target);
  };
}

/**
 * Queues a page's redirect target (a page of the crawl's, the redirect's robots.txt check and
 * politeness its own task's) in the page's place: uncounted, as the page took the scope's budget
 * (a site redirecting every link from `http:` would otherwise get half its pages). Its meta lists
 * the pages that redirected to it (`redirectedFrom`, normalized URLs, which hold no space): a
 * redirect back to one of them fails as `redirect_loop`, and one past
 * {@link MAX_QUEUED_REDIRECTS} in a row as `too_many_redirects`, as the fetcher's own would.
 */
async function queueRedirectTarget(
  deps: PageHandlerDeps,
  task: CrawlTask,
  seed: Seed,
  target: string,
  hostDelayMs: number | undefined,
): Promise<CrawlOutcome> {
  const before = task.meta?.redirectedFrom ? task.meta.redirectedFrom.split(' ') : [];
  const chain = [...before, task.url];
  const tasks = followUps([target], seed, task.depth).map((t) => {
    const { maxPagesInScope: _budget, ...rest } = t;
    return { ...rest, meta: { ...t.meta, redirectedFrom: chain.join(' ') }, uncounted: true };
  });
  if (tasks.some((t) => chain.includes(t.url))) {
    throw new NonRetryableError(`redirect loop at ${target}`, 'redirect_loop');
  }
  if (chain.length > MAX_QUEUED_REDIRECTS) {
    throw new NonRetryableError(`more than ${MAX_QUEUED_REDIRECTS} redirects`, 'too_many_redirects');
  }
  await deps.crawl.add(tasks);
  // The target is recorded, so that the URL finds the page it redirects to (see `crawledInstead` in @quarry/queue).
  return {
    status: 'skipped',
    reason: REDIRECTED,
    hostDelayMs,
    meta: { ...NO_VALIDATORS, redirectedTo: tasks[0]?.url ?? target },
  };
}

function pageCrawler(
  deps: PageHandlerDeps,
): (task: CrawlTask, signal: AbortSignal) => Promise<CrawlOutcome & { indexedId?: string }> {
  // The bot names whose indexing rules the crawler follows: its own product token, and googlebot.
  const agent = productToken(deps.fetcher.userAgent).toLowerCase();
  const agents = [agent, 'googlebot'];
  // A task's own requests (its page, its sitemap): the host's next one is counted from their end.
  const ownFetcher = deps.sideRequests.ending(deps.fetcher);
  return async (task, signal) => {
    const seed = seedOf(task);
    const verdict = await deps.robots.check(task.url);
    // The queue is told what the host asks (its Crawl-delay), which it keeps for the host's later
    // tasks; it adds the crawler's own delay itself, so that a changed QUARRY_HOST_DELAY_MS applies
    // to hosts already crawled (it had been kept with them for good).
    const hostDelayMs = crawlDelayMsOf(verdict);
    if (!verdict.allowed) {
      if (verdict.reason === ROBOTS_UNREACHABLE) throw robotsUnreachable(task.url, verdict);
      return { status: 'skipped', reason: ROBOTS_DISALLOWED, hostDelayMs, meta: NO_VALIDATORS };
    }
    // robots.txt (and below, llms.txt) asked just now: the next request waits the host's delay, as
    // the queue has each task wait, and so the task goes back until then (not using a try).
    const rested = (): CrawlOutcome | null => {
      const restMs = deps.sideRequests.restMs(task.url, hostDelayOf(deps, verdict));
      return restMs > 0 ? { status: 'postponed', restMs, hostDelayMs } : null;
    };
    const afterRobots = rested();
    if (afterRobots) return afterRobots;
    // The task's own request a delay after this process's last one to the host was sent: the queue
    // spaces the tasks' starts, and the checks between a start and its request take their time.
    const paced = async (): Promise<CrawlOutcome | null> => {
      const restMs = await deps.sideRequests.pace(task.url, hostDelayOf(deps, verdict), signal);
      return restMs > 0 ? { status: 'postponed', restMs, hostDelayMs } : null;
    };

    // A redirect whose target host was just asked its robots.txt (or llms.txt, or a page a while
    // under its delay ago): the task goes back until that host has rested, and follows the
    // redirect then (see redirectsOf).
    const targetResting = (error: unknown): CrawlOutcome => {
      if (!(error instanceof TargetResting)) throw error;
      return { status: 'postponed', restMs: error.restMs, hostDelayMs };
    };

    // The seed's sitemaps (and an index's) are tasks of their own, paced like pages.
    if (isSitemapTask(task)) {
      const sitemapPaced = await paced();
      if (sitemapPaced) return sitemapPaced;
      const beforeRedirect = redirectsOf(deps, task.url);
      return await readSitemap({ ...deps, fetcher: ownFetcher }, task, seed, { signal, beforeRedirect }).then(
        (outcome) => ({ ...outcome, hostDelayMs }),
        targetResting,
      );
    }
    // The llms.txt verdict (the document's has_llms_txt) before the page, so that it is spaced too;
    // the pages a seed's llms.txt lists (those it means for language models, often markdown) are
    // queued by the task that fetched it, before any postponement hands the task to another process.
    if (task.depth === 0) await deps.crawl.add(followUps(await deps.llms.takeListedPages(task.url), seed, 1));
    else await deps.llms.has(task.url);
    const afterLlms = rested();
    if (afterLlms) return afterLlms;
    if (task.depth === 0) await queueSeedSitemaps(deps, task.url, seed);

    // A conditional request only for a page its last crawl indexed: "unchanged" then keeps its
    // entry. A page left out for another page's sake (its canonical, the page it duplicates) may
    // be wanted now although it has not changed: its canonical turned out gone, say.
    const indexed = task.meta?.indexed === '1';
    const pagePaced = await paced();
    if (pagePaced) return pagePaced;
    let res: FetchResult;
    try {
      res = await ownFetcher.fetch(task.url, {
        ...(indexed && task.meta?.etag ? { etag: task.meta.etag } : {}),
        ...(indexed && task.meta?.lastModified ? { lastModified: task.meta.lastModified } : {}),
        signal,
        // A page longer than the limit is read to it, as search engines read a page's head (a
        // document cut short is no document, so a PDF over it still fails `too_large`).
        truncateBody: isPageText,
        // The target site's llms.txt verdict (its document's has_llms_txt) is asked before its page.
        beforeRedirect: redirectGateOf(task, seed, redirectsOf(deps, task.url, { llms: deps.llms })),
      });
    } catch (error) {
      if (error instanceof RedirectQueued)
        return await queueRedirectTarget(deps, task, seed, error.target, hostDelayMs);
      return targetResting(error);
    }
    if (res.notModified) {
      // A 304 answers a conditional request only: to one that sent no validators it is no page.
      if (!(indexed && (task.meta?.etag || task.meta?.lastModified))) {
        throw new NonRetryableError('304 Not Modified to a request that was not conditional', 'http_304');
      }
      return { status: 'done', reason: 'not_modified', hostDelayMs };
    }
    const url = normalizeUrl(res.finalUrl);
    // Validators belong to the URL that answered; a redirected fetch keeps none for this one.
    const sameUrl = url === task.url;
    const validators = {
      etag: (sameUrl && res.headers.etag) || '',
      lastModified: (sameUrl && res.headers['last-modified']) || '',
    };

    let filetype = fetchedFiletype(res);
    // A body of unknown type cut at the limit that turns out to be a document is no document.
    if (res.truncated && filetype !== 'html' && filetype !== 'txt' && filetype !== 'md') {
      throw new NonRetryableError(
        `a ${res.contentType || 'body'} over ${res.body.length} bytes, cut at the limit`,
        'too_large',
      );
    }
    // The X-Robots-Tag header: how a PDF or an Office document (or any page) says noindex.
    const tag = robotsTagOf(res.headers['x-robots-tag'], agents, (deps.now?.() ?? new Date()).getTime());
    // Nothing of a document kept out of the index is read (its links are not followed either).
    if (tag.noindex && filetype !== 'html') {
      return { status: 'skipped', reason: 'noindex', hostDelayMs, meta: validators };
    }
    let page: PageText;
    let links: string[] = [];
    let indexable = !tag.noindex;
    // A canonical named in the Link header (a document's only way); a page's own element comes first.
    let canonicalUrl = canonicalFromLinkHeader(res.headers.link, res.finalUrl);
    if (filetype === 'html') {
      const extracted = await extractPage(deps, res, seed.render, agent, signal);
      const { refresh } = extracted;
      // An instant meta refresh is a redirect, as search engines read it: the target is crawled
      // in the page's place (a later one is a link like any other).
      if (refresh && refresh.delaySecs <= MAX_REFRESH_REDIRECT_SECS) {
        const [target] = followUps([refresh.url], seed, task.depth);
        if (target) await deps.crawl.add([target]);
        return {
          status: 'skipped',
          reason: META_REFRESH_REASON,
          hostDelayMs,
          meta: { ...validators, redirectedTo: target?.url ?? '' },
        };
      }
      page = extracted;
      indexable &&= !extracted.robots.noindex;
      if (!extracted.robots.nofollow && !tag.nofollow)
        links = refresh ? [...extracted.links, refresh.url] : extracted.links;
      canonicalUrl = canonicalOf(extracted.canonicalUrl) ?? canonicalUrl;
      // The seed page's own feeds (the site's newest pages), read as tasks in the host's turn.
      if (task.depth === 0 && !tag.nofollow) await queueDeclaredFeeds(deps, extracted.feeds, url, seed);
    } else if (filetype === 'txt') {
      page = plainTextPage(decodeHtml(res.body, { contentType: res.headers['content-type'] }).text, res.finalUrl);
    } else if (filetype === 'md') {
      const markdown = await markdownPage(deps, res);
      page = markdown;
      if (!tag.nofollow) links = markdown.links;
    } else if (filetype !== null) {
      // Typed by what its bytes are: a PDF served as a `.doc` is found with `filetype:pdf`.
      const document = await documentPage(res, filetype);
      page = document;
      filetype = document.filetype;
    } else if (XML_MIME.test(res.contentType) && (await queueListedPages(deps, res, seed, task.depth, tag.nofollow))) {
      return { status: 'skipped', reason: LINK_LIST, hostDelayMs, meta: validators };
    } else {
      return { status: 'skipped', reason: 'unsupported_content_type', hostDelayMs, meta: validators };
    }

    if (links.length > 0) await deps.crawl.add(followUps(links, seed, task.depth + 1));
    // `/docs/index.html` may be `/docs/`: crawl that too, and the two are stored once when their
    // texts are the same (the shorter URL holds it); sites that serve different pages keep both.
    const directory = directoryIndexParent(url);
    if (directory) {
      const tasks = followUps([directory], seed, task.depth);
      await deps.crawl.add(tasks.map((t) => ({ ...t, meta: { ...t.meta, directoryOf: url } })));
    }
    if (!indexable) return { status: 'skipped', reason: 'noindex', hostDelayMs, meta: validators };
    if (page.body_text.trim() === '') return { status: 'skipped', reason: 'no_text', hostDelayMs, meta: validators };
    // A "page not found" served with 200 (its links were still followed above, as a 404's are not).
    if (filetype === 'html' && isSoftNotFound(page)) {
      return { status: 'skipped', reason: 'soft_404', hostDelayMs, meta: validators };
    }

    // The canonical URL is recorded; a same-site one in scope is crawled and indexed instead.
    const meta = { ...validators, canonical: canonicalUrl ?? '', duplicateOf: '' };
    const elsewhere = crawlInstead(url, canonicalUrl, task.meta);
    const instead =
      elsewhere && !(await canonicalFellThrough(deps, task, elsewhere)) ? followUps([elsewhere], seed, task.depth) : [];
    if (instead.length > 0 && (await queuedInstead(deps, instead, url))) {
      return { status: 'skipped', reason: CANONICAL_ELSEWHERE, hostDelayMs, meta };
    }

    const domain = hostOf(url);
    const doc: PageDocument = {
      id: pageIdForUrl(url),
      url,
      title: page.title || leadLine(page.body_text, MAX_TEXT_TITLE_CHARS) || titleFromUrl(url),
      body_text: page.body_text,
      lang: page.lang,
      author: page.author,
      published_at: page.published_at,
      crawled_at: toIsoUtc(deps.now?.() ?? new Date()),
      site_name: page.site_name ?? domain,
      has_llms_txt: await deps.llms.has(url),
      filetype: filetype ?? 'html',
      domain,
      word_count: page.word_count,
      // Kept whole in the blob store for `?format=markdown`; never indexed.
      ...(page.body_markdown ? { body_markdown: page.body_markdown } : {}),
      ...(page.quality !== undefined && page.quality < 1 ? { quality: page.quality } : {}),
      ...simhashOf(page.body_text),
    };
    const stored = await storeOnce(doc, canonicalUrl === url, deps);
    if (!stored.held) {
      return { status: 'skipped', reason: DUPLICATE, hostDelayMs, meta: { ...meta, duplicateOf: stored.holder } };
    }
    // The fingerprint is released through this task's URL only; a redirected page keeps none.
    return { status: 'done', hostDelayMs, meta: { ...meta, fp: sameUrl ? stored.fingerprint : '' }, indexedId: doc.id };
  };
}

/**
 * A canonical URL crawled in a page's place (`meta.canonicalOf`) that ended without being indexed
 * (gone, disallowed, noindex, a redirect back to the page...): the page that named it is queued
 * again, to be indexed itself (see canonicalFellThrough), or neither would be in the index.
 */
async function canonicalNotIndexed(deps: PageHandlerDeps, task: CrawlTask): Promise<void> {
  const source = task.meta?.canonicalOf;
  if (source) await deps.crawl.requeue([source], ['skipped']);
}

/**
 * Queues a page's canonical in its place (`instead`, one task); whether it will be indexed in the
 * page's place: queued here, or queued or indexed before. A canonical the crawl refused (its
 * `maxPagesInScope` spent), or one that ended skipped or failed, is not: the page is indexed
 * itself, or neither would be in the index.
 */
async function queuedInstead(deps: PageHandlerDeps, instead: readonly NewCrawlTask[], url: string): Promise<boolean> {
  if ((await deps.crawl.add(instead.map((t) => ({ ...t, meta: { ...t.meta, canonicalOf: url } })))) > 0) return true;
  const state = await stateOf(deps, instead[0]?.url ?? '');
  return state === 'pending' || state === 'done';
}

/** Where a URL stands in the frontier (`unknown` when never added); asking queues nothing. */
async function stateOf(deps: PageHandlerDeps, url: string): Promise<UrlStanding['state'] | undefined> {
  // `requeue` with no states queues nothing: it only says where the URL stands.
  const [standing] = await deps.crawl.requeue([url], []);
  return standing?.state;
}

/**
 * Whether the page's canonical was crawled in its place before (the page finished with it as its
 * `canonical`) and ended without being indexed: the page is then indexed itself. Asked only of a
 * page crawled again (its meta names the canonical), through the queue's standing of that URL.
 */
async function canonicalFellThrough(deps: PageHandlerDeps, task: CrawlTask, canonical: string): Promise<boolean> {
  if (task.meta?.canonical !== canonical) return false;
  const state = await stateOf(deps, canonical);
  return state === 'skipped' || state === 'failed';
}

async function extractPage(
  deps: PageHandlerDeps,
  res: FetchResult,
  render: RenderMode,
  robotsAgent: string,
  signal: AbortSignal,
): Promise<ExtractedPage> {
  if (isProbablyBinary(res.body)) throw new NonRetryableError('binary content served as HTML', 'binary_as_html');
  const contentType = res.headers['content-type'];
  const contentLanguage = res.headers['content-language'] ?? null;
  // The body goes to the extraction thread in bytes, decoded there: a decoded page is often a
  // two-byte string, which costs more to copy across than its bytes. It is decoded here too only
  // when the render check needs to read it (little text came out).
  const extracted = await deps.extractor.extractBody({
    body: res.body,
    contentType,
    url: res.finalUrl,
    contentLanguage,
    robotsAgent,
  });
  if (extracted.plain) {
    deps.logger.warn({ url: res.finalUrl }, 'extraction failed or ran out of time; the page was read plainly');
  }
  const html = () => decodeHtml(res.body, { contentType }).text;
  const wantsBrowser =
    render === 'always' || (render === 'auto' && needsRendering({ html, extractedTextLength: extracted.textLength }));
  if (!wantsBrowser) return extracted;
  const browser = await deps.browser();
  if (!browser) return extracted;
  // The browser asks the page again: a delay after the fetch, waited here (a render takes longer),
  // unless the host asks for more than maxRenderWaitMs (a worker would be held that long: the
  // static text is kept). When the browser's requests left is its business, so the host's next
  // request is counted from the render's end.
  const delayMs = hostDelayOf(deps, await deps.robots.check(res.finalUrl));
  const restMs = await deps.sideRequests.pace(
    res.finalUrl,
    delayMs,
    signal,
    deps.maxRenderWaitMs ?? MAX_RENDER_WAIT_MS,
  );
  if (restMs > 0) {
    deps.logger.info(
      { url: res.finalUrl, delayMs },
      "not rendered: the host's delay is longer than a render waits; using static HTML",
    );
    return extracted;
  }
  try {
    // The page's own site's robots.txt (already read for the page) rules its scripts' requests
    // too: what they fetch from a disallowed path is not indexed. Other hosts (a CDN's scripts) are
    // not asked for theirs, which would cost each a request before the render.
    const origin = new URL(res.finalUrl).origin;
    const allowRequest = async (url: string): Promise<boolean> =>
      (await deps.allowRequest(url)) && (new URL(url).origin !== origin || (await deps.robots.check(url)).allowed);
    const rendered = await browser
      .render(res.finalUrl, { allowRequest, ...(deps.browserLookup ? { lookup: deps.browserLookup } : {}) })
      .finally(() => deps.sideRequests.sentNow(res.finalUrl));
    // The page's script went to another page (or the browser showed its own error page): what was
    // rendered is not this page's text. An http(s) target is crawled in the page's place, as an
    // instant meta refresh is (and with its robots.txt and scope checks); the static text stays
    // this page's otherwise.
    if (!sameDocument(rendered.finalUrl, res.finalUrl)) {
      deps.logger.info({ url: res.finalUrl, to: rendered.finalUrl }, 'the page navigated away while rendered');
      return /^https?:\/\//i.test(rendered.finalUrl)
        ? { ...extracted, refresh: { url: rendered.finalUrl, delaySecs: 0 } }
        : extracted;
    }
    const again = await deps.extractor.extract({
      html: rendered.html,
      url: rendered.finalUrl,
      contentLanguage,
      robotsAgent,
    });
    return again.textLength > extracted.textLength ? again : extracted;
  } catch (error) {
    deps.logger.warn({ url: res.finalUrl, err: (error as Error).message }, 'render failed; using static HTML');
    return extracted;
  }
}

/** Whether two URLs are one document (a fragment or a normalization apart). */
function sameDocument(a: string, b: string): boolean {
  try {
    return normalizeUrl(a) === normalizeUrl(b);
  } catch {
    return false;
  }
}

function simhashOf(text: string): { simhash?: string } {
  const hash = simhash(text);
  return hash === null ? {} : { simhash: hash };
}

function plainTextPage(text: string, url: string): PageText {
  return {
    title: textFileTitle(text, url),
    body_text: text.trim(),
    word_count: countWords(text),
    author: null,
    published_at: null,
    lang: detectTextLanguage(text).lang ?? UNKNOWN_LANG,
    site_name: null,
  };
}

/** llms.txt files (and their `llms-full.txt` companions) are markdown by their proposal. */
const LLMS_TXT_PATH = /\/llms(?:-full)?\.txt$/i;

/**
 * What a fetched file is: its Content-Type says, else the file name its Content-Disposition gives,
 * else its URL's extension, else its bytes (a PDF served as `application/octet-stream` from
 * `/download?id=7`). A `.md` URL served as plain text (as GitHub's raw files and most static servers
 * serve markdown) is markdown, and so is an llms.txt.
 */
function fetchedFiletype(res: FetchResult): Filetype | null {
  const declared = filetypeFromContentType(res.contentType);
  const named = filetypeFromUrl(res.finalUrl);
  if (declared === 'txt' && (named === 'md' || LLMS_TXT_PATH.test(new URL(res.finalUrl).pathname))) return 'md';
  return declared ?? filetypeFromDisposition(res.headers['content-disposition']) ?? named ?? sniffFiletype(res.body);
}

/** A markdown file: its rendered text, its front matter's properties, the markdown as written. */
async function markdownPage(deps: PageHandlerDeps, res: FetchResult): Promise<PageText & { links: string[] }> {
  const doc = await deps.extractor.extractMarkdown({
    body: res.body,
    contentType: res.headers['content-type'],
    url: res.finalUrl,
  });
  return {
    title: doc.title ?? titleFromUrl(res.finalUrl),
    body_text: doc.body_text,
    body_markdown: doc.body_markdown,
    word_count: doc.word_count,
    author: doc.author,
    published_at: doc.published_at,
    lang: doc.lang,
    site_name: null,
    links: doc.links,
  };
}

async function documentPage(
  res: FetchResult,
  filetype: Exclude<Filetype, 'html' | 'txt' | 'md'>,
): Promise<PageText & { filetype: Filetype }> {
  const doc = await extractDocument(res.body, filetype);
  return {
    filetype: doc.filetype,
    title: doc.title?.trim() || titleFromUrl(res.finalUrl),
    body_text: doc.text,
    body_markdown: doc.markdown,
    word_count: countWords(doc.text),
    author: doc.author,
    published_at: doc.published_at,
    lang: detectTextLanguage(doc.text).lang ?? UNKNOWN_LANG,
    site_name: null,
  };
}

/**
 * A page that declares no title and shows no headline is named by its first line of text, cut to
 * this many characters at a word.
 */
const MAX_TEXT_TITLE_CHARS = 120;

/**
 * A plain text file's title: its first line, without the marks of a markdown heading or a comment
 * that open it (`# Kubernetes guide`, an llms.txt saved under another name, is `Kubernetes guide`),
 * else named from the URL.
 */
export function textFileTitle(text: string, url: string): string {
  return leadLine(text, MAX_TEXT_TITLE_CHARS).replace(/^#{1,6}(?:\s+|$)/, '') || titleFromUrl(url);
}

/** Extensions of files and pages that a title named from the URL leaves out. */
const NAMED_FILE_EXTENSION =
  /\.(?:pdf|docx?|pptx?|xlsx?|od[tps]|rtf|txt|md|markdown|csv|html?|xhtml|php\d?|aspx?|jsp|cfm|shtml)$/i;

/**
 * A title from the URL's last segment, for what names itself nowhere else: the file name without
 * its extension, its separators as spaces (`annual-report_2024.pdf` is `annual report 2024`), so
 * that `intitle:` finds its words; the host when the path has none.
 */
export function titleFromUrl(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  const words = name
    .replace(NAMED_FILE_EXTENSION, '')
    .replace(/[-_+\s]+/g, ' ')
    .trim();
  return /[\p{L}\p{N}]/u.test(words) ? words : hostOf(url);
}

/** A meta refresh this soon (seconds) is a redirect; a later one, a link. */
const MAX_REFRESH_REDIRECT_SECS = 1;

/** Content types a feed or a sitemap comes as. */
/** The types read as a page's text, which a cut body still is: HTML, plain text, markdown, or none. */
function isPageText(mime: string): boolean {
  return /^(?:text\/(?:html|plain|markdown|x-markdown)|application\/xhtml\+xml|unknown\/unknown|application\/unknown)?$/.test(
    mime,
  );
}

const XML_MIME = /^(?:application\/(?:rss|atom|rdf)\+xml|application\/xml|text\/xml)$/;

/**
 * A feed (RSS, Atom) or a sitemap reached as a page, a seed most often (`quarry crawl --seed
 * https://example.org/feed.xml`): its pages are queued one level deeper, a sitemap index's
 * sitemaps too (each read as a task of its own), and the file itself is not indexed. False when it
 * lists nothing.
 */
async function queueListedPages(
  deps: PageHandlerDeps,
  res: FetchResult,
  seed: Seed,
  depth: number,
  nofollow: boolean,
): Promise<boolean> {
  const listed = parseSitemap(new TextDecoder('utf-8').decode(res.body), res.finalUrl);
  if (listed.urls.length === 0 && listed.sitemaps.length === 0) return false;
  if (!nofollow) await queueSitemapEntries(deps, listed, res.url, seed, depth + 1);
  return true;
}
