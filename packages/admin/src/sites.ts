import { type BlobStore, removeSitePages, type SearchIndex, sitePageCounts } from '@quarry/core';
import { type CrawlQueue, checkForgetSites, checkSites } from '@quarry/queue';
import express, { type RequestHandler, type Response, type Router } from 'express';
import { adminHeader, escapeHtml, sendPage } from './pages/html.js';
import { sendProblem } from './problem.js';

/** A forget's JSON or form body is a few site names; anything larger is not one. */
const MAX_BODY_BYTES = 16 * 1024;

/** Where the removal of one forgotten site's pages stands, in this process. */
export interface SiteRemoval {
  readonly state: 'removing' | 'removed' | 'failed';
  /** Pages removed so far. */
  readonly removed: number;
}

/** What the sites routes work on. */
export interface SitesDeps {
  readonly crawl: CrawlQueue;
  readonly searchIndex: SearchIndex;
  /** The page store; without it a forget leaves the pages searchable (`removing: false`). */
  readonly blobs?: BlobStore;
  readonly onError: (err: unknown) => void;
}

/** What a forget did: its normalized sites, the queued URLs dropped (null: as workers reach them), and whether pages are being removed. */
interface ForgetResult {
  readonly sites: string[];
  readonly dropped: number | null;
  readonly removing: boolean;
}

class BadSites extends Error {}

/**
 * The sites of a body (`sites`: an array or one string; a form's `site` field), checked by `check`:
 * a forget refuses a public suffix (`com`), an unforget takes any site, to undo a forget.
 */
function sitesOf(body: Record<string, unknown>, check: (sites: readonly string[]) => string[]): string[] {
  const raw = body.sites ?? body.site;
  const list = typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : raw;
  if (!Array.isArray(list) || !list.every((s): s is string => typeof s === 'string')) {
    throw new BadSites('`sites` must be a list of sites (example.com, example.com/private)');
  }
  try {
    return check(list);
  } catch (error) {
    throw new BadSites((error as Error).message);
  }
}

/**
 * The forgotten sites of the admin area (`CrawlQueue.forget`, as `quarry forget` does):
 * `GET /api/sites` (with the pages each still has indexed), `POST /api/sites/forget` (JSON `{ sites, keepPages? }`: 202, the pages
 * removed in the background, each site's progress in `GET /api/sites`; a removal a stop cut short,
 * here or by `quarry forget`, is taken up again when the routes are made), `POST /api/sites/unforget`
 * (`{ sites }`), and the hosts page's forms (`POST /sites/forget`, `/sites/unforget`), which answer
 * with a page saying what was done. Every route is behind `admin`.
 */
