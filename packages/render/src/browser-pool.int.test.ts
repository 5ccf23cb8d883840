import { createSocket, type Socket } from 'node:dgram';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { describeWithServer, type Route, type Site, startSite } from '@quarry/testkit';
import { BrowserPool } from './browser-pool.js';
import { findChromium } from './find-chromium.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Routes by pathname, since the tests vary query strings (`/slow?i=3`); anything else is a 404. */
function byPathname(handlers: Readonly<Record<string, Handler>>): Route {
  return (req, res) => {
    const handler = handlers[new URL(req.url ?? '/', 'http://x').pathname];
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
}

/** Whether the site received a request whose path (with query) starts with `path`. */
const saw = (site: Site, path: string): boolean => [...site.hits.keys()].some((url) => url.startsWith(path));

const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
const send = (res: ServerResponse, type: string, body: string): void => {
  res.writeHead(200, { 'content-type': type }).end(body);
};

/** Chromium processes descended from this process (Linux /proc), with their command lines. */
function chromiumDescendants(): { pid: number; args: string }[] {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // the process ended while we looked
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) {
      if (p === process.pid) return true;
    }
    return false;
  };
  return [...commands.entries()]
    .filter(([pid, args]) => /chrom/i.test(args) && isDescendant(pid))
    .map(([pid, args]) => ({ pid, args }));
}

