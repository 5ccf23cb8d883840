import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pageIdForUrl } from '@quarry/core';
import type { LanceSearchIndex } from '@quarry/index-lance';
import type { Queues } from '@quarry/queue';
import { pagedPdf, type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlHosts } from './testing.js';

/** Past the fetcher's own 10 MiB, within the 25 MiB a document is read to. */
const LARGE_BYTES = 12 * 1024 * 1024;

describe('a document over 10 MiB, with the crawler’s own limits', () => {
  let site: Site;
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    const survey = pagedPdf([['Zeppelin hangar survey', 'The hangar floor was measured twice.']], {
      title: 'Hangar survey',
      padBytes: LARGE_BYTES,
    });
    site = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': { body: '<html><body><h1>Surveys</h1><a href="/survey.pdf">The survey</a></body></html>' },
      '/survey.pdf': { headers: { 'content-type': 'application/pdf' }, body: survey },
    });
    ({ dir, queues, index } = await crawlHosts('large-document', '127.0.0.1', {
      queue: (crawler) => crawler.addSeeds([parseSeed(`${site.origin}/ depth=1`)]),
    }));
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is fetched and indexed, not refused as too large', async () => {
    const stats = await queues.crawl.stats();
    expect(stats.reasons.filter((r) => r.state === 'failed')).toEqual([]);
    expect(await index.has(pageIdForUrl(`${site.origin}/survey.pdf`))).toBe(true);
  });
});
