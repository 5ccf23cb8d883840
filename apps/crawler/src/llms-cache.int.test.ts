import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFetcher, type Fetcher } from '@quarry/fetcher';
import { type Site, startSite } from '@quarry/testkit';
import { LLMS_TXT_TIMEOUT_MS, LlmsTxtCache } from './llms-cache.js';

describe('LlmsTxtCache against local sites', () => {
  let large: Site;
  let hanging: Site;
  let fetcher: Fetcher;
  let patient: Fetcher;

  beforeAll(async () => {
    // 3 MiB of real llms.txt markdown: a documentation site's whole text, as some serve it.
    const section =
      '## Guide\n\n- [Install](/install.md): how to install\n\nThe guide explains every option in turn.\n\n';
    large = await startSite({
      '/llms.txt': {
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: `# Big Docs\n\n> Everything about Big Docs.\n\n${section.repeat(Math.ceil((3 * 1024 * 1024) / section.length))}`,
      },
    });
    fetcher = createFetcher({ allowHosts: ['127.0.0.1'], totalTimeoutMs: 5000 });
    // Answers the headers, then never the body: the fetcher alone would wait out its timeouts.
    hanging = await startSite({
      '/llms.txt': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('# Slow\n');
      },
    });
    patient = createFetcher({ allowHosts: ['127.0.0.1'], bodyTimeoutMs: 60_000, totalTimeoutMs: 60_000 });
  });

  afterAll(async () => {
    await fetcher.close();
    await patient.close();
    await large.close();
    await hanging.close();
  });

  it('judges an llms.txt over 1 MiB by its first MiB instead of failing it as too large', async () => {
    const cache = new LlmsTxtCache({ fetcher });
    expect(await cache.has(`${large.origin}/page.html`)).toBe(true);
    expect(await cache.takeListedPages(`${large.origin}/`)).toContain(`${large.origin}/install.md`);
  });

  it("gives up on an llms.txt that hangs after its own deadline, not the fetcher's", async () => {
    const cache = new LlmsTxtCache({ fetcher: patient });
    const started = Date.now();
    expect(await cache.has(`${hanging.origin}/`)).toBe(false);
    // The first page of the site waited this long, not the fetcher's minute.
    expect(Date.now() - started).toBeLessThan(LLMS_TXT_TIMEOUT_MS + 5_000);
  }, 30_000);
});