export function addSitesRoutes(
  router: Router,
  admin: RequestHandler,
  deps: SitesDeps,
): {
  removals: ReadonlyMap<string, SiteRemoval>;
} {
  const removals = new Map<string, SiteRemoval>();
  const json = express.json({ limit: MAX_BODY_BYTES });
  const form = express.urlencoded({ extended: false, limit: MAX_BODY_BYTES, parameterLimit: 4 });

  const removeInBackground = (site: string): void => {
    removals.set(site, { state: 'removing', removed: 0 });
    removeSitePages(deps.searchIndex, deps.blobs as BlobStore, site, (removed) =>
      removals.set(site, { state: 'removing', removed }),
    ).then(
      (removed) => removals.set(site, { state: 'removed', removed }),
      (err: unknown) => {
        removals.set(site, { state: 'failed', removed: removals.get(site)?.removed ?? 0 });
        deps.onError(err);
      },
    );
  };

  // A removal cut short (a stop while it ran, here or in another process) is taken up again: the
  // forgotten sites whose pages are to be removed and that still have some indexed.
  if (deps.blobs !== undefined) {
    (async () => {
      const sites = await deps.crawl.forgottenRemovingPages();
      if (sites.length === 0) return;
      for (const [site, pages] of await sitePageCounts(deps.searchIndex, sites)) {
        if (pages > 0 && !removals.has(site)) removeInBackground(site);
      }
    })().catch(deps.onError);
  }

  const forget = async (body: Record<string, unknown>): Promise<ForgetResult> => {
    const sites = sitesOf(body, checkForgetSites);
    const keep = body.keepPages === true || body.keep_pages === 'on';
    const dropped = await deps.crawl.forget(sites, { keepPages: keep });
    const removing = !keep && deps.blobs !== undefined;
    if (removing) for (const site of sites) removeInBackground(site);
    return { sites, dropped, removing };
  };

  const unforget = async (body: Record<string, unknown>): Promise<{ sites: string[]; queued: number }> => {
    const sites = sitesOf(body, checkSites);
    return { sites, queued: await deps.crawl.unforget(sites) };
  };

  /**
   * Runs `work`; a bad body and a backend failure change nothing and are said as problems (400,
   * 503), or with `asPage` as a page.
   */
  const answer =
    <T>(
      work: (body: Record<string, unknown>) => Promise<T>,
      send: (res: Response, result: T) => void,
      asPage = false,
    ): RequestHandler =>
    async (req, res) => {
      try {
        send(res, await work((req.body ?? {}) as Record<string, unknown>));
      } catch (err) {
        const bad = err instanceof BadSites;
        if (!bad) deps.onError(err);
        const detail = bad ? err.message : 'The crawl queue did not answer; nothing was changed.';
        if (asPage) return sendResult(res, 'Nothing was changed.', detail, bad ? 400 : 503);
        if (bad) return sendProblem(res, 'invalid-parameter', detail, 'sites');
        sendProblem(res, 'backend-unavailable', detail);
      }
    };

  router.get('/api/sites', admin, async (_req, res) => {
    try {
      const forgotten = await deps.crawl.forgotten();
      const indexed = await sitePageCounts(deps.searchIndex, forgotten);
      res.json({ forgotten, indexed: Object.fromEntries(indexed), removals: Object.fromEntries(removals) });
    } catch (err) {
      deps.onError(err);
      sendProblem(res, 'backend-unavailable', 'The crawl queue did not answer; try again shortly.');
    }
  });
  router.post(
    '/api/sites/forget',
    admin,
    json,
    answer(forget, (res, result) => res.status(202).json(result)),
  );
  router.post(
    '/api/sites/unforget',
    admin,
    json,
    answer(unforget, (res, result) => res.json(result)),
  );
  router.post(
    '/sites/forget',
    admin,
    form,
    answer(
      forget,
      (res, result) => {
        const pages = result.removing
          ? 'Their indexed pages are being removed; the hosts page shows how many so far.'
          : 'Their indexed pages stay searchable.';
        const dropped =
          result.dropped === null
            ? 'The workers drop their queued URLs without fetching them.'
            : `${result.dropped.toLocaleString('en-US')} queued URLs were dropped without fetching.`;
        sendResult(res, `Forgot ${result.sites.join(', ')}.`, `${dropped} ${pages}`);
      },
      true,
    ),
  );
  router.post(
    '/sites/unforget',
    admin,
    form,
    answer(
      unforget,
      (res, result) =>
        sendResult(
          res,
          `Crawling ${result.sites.join(', ')} again.`,
          `${result.queued.toLocaleString('en-US')} URLs of theirs are queued again (those the forget dropped, and those crawled before, fetched whole).`,
        ),
      true,
    ),
  );
  return { removals };
}

/** The page a form's action answers with: what was done, and the way back. */
function sendResult(res: Response, title: string, detail: string, status = 200): void {
  const baseUrl = res.req.baseUrl;
  sendPage(
    res,
    {
      title: 'Quarry admin: sites',
      body:
        adminHeader(baseUrl, 'hosts') +
        `<main><p id="result">${escapeHtml(title)}</p><p class="muted">${escapeHtml(detail)}</p>` +
        `<p><a href="${escapeHtml(`${baseUrl}/hosts`)}">Back to the hosts</a></p></main>`,
    },
    status,
  );
}
