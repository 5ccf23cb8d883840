import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { createFetcher, type Fetcher } from './fetcher.js';
import { RobotsCache } from './robots-cache.js';

const UA = 'QuarryBot/0.1 (+https://example.invalid/bot)';

/** One local site: every origin needs its own port, and each counts its robots.txt requests. */
interface Site {
  readonly origin: string;
  robotsRequests: number;
  readonly server: Server;
}

async function site(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Site> {
  const state = { robotsRequests: 0 };
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') state.robotsRequests++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { origin, server });
}

function robotsTxt(body: string, status = 200, delayMs = 0) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url !== '/robots.txt') {
      res.writeHead(404);
      res.end();
      return;
    }
    setTimeout(() => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    }, delayMs);
  };
}

describe('RobotsCache against local servers', () => {
  const sites: Site[] = [];
  let fetcher: Fetcher;
  const rules =
    'User-agent: *\nDisallow: /\n\nUser-agent: QuarryBot\nDisallow: /private\nCrawl-delay: 4\nSitemap: https://example.invalid/sitemap.xml\n';

  const start = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Site> => {
    const s = await site(handler);
    sites.push(s);
    return s;
  };

  beforeAll(() => {
    fetcher = createFetcher({ allowHosts: ['127.0.0.1'], userAgent: UA, headersTimeoutMs: 500, totalTimeoutMs: 1500 });
  });

  afterAll(async () => {
    await fetcher.close();
    for (const s of sites) {
      s.server.closeAllConnections();
      await new Promise((resolve) => s.server.close(resolve));
    }
  });

  it('applies our group, returns Crawl-delay and sitemaps, and shares one fetch among concurrent callers', async () => {
    const s = await start(robotsTxt(rules, 200, 50));
    const cache = new RobotsCache({ fetcher });
    const verdicts = await Promise.all(Array.from({ length: 10 }, (_, i) => cache.check(`${s.origin}/page/${i}`)));
    expect(verdicts.every((v) => v.allowed && v.crawlDelaySecs === 4)).toBe(true);
    expect(await cache.check(`${s.origin}/private/x`)).toEqual({ allowed: false, crawlDelaySecs: 4 });
    expect(await cache.sitemaps(s.origin)).toEqual(['https://example.invalid/sitemap.xml']);
    expect(s.robotsRequests).toBe(1);
  });

  it.each([404, 401, 403, 410])('allows everything when robots.txt answers %i', async (status) => {
    const s = await start(robotsTxt('User-agent: *\nDisallow: /', status));
    const verdict = await new RobotsCache({ fetcher }).check(`${s.origin}/x`);
    expect(verdict).toMatchObject({ allowed: true, reason: 'robots_unavailable' });
  });

  it.each([500, 503, 429])('disallows everything for errorTtlMs when robots.txt answers %i', async (status) => {
    const s = await start(robotsTxt('', status));
    let now = 1_000_000;
    const cache = new RobotsCache({ fetcher, errorTtlMs: 60_000, clock: () => now });
    expect(await cache.check(`${s.origin}/x`)).toMatchObject({ allowed: false, reason: 'robots_unreachable' });
    now += 30_000;
    await cache.check(`${s.origin}/y`);
    expect(s.robotsRequests).toBe(1);
    now += 31_000;
    await cache.check(`${s.origin}/y`);
    expect(s.robotsRequests).toBe(2);
  });

  it('disallows everything when the server cannot be reached or times out', async () => {
    const dead = await start(robotsTxt(''));
    const deadOrigin = dead.origin;
    dead.server.close();
    const cache = new RobotsCache({ fetcher });
    expect(await cache.check(`${deadOrigin}/x`)).toMatchObject({ allowed: false, reason: 'robots_unreachable' });
    const hung = await start(() => {});
    expect(await cache.check(`${hung.origin}/x`)).toMatchObject({ allowed: false, reason: 'robots_unreachable' });
  });

  it('reports a refused address as blocked_address, never as robots.txt, and caches nothing', async () => {
    const s = await start(robotsTxt(''));
    const strict = createFetcher({ userAgent: UA });
    try {
      const cache = new RobotsCache({ fetcher: strict });
      await expect(cache.check(`${s.origin}/x`)).rejects.toMatchObject({ code: 'blocked_address' });
      expect(cache.size).toBe(0);
      expect(s.robotsRequests).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('reports a host name that does not resolve as such, not as robots.txt unreachable, and caches nothing', async () => {
    // What the fetcher throws for ENOTFOUND (see its error mapping); no resolver is asked here.
    const unresolved: Fetcher = {
      ...fetcher,
      fetch: async () => {
        throw new NonRetryableError('host name does not resolve', 'dns_not_found');
      },
    };
    const cache = new RobotsCache({ fetcher: unresolved });
    await expect(cache.check('http://no-such-host.invalid/x')).rejects.toMatchObject({ code: 'dns_not_found' });
    expect(cache.size).toBe(0);
  });

  it('follows a redirected robots.txt', async () => {
    const s = await start((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(301, { location: '/real-robots.txt' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /secret');
    });
    const cache = new RobotsCache({ fetcher });
    expect((await cache.check(`${s.origin}/secret/1`)).allowed).toBe(false);
    expect((await cache.check(`${s.origin}/open`)).allowed).toBe(true);
  });

  it('reads only maxBytes of a huge robots.txt', async () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(20);
    const s = await start(robotsTxt(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`));
    const cache = new RobotsCache({ fetcher, maxBytes: 4096 });
    expect((await cache.check(`${s.origin}/early`)).allowed).toBe(false);
    expect((await cache.check(`${s.origin}/late`)).allowed).toBe(true);
  });

  it('drops the line cut at maxBytes, which would otherwise read as a shorter rule', async () => {
    // `Disallow: /private-archive/` cut right after its slash reads `Disallow: /`: the whole site.
    const head = 'User-agent: *\nDisallow: /early\n';
    const rule = 'Disallow: /private-archive/\n';
    const pad = `# ${'x'.repeat(4096 - head.length - 'Disallow: /'.length - 3)}\n`;
    const s = await start(robotsTxt(`${head}${pad}${rule}`));
    const cache = new RobotsCache({ fetcher, maxBytes: 4096 });
    expect((await cache.check(`${s.origin}/early`)).allowed).toBe(false);
    expect((await cache.check(`${s.origin}/blog/post`)).allowed).toBe(true);
  });

  it('refetches after ttlMs and keeps at most maxOrigins', async () => {
    const a = await start(robotsTxt(rules));
    const b = await start(robotsTxt(rules));
    let now = 0;
    const cache = new RobotsCache({ fetcher, ttlMs: 1000, maxOrigins: 1, clock: () => now });
    await cache.check(`${a.origin}/`);
    await cache.check(`${a.origin}/again`);
    expect(a.robotsRequests).toBe(1);
    now = 1500;
    await cache.check(`${a.origin}/`);
    expect(a.robotsRequests).toBe(2);
    await cache.check(`${b.origin}/`);
    expect(cache.size).toBe(1);
    await cache.check(`${a.origin}/`);
    expect(a.robotsRequests).toBe(3);
  });

  it('says from what it holds, without a request, whether its rules disallow a URL (disallowsNow)', async () => {
    const s = await start(robotsTxt(rules));
    const failing = await start(robotsTxt('', 503));
    let now = 0;
    const cache = new RobotsCache({ fetcher, ttlMs: 120_000, clock: () => now });
    // Not read yet: no answer, and no request for one.
    expect(cache.disallowsNow(`${s.origin}/private/a`)).toBe(false);
    expect(s.robotsRequests).toBe(0);
    await cache.check(`${s.origin}/`);
    expect(cache.disallowsNow(`${s.origin}/private/a`)).toBe(true);
    expect(cache.disallowsNow(`${s.origin}/public`)).toBe(false);
    expect(cache.disallowsNow(`${s.origin}/robots.txt`)).toBe(false);
    expect(cache.disallowsNow('not a url')).toBe(false);
    // Within a minute of its expiry the entry is not answered from: check() would ask again.
    now = 61_000;
    expect(cache.disallowsNow(`${s.origin}/private/a`)).toBe(false);
    expect(s.robotsRequests).toBe(1);
    // A robots.txt that could not be read (5xx) disallows everything in check(), as a retry, not a rule.
    expect((await cache.check(`${failing.origin}/a`)).allowed).toBe(false);
    expect(cache.disallowsNow(`${failing.origin}/a`)).toBe(false);
  });

  it('always allows /robots.txt itself', async () => {
    const s = await start(robotsTxt('User-agent: *\nDisallow: /'));
    const cache = new RobotsCache({ fetcher });
    expect((await cache.check(`${s.origin}/robots.txt`)).allowed).toBe(true);
    expect((await cache.check(`${s.origin}/anything`)).allowed).toBe(false);
  });
});