describeWithServer('chromium', 'BrowserPool (real Chromium)', () => {
  // The product's own way of finding Chromium, so these tests drive what `quarry` would.
  const executablePath = findChromium();
  let site: Site;
  let other: Site;
  let pool: BrowserPool;
  let rtcTargets: string[] = [];
  let activeSlow = 0;
  let maxActiveSlow = 0;
  const slowWaiters: (() => void)[] = [];
  const allowSite = async (url: string): Promise<boolean> => new URL(url).origin === site.origin;

  beforeAll(async () => {
    if (!executablePath) throw new Error('chromium is on PATH, but findChromium() finds none in its directories');
    other = await startSite({});
    const handlers: Record<string, Handler> = {
      '/app': (_req, res) =>
        send(
          res,
          'text/html',
          html(`<div id="root"></div>
            <script>
              fetch('/api/items').then((r) => r.json()).then((items) => {
                const root = document.getElementById('root');
                for (const item of items) {
                  const p = document.createElement('p');
                  p.textContent = item;
                  root.appendChild(p);
                }
              });
            </script>`),
        ),
      '/api/items': (_req, res) =>
        send(res, 'application/json', JSON.stringify(['Quarry renders scripted pages', 'Second paragraph'])),
      '/leaky': (_req, res) =>
        send(
          res,
          'text/html',
          html(`<p>Leaky page</p>
            <img src="/pixel.png"><link rel="stylesheet" href="/style.css">
            <img src="${other.origin}/tracker.png">
            <script>
              fetch('${other.origin}/exfil').catch(() => {});
              fetch('/bounce').catch(() => {});
              try { new WebSocket('ws://127.0.0.1:${new URL(other.origin).port}/socket'); } catch {}
              fetch('/api/items').then(() => { document.body.dataset.done = 'yes'; });
            </script>`),
        ),
      // Web components whose text lives in shadow trees a script attaches, one inside another.
      '/components': (_req, res) =>
        send(
          res,
          'text/html',
          html(`<x-story><span slot="title">Tide tables</span><p>Light paragraph</p></x-story>
            <script>
              customElements.define('x-byline', class extends HTMLElement {
                connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<em>by the harbour master</em>'; }
              });
              customElements.define('x-story', class extends HTMLElement {
                connectedCallback() {
                  this.attachShadow({ mode: 'open' }).innerHTML =
                    '<h2><slot name="title"></slot></h2><x-byline></x-byline><p>Shadow paragraph</p><slot></slot>';
                }
              });
            </script>`),
        ),
      // Opens peer connections to the ICE servers a test names, then marks the page.
      '/rtc': (_req, res) =>
        send(
          res,
          'text/html',
          html(`<div id="app"></div><script>
            for (const urls of ${JSON.stringify(rtcTargets)}) {
              try {
                const pc = new RTCPeerConnection({ iceServers: [{ urls, username: 'u', credential: 'p' }] });
                pc.createDataChannel('x');
                pc.createOffer().then((offer) => pc.setLocalDescription(offer));
              } catch (e) {}
            }
            document.getElementById('app').setAttribute('data-rtc', 'asked');
          </script>`),
        ),
      // Content added on timers, after the network went quiet: a deferred render, then its second
      // part (their text is split in the source, so that only the rendered DOM holds it whole).
      '/late': (_req, res) =>
        send(
          res,
          'text/html',
          html(`<div id="root">Loading</div>
            <script>
              setTimeout(() => {
                document.getElementById('root').innerHTML = '<p>Tide tables ' + 'for the harbour</p>';
                setTimeout(() => { document.getElementById('root').insertAdjacentHTML('beforeend', '<p>High water ' + 'at noon</p>'); }, 400);
              }, 1500);
            </script>`),
        ),
      // A ticker that changes its text for ever: the render still ends, at the settle budget.
      '/ticker': (_req, res) =>
        send(
          res,
          'text/html',
          html(`<p>Ticker page</p><p id="t">0</p>
            <script>let n = 0; setInterval(() => { document.getElementById('t').textContent = String(++n); }, 50);</script>`),
        ),
      '/pixel.png': (_req, res) => send(res, 'image/png', 'x'),
      '/style.css': (_req, res) => send(res, 'text/css', 'p{}'),
      '/bounce': (_req, res) => res.writeHead(302, { location: `${other.origin}/redirected` }).end(),
      '/hang': (_req, res) => {
        // Headers and a start, then nothing: `load` never fires.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!doctype html><html><body><p>partial');
      },
      // Held until a second slow request is in (or 3 s pass, for the last one), so that two
      // renders overlap however slowly a loaded machine starts them.
      '/slow': (_req, res) => {
        activeSlow += 1;
        maxActiveSlow = Math.max(maxActiveSlow, activeSlow);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          clearTimeout(fallback);
          setTimeout(() => {
            activeSlow -= 1;
            send(res, 'text/html', html('<p>slow page</p>'));
          }, 100);
        };
        const fallback = setTimeout(release, 3000);
        if (activeSlow >= 2) {
          for (const waiting of slowWaiters.splice(0)) waiting();
          release();
        } else slowWaiters.push(release);
      },
      '/spin': (_req, res) =>
        send(res, 'text/html', html('<p>spinning</p><script>setTimeout(() => { for (;;) {} }, 0);</script>')),
      '/big': (_req, res) => send(res, 'text/html', html(`<p>${'é'.repeat(50_000)}</p>`)),
    };
    site = await startSite({}, { fallback: byPathname(handlers) });
    // One Chromium for every test that needs no pool of its own: a generous navigation timeout (the
    // timeouts are proved on a strict pool below), so a queued page on a loaded machine is not cut;
    // and a 10 kB HTML limit, far above the other pages here, for the test of the cut.
    pool = await BrowserPool.launch({
      executablePath,
      maxPages: 2,
      navigationTimeoutMs: 10_000,
      settleTimeoutMs: 3_000,
      maxHtmlBytes: 10_001,
    });
  }, 30_000);

  afterAll(async () => {
    await pool?.close();
    await Promise.all([site?.close(), other?.close()]);
  });

  it('returns the HTML a script built from fetched JSON', async () => {
    const result = await pool.render(`${site.origin}/app`, { allowRequest: allowSite });
    expect(result.html).toContain('<p>Quarry renders scripted pages</p>');
    expect(result.html).toContain('<p>Second paragraph</p>');
    expect(result.status).toBe(200);
    expect(result.finalUrl).toBe(`${site.origin}/app`);
  });

  it('waits for content a script adds on short timers after the network went quiet', async () => {
    const result = await pool.render(`${site.origin}/late`, { allowRequest: allowSite });
    expect(result.html).toContain('<p>Tide tables for the harbour</p>');
    expect(result.html).toContain('<p>High water at noon</p>');
  });

  it('ends the render of a page that never stops changing at the settle budget', async () => {
    const started = Date.now();
    const result = await pool.render(`${site.origin}/ticker`, { allowRequest: allowSite });
    expect(result.html).toContain('<p>Ticker page</p>');
    // Well short of the hard timeout (navigation 10 s + settle 3 s + 5 s): the settle budget ends it.
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it("writes open shadow roots as declarative templates, so web components' text is kept", async () => {
    const result = await pool.render(`${site.origin}/components`, { allowRequest: allowSite });
    expect(result.html).toMatch(/^<!DOCTYPE html><html>/);
    expect(result.html).toContain('<x-story><template shadowrootmode="open"><h2><slot name="title">');
    expect(result.html).toContain('<p>Shadow paragraph</p>');
    expect(result.html).toContain('<x-byline><template shadowrootmode="open"><em>by the harbour master</em>');
    expect(result.html).toContain('<span slot="title">Tide tables</span>');
  });

  it('blocks images, stylesheets, other hosts, redirects to them and WebSockets', async () => {
    const result = await pool.render(`${site.origin}/leaky`, { allowRequest: allowSite });
    expect(result.html).toContain('data-done="yes"');
    expect(saw(site, '/leaky')).toBe(true);
    expect(saw(site, '/pixel.png')).toBe(false);
    expect(saw(site, '/style.css')).toBe(false);
    expect([...other.hits.keys()]).toEqual([]);
    expect(other.upgrades).toEqual([]);
  });

  it('sends no WebRTC packets (STUN, TURN over UDP) to an address the policy refuses', async () => {
    // UDP goes around the policy proxy: a page could probe the network's ports through ICE.
    const heard: string[] = [];
    const listen = (type: 'udp4' | 'udp6', address: string): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = createSocket(type);
        socket.on('message', (_message, from) => heard.push(`${address} from ${from.address}`));
        socket.once('error', reject);
        socket.bind(0, address, () => resolve(socket));
      });
    const sockets = await Promise.all([listen('udp4', '127.0.0.2'), listen('udp6', '::1')]);
    const [v4, v6] = sockets.map((socket) => socket.address().port);
    rtcTargets = [`stun:127.0.0.2:${v4}`, `turn:127.0.0.2:${v4}?transport=udp`, `stun:[::1]:${v6}`];
    try {
      const result = await pool.render(`${site.origin}/rtc`, { allowRequest: allowSite });
      expect(result.html).toContain('data-rtc="asked"');
      // ICE gathering sends its first STUN request within milliseconds; give it a second.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(heard).toEqual([]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it('refuses a page the policy refuses without loading it', async () => {
    await expect(pool.render(`${other.origin}/page`, { allowRequest: allowSite })).rejects.toMatchObject({
      code: 'blocked_by_policy',
    });
    await expect(pool.render('file:///etc/passwd', { allowRequest: async () => true })).rejects.toMatchObject({
      code: 'invalid_url',
    });
    expect([...other.hits.keys()]).toEqual([]);
  });

  it('renders at most maxPages at once and queues the rest', async () => {
    // Four renders on the shared pool (maxPages 2): two render, two wait their turn; /slow holds
    // each request until a second is in, so that the two in flight overlap at the site.
    maxActiveSlow = 0;
    const renders = Array.from({ length: 4 }, (_, i) =>
      pool.render(`${site.origin}/slow?i=${i}`, { allowRequest: allowSite }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.pagesInFlight).toBe(2);
    const results = await Promise.all(renders);
    expect(results.every((r) => r.html.includes('slow page'))).toBe(true);
    expect(maxActiveSlow).toBe(2);
  });

  it('cuts HTML at maxHtmlBytes without breaking a character', async () => {
    // The shared pool's limit (10_001 bytes): an odd cut, inside a two-byte character.
    const result = await pool.render(`${site.origin}/big`, { allowRequest: allowSite });
    expect(Buffer.byteLength(result.html)).toBeLessThanOrEqual(10_001);
    expect(Buffer.byteLength(result.html)).toBeGreaterThan(9_990);
    expect(result.html).not.toContain('\uFFFD');
  });

  describe('on a pool with short timeouts', () => {
    // One Chromium for the tests of the timeouts: a 1 s navigation timeout for /hang, a 5 s hard
    // timeout for /spin.
    let strict: BrowserPool;
    beforeAll(async () => {
      strict = await BrowserPool.launch({
        executablePath: executablePath ?? '',
        navigationTimeoutMs: 1_000,
        settleTimeoutMs: 500,
        renderTimeoutMs: 5_000,
      });
    }, 30_000);
    afterAll(async () => {
      await strict?.close();
    });

    it('cuts a page that never finishes loading at the timeout', async () => {
      const started = Date.now();
      await expect(strict.render(`${site.origin}/hang`, { allowRequest: allowSite })).rejects.toMatchObject({
        code: 'render_timeout',
        // The navigation timeout cut it, not the hard timeout of the whole render.
        message: expect.stringContaining('page did not finish loading'),
      });
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('abandons a page whose script never yields at the hard timeout, and keeps working', async () => {
      const started = Date.now();
      await expect(strict.render(`${site.origin}/spin`, { allowRequest: allowSite })).rejects.toMatchObject({
        code: 'render_timeout',
      });
      expect(Date.now() - started).toBeLessThan(12_000);
      // The pool still renders. On a loaded machine the first page after a killed renderer may
      // itself run past the strict 5 s bound (a retryable error), or its script's fetch may land
      // after the strict 500 ms settle (the page as served): it gets two more tries.
      let html = '';
      for (let attempt = 0; attempt < 3 && !html.includes('Quarry renders scripted pages'); attempt++) {
        const next = await strict.render(`${site.origin}/app`, { allowRequest: allowSite }).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== 'render_timeout' || attempt === 2) throw error;
          return undefined;
        });
        html = next?.html ?? '';
      }
      expect(html).toContain('Quarry renders scripted pages');
    }, 60_000);
  });

  it('relaunches Chromium after it dies, though Playwright has not noticed yet', async () => {
    const before = chromiumDescendants();
    expect(before.length).toBeGreaterThan(0);
    for (const { pid } of before) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone with its parent
      }
    }
    // At once: Playwright may not have seen the browser go yet (under load it had not, 300 ms later).
    const result = await pool.render(`${site.origin}/app`, { allowRequest: allowSite });
    expect(result.html).toContain('Quarry renders scripted pages');
  });

  it('closes Chromium after idleCloseMs without a render, and launches it again for the next', async () => {
    const idle = await BrowserPool.launch({ executablePath: executablePath ?? '', idleCloseMs: 300 });
    try {
      await idle.render(`${site.origin}/app`, { allowRequest: allowSite });
      expect(idle.browserRunning).toBe(true);
      const deadline = Date.now() + 10_000;
      while (idle.browserRunning && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idle.browserRunning).toBe(false);
      const again = await idle.render(`${site.origin}/app`, { allowRequest: allowSite });
      expect(again.html).toContain('Quarry renders scripted pages');
      expect(idle.browserRunning).toBe(true);
    } finally {
      await idle.close();
    }
  });

  it('leaves no Chromium process or profile directory after close', async () => {
    const own = await BrowserPool.launch({ executablePath: executablePath ?? '' });
    await own.render(`${site.origin}/app`, { allowRequest: allowSite });
    const running = chromiumDescendants();
    const profiles = new Set(
      running.flatMap(({ args }) => [...args.matchAll(/--user-data-dir=(\S+)/g)].map((m) => m[1] ?? '')),
    );
    expect(profiles.size).toBeGreaterThan(0);
    await pool.close();
    await own.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(chromiumDescendants()).toEqual([]);
    for (const dir of profiles) expect(existsSync(dir)).toBe(false);
    await expect(pool.render(`${site.origin}/app`, { allowRequest: allowSite })).rejects.toMatchObject({
      code: 'render_unavailable',
    });
  });
});
