import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Site, startSite } from './site.js';

/** Sends an upgrade (WebSocket handshake) request and reports how it ended. */
function upgrade(origin: string, path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${origin}${path}`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket' },
    });
    req.once('upgrade', () => resolve('upgraded'));
    req.once('response', (res) => resolve(`response ${res.statusCode}`));
    req.once('error', () => resolve('closed'));
    req.end();
  });
}

describe('startSite', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite(
      { '/page?x=1': { body: 'exact' } },
      { fallback: (req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end(`fallback ${req.url}`) },
    );
  });
  afterAll(() => site.close());

  it('serves an exact route first and the fallback for everything else, counting each path', async () => {
    const exact = await fetch(`${site.origin}/page?x=1`);
    expect([exact.status, await exact.text()]).toEqual([200, 'exact']);
    const other = await fetch(`${site.origin}/page?x=2`);
    expect([other.status, await other.text()]).toEqual([202, 'fallback /page?x=2']);
    const proto = await fetch(`${site.origin}/__proto__`);
    expect(proto.status).toBe(202);
    expect(site.hits.get('/page?x=1')).toBe(1);
    expect(site.hits.get('/page?x=2')).toBe(1);
  });

  it('refuses upgrades by closing the connection, and records them apart from hits', async () => {
    await expect(upgrade(site.origin, '/socket')).resolves.toBe('closed');
    expect(site.upgrades).toEqual(['/socket']);
    expect(site.hits.has('/socket')).toBe(false);
  });

  it('answers unknown paths with a 404 page when no fallback is given', async () => {
    const plain = await startSite({});
    try {
      const res = await fetch(`${plain.origin}/missing`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Not found');
    } finally {
      await plain.close();
    }
  });
});
