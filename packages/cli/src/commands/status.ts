import { type QuarryConfig, sitePageCounts } from '@quarry/core';
import { type CrawlStats, otherReasons } from '@quarry/queue';
import { openQueues, openStores } from '../runtime.js';
import { finishedCounts } from './crawl-counts.js';
import { reasonLines } from './seed-report.js';

// Apart from the crawl commands: `quarry status` opens the queues and the index only, and loading
// the crawler, the API and the browser driver with them made it take 3 s instead of 1.2.

/** `quarry status`: queue depths, crawl counts by state, skip and failure reasons with example URLs. */
export async function runStatus(config: QuarryConfig, json: boolean): Promise<number> {
  const queues = await openQueues(config);
  const services = await openStores(config, { maintain: false, reportNotices: false });
  try {
    const [crawl, index, documents, forgotten, removingPages] = await Promise.all([
      queues.crawl.stats(),
      queues.index.stats(),
      services.index.count(),
      queues.crawl.forgotten(),
      queues.crawl.forgottenRemovingPages(),
    ]);
    // Kept (`--keep-pages`), or left by a removal that stopped (`removingPages`: taken up again by
    // a process serving the dashboard, as `quarry start`).
    const forgottenPages = Object.fromEntries(await sitePageCounts(services.index, forgotten));
    const removing = new Set(removingPages);
    // The queues' first (Redis lost the crawl state: the counts below are since), then the index's.
    const notices = [...((await queues.notices?.()) ?? []), ...(services.index.notices?.() ?? [])];
    if (json) {
      // The URLs of reasons beyond the ten listed a state, as the text's `other reasons` lines count them.
      const others = { skipped: otherReasons(crawl, 'skipped'), failed: otherReasons(crawl, 'failed') };
      // The pages skipped and the sitemaps and feeds apart, as the text and the dashboard's
      // /admin/api/stats count them (`crawl.skipped` holds both).
      const { skipped: skippedPages, listsSkipped: listsRead } = finishedCounts(crawl);
      const status = {
        crawl,
        skippedPages,
        listsRead,
        otherReasons: others,
        index,
        documents,
        forgotten,
        forgottenPages,
        removingPages,
        notices,
      };
      process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return 0;
    }
    const out = [
      ...notices.map((notice) => `notice: ${notice}`),
      `documents indexed: ${documents}`,
      `crawl: ${crawl.queued} queued, ${crawl.inFlight} in flight, ${countsOf(crawl)}`,
      `index queue: ${index.waiting} waiting, ${index.active} active, ${index.failed} failed`,
    ];
    if (forgotten.length > 0) {
      const named = forgotten.map((site) => {
        const pages = forgottenPages[site] ?? 0;
        const indexed = `${pages} ${pages === 1 ? 'page' : 'pages'} indexed`;
        if (pages === 0) return site;
        return removing.has(site)
          ? `${site} (${indexed}, their removal cut short: quarry start or quarry forget ${site} removes them)`
          : `${site} (${indexed}: quarry forget ${site} removes them)`;
      });
      out.push(`forgotten sites (quarry forget --undo crawls one again): ${named.join(', ')}`);
    }
    if (index.failed > 0) {
      out.push('  failed documents get one more attempt each time an indexer starts (quarry start, quarry worker)');
    }
    out.push(...reasonLines(crawl));
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  } finally {
    await queues.close();
    await services.close();
  }
}

/** `N done, N skipped, N failed`, with the sitemaps and feeds apart (see finishedCounts). */
function countsOf(stats: CrawlStats): string {
  const { done, skipped, failed, lists } = finishedCounts(stats);
  return `${done} done, ${skipped} skipped, ${failed} failed${lists}`;
}
