import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFetcher, type Fetcher } from './fetcher.js';
import { fetchSitemapUrls } from './sitemap.js';

const urlset = (urls: string[]): string =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u}</loc></url>`)
    .join('')}</urlset>`;
const index = (sitemaps: string[]): string =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemaps
    .map((u) => `<sitemap><loc>${u}</loc></sitemap>`)
    .join('')}</sitemapindex>`;

describe('fetchSitemapUrls against a local server', () => {
  let base = '';
  let fetcher: Fetcher;
  const files: Record<string, { type: string; body: Buffer; encoding?: string }> = {};
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, ...(file.encoding ? { 'content-encoding': file.encoding } : {}) });
    res.end(file.body);
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const xml = (body: string) => ({ type: 'application/xml', body: Buffer.from(body) });
    files['/index.xml'] = xml(
      index([
        `${base}/a.xml`,
        `${base}/b.xml.gz`,
        `${base}/c.txt`,
        `${base}/missing.xml`,
        `${base}/nested.xml`,
        `${base}/index.xml`,
      ]),
    );
    files['/a.xml'] = xml(urlset([`${base}/a1`, `${base}/a2`, `${base}/shared`]));
    files['/b.xml.gz'] = { type: 'application/x-gzip', body: zlib.gzipSync(urlset([`${base}/b1`, `${base}/shared`])) };
    files['/c.txt'] = { type: 'text/plain', body: Buffer.from(`${base}/c1\n\n${base}/c2\nnot a url\n`) };
    files['/nested.xml'] = xml(index([`${base}/deep.xml`]));
    files['/deep.xml'] = xml(index([`${base}/deeper.xml`]));
    files['/deeper.xml'] = xml(urlset([`${base}/too-deep`]));
    files['/encoded.xml'] = {
      type: 'application/xml',
      body: zlib.gzipSync(urlset([`${base}/e1`])),
      encoding: 'gzip',
    };
    files['/broken.xml'] = xml(`<urlset><url><loc>${base}/ok1</loc></url><url><loc>${base}/ok2</loc></url><url><lo`);
    // `localhost` is this server too, under another host name: a sitemap of another host.
    const port = (server.address() as AddressInfo).port;
    files['/foreign-index.xml'] = xml(index([`http://localhost:${port}/a.xml`, `${base}/c.txt`]));
    files['/big.xml'] = xml(urlset(Array.from({ length: 500 }, (_, i) => `${base}/p${i}`)));
    fetcher = createFetcher({ allowHosts: ['127.0.0.1'], totalTimeoutMs: 2000 });
  });

  afterAll(async () => {
    await fetcher.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('follows a sitemap index through XML, gzip and plain-text sitemaps, bounded by depth', async () => {
    const urls = await fetchSitemapUrls(`${base}/index.xml`, { fetcher, maxDepth: 2 });
    expect(urls.sort()).toEqual(
      [`${base}/a1`, `${base}/a2`, `${base}/shared`, `${base}/b1`, `${base}/c1`, `${base}/c2`].sort(),
    );
    const deeper = await fetchSitemapUrls(`${base}/index.xml`, { fetcher, maxDepth: 3 });
    expect(deeper).toContain(`${base}/too-deep`);
  });

  it('bounds the number of sitemaps and URLs', async () => {
    expect(await fetchSitemapUrls(`${base}/index.xml`, { fetcher, maxSitemaps: 2 })).toEqual([
      `${base}/a1`,
      `${base}/a2`,
      `${base}/shared`,
    ]);
    expect(await fetchSitemapUrls(`${base}/big.xml`, { fetcher, maxUrls: 10 })).toHaveLength(10);
  });

  it("reads only the index's own host's sitemaps", async () => {
    expect((await fetchSitemapUrls(`${base}/foreign-index.xml`, { fetcher })).sort()).toEqual([
      `${base}/c1`,
      `${base}/c2`,
    ]);
  });

  it('reads gzip content-coding and tolerates broken XML', async () => {
    expect(await fetchSitemapUrls(`${base}/encoded.xml`, { fetcher })).toEqual([`${base}/e1`]);
    expect(await fetchSitemapUrls(`${base}/broken.xml`, { fetcher })).toEqual(
      expect.arrayContaining([`${base}/ok1`, `${base}/ok2`]),
    );
  });

  it('throws the fetch error for a missing root sitemap', async () => {
    await expect(fetchSitemapUrls(`${base}/nope.xml`, { fetcher })).rejects.toMatchObject({ code: 'http_404' });
  });
});
