import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Site, startSite } from '@quarry/testkit';
import { type RunningCli, requireBuiltCli, spawnCli } from './testing/run-cli.js';

interface Result {
  url: string;
  source: string;
  id: string;
}

/**
 * `quarry start` with the SearXNG fallback and QUARRY_FALLBACK_CRAWL on: a query the local index
 * cannot answer is filled from the provider (a stand-in speaking SearXNG's JSON format), its URLs are
 * crawled, and the same query is then answered locally.
 */
/** How long `quarry start` may take to answer its health check. */
const START_WAIT_MS = 60_000;

describe('fallback results are crawled so the next query is answered locally', () => {
  let web: Site;
  let searxng: Site;
  let dir: string;
  let server: RunningCli | undefined;
  let base: string;
  const searxngRequests: string[] = [];

  beforeAll(async () => {
    requireBuiltCli();
    const page = (title: string) =>
      `<html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${title}. ${'The narwhal is a toothed whale of the Arctic; its tusk is a long spiral tooth. '.repeat(8)}</p></article></body></html>`;
    web = await startSite({
      '/robots.txt': { body: '' },
      '/narwhal.html': { body: page('Narwhal facts') },
      '/private.html': { body: page('Narwhal secrets') },
    });
    searxng = await startSite(
      {},
      {
        fallback: (req, res) => {
          searxngRequests.push(req.url ?? '');
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              query: 'narwhal',
              number_of_results: 1,
              results: [
                {
                  url: `${web.origin}/narwhal.html`,
                  title: 'Narwhal facts',
                  content: 'The narwhal is a whale.',
                  engine: 'x',
                },
              ],
            }),
          );
        },
      },
    );
    dir = mkdtempSync(join(tmpdir(), 'quarry-fallback-crawl-'));
    server = spawnCli(['start'], {
      QUARRY_HOST: '127.0.0.1',
      PORT: '0',
      QUARRY_DATA_DIR: dir,
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
      QUARRY_HOST_DELAY_MS: '0',
      QUARRY_FALLBACK_PROVIDER: 'searxng',
      QUARRY_SEARXNG_URL: searxng.origin,
      QUARRY_FALLBACK_CRAWL: 'true',
      QUARRY_ADMIN_TOKEN: 'test-admin-token-0123456789',
      LOG_LEVEL: 'silent',
    });
    // Start-up takes seconds on a busy machine (CI runs suites side by side).
    base = await server.listening(START_WAIT_MS);
  }, START_WAIT_MS + 30_000);

  afterAll(async () => {
    await server?.stop();
    await web?.close();
    await searxng?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = async (): Promise<Result[]> => {
    const res = await fetch(`${base}/api/v1/search?q=narwhal`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { results: Result[] }).results;
  };

  it('serves the external result first, then the crawled local page', async () => {
    const first = await search();
    expect(first).toEqual([expect.objectContaining({ url: `${web.origin}/narwhal.html`, source: 'external', id: '' })]);
    expect(searxngRequests[0]).toContain('format=json');

    let local: Result | undefined;
    for (let i = 0; i < 100 && !local; i++) {
      await new Promise((r) => setTimeout(r, 200));
      local = (await search()).find((r) => r.source === 'local');
    }
    expect(local).toMatchObject({ url: `${web.origin}/narwhal.html` });
    expect(local?.id).not.toBe('');
    // Only the returned URL is crawled, not the rest of its site.
    expect(web.hits.get('/private.html')).toBeUndefined();
  }, 40_000);
});
