import type { LookupFunction } from 'node:net';
import { NonRetryableError, RetryableError } from '@quarry/core';
import type { Browser, BrowserContext, BrowserContextOptions, Route, WebSocketRoute } from 'playwright-core';
import { startPolicyProxy } from './policy-proxy.js';
import { Slots } from './slots.js';

/** How a {@link BrowserPool} launches Chromium and bounds each render. */
export interface BrowserPoolOptions {
  /** Chromium executable (see `findChromium`). */
  executablePath: string;
  /**
   * Pages rendered at once; further renders wait in a FIFO queue.
   * @defaultValue 2
   */
  maxPages?: number;
  /**
   * Limit for the page's `load` event.
   * @defaultValue 15_000
   */
  navigationTimeoutMs?: number;
  /**
   * After `load`, how long to wait at most for the network to go quiet (scripts fetching content),
   * then for the document to stop changing (scripts adding it on a short timer).
   * @defaultValue 3_000
   */
  settleTimeoutMs?: number;
  /**
   * Hard limit for one render, from getting a page to having its HTML; the page is torn down
   * when it passes.
   * @defaultValue navigationTimeoutMs + settleTimeoutMs + 5_000
   */
  renderTimeoutMs?: number;
  /**
   * Longest HTML returned, in UTF-8 bytes; longer documents are cut.
   * @defaultValue 5 MiB
   */
  maxHtmlBytes?: number;
  /**
   * Chromium is closed after this long without a render, and launched again by the next one: a
   * crawl that renders a page now and then does not keep a browser's few hundred MB for good.
   * @defaultValue 60_000
   */
  idleCloseMs?: number;
  /**
   * Requests one page may make; later ones are blocked.
   * @defaultValue 300
   */
  maxRequestsPerPage?: number;
  /**
   * User-Agent sent by the browser.
   * @defaultValue 'Mozilla/5.0 (compatible; QuarryBot/0.1)'
   */
  userAgent?: string;
}

/** Per-render options. */
export interface RenderOptions {
  /**
   * The crawler's request policy (SSRF guard, scope). Asked for the page itself and every
   * subresource, redirect hop and WebSocket; anything it refuses (or throws on) is blocked.
   */
  allowRequest: (url: string) => Promise<boolean>;
  /**
   * Resolves the names the browser's requests go to when connecting, refusing addresses the
   * crawler may not reach (the fetcher's guarded lookup): `allowRequest` resolved the name once, and a
   * second answer (DNS rebinding) must not reach a private address.
   * @defaultValue the system resolver
   */
  lookup?: LookupFunction;
}

/**
 * The rendered document as HTML with its open shadow roots written as declarative shadow DOM
 * (`<template shadowrootmode="open">`, Chromium's `getHTML`), nested ones included: `page.content()`
 * serializes the light DOM only, and a page built of web components (Lit, Stencil, Salesforce's)
 * keeps its text in their shadow trees. The extractor flattens them back (shadow-roots.ts in
 * @quarry/extract). Null, for `page.content()`, when the page has no shadow root or the browser no
 * `getHTML`. Run in the page, as source text: this package is compiled without the DOM's types.
 */
const SERIALIZE_WITH_SHADOW_ROOTS = `(() => {
  const root = document.documentElement;
  if (!root || typeof root.getHTML !== 'function') return null;
  const shadowRoots = [];
  const visit = (scope) => {
    for (const el of scope.querySelectorAll('*')) {
      if (el.shadowRoot) {
        shadowRoots.push(el.shadowRoot);
        visit(el.shadowRoot);
      }
    }
  };
  visit(document);
  if (shadowRoots.length === 0) return null;
  const quote = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const attributes = Array.from(root.attributes, (a) => ' ' + a.name + '="' + quote(a.value) + '"').join('');
  const doctype = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : '';
  return doctype + '<html' + attributes + '>' + root.getHTML({ shadowRoots }) + '</html>';
})()`;

/** A rendered page: the DOM serialized after scripts ran, where it ended up, and its HTTP status. */
export interface RenderResult {
  html: string;
  finalUrl: string;
  status: number | null;
}

const DEFAULTS = {
  maxPages: 2,
  navigationTimeoutMs: 15_000,
  settleTimeoutMs: 3_000,
  maxHtmlBytes: 5 * 1024 * 1024,
  maxRequestsPerPage: 300,
  userAgent: 'Mozilla/5.0 (compatible; QuarryBot/0.1)',
  idleCloseMs: 60_000,
} as const;
const RENDER_TIMEOUT_MARGIN_MS = 5_000;

/** Flags for a headless, quiet Chromium that talks to nobody but the pages it is sent to. */
export const CHROMIUM_FLAGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--dns-prefetch-disable',
  // WebRTC's UDP (STUN, TURN) would go around the policy proxy: a page could probe the network's
  // ports through ICE. Chromium reads this name; the `--force-` one it ignored sent 14 packets to
  // refused addresses on one page. An init script also takes RTCPeerConnection away (see render).
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
]);

/**
 * Run before a page's own scripts: a text crawler needs no peer connections, and without the
 * constructors a page opens none, whatever the flags do in a later Chromium.
 */
const NO_PEER_CONNECTIONS = `for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
  try { Object.defineProperty(window, name, { value: undefined, configurable: false, writable: false }); } catch {}
}`;

/** Timers due within this long of being set are waited for after the network goes quiet. */
const TIMER_HORIZON_MS = 2_000;
/** The DOM counts as settled after this long without a change (and without a pending short timer). */
const DOM_QUIET_MS = 300;

/**
 * Run before a page's own scripts: counts the page's pending `setTimeout`s due within
 * TIMER_HORIZON_MS, so that content a script adds on a timer (a deferred render, a fade-in) is
 * waited for, though no request announces it. Intervals and longer timers (polls, idle logouts)
 * are not counted. The count and the original `setTimeout` are kept where only the render reads them.
 */
const TRACK_SHORT_TIMERS = `(() => {
  const pending = new Set();
  const set = window.setTimeout.bind(window);
  const clear = window.clearTimeout.bind(window);
  window.setTimeout = function (handler, ms, ...args) {
    if (typeof handler !== 'function' || !(Number(ms ?? 0) <= ${TIMER_HORIZON_MS})) return set(handler, ms, ...args);
    const id = set(function (...given) {
      pending.delete(id);
      return handler.apply(this, given);
    }, ms, ...args);
    pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) {
    pending.delete(id);
    return clear(id);
  };
  Object.defineProperty(window, '__quarryTimers', { value: Object.freeze({ pending: () => pending.size, set }) });
})()`;

/**
 * Resolves once the document has not changed for `quietMs` with no short timer pending (see
 * TRACK_SHORT_TIMERS), or after `capMs`: a page animating text for ever costs the cap, not more.
 * Attribute changes (a carousel's classes) do not count. Run in the page, as source text.
 */
const domSettled = (quietMs: number, capMs: number): string => `new Promise((resolve) => {
  const quietMs = ${quietMs};
  const capMs = ${capMs};
  const timers = window.__quarryTimers;
  const later = timers ? timers.set : window.setTimeout.bind(window);
  const start = performance.now();
  let changed = start;
  const observer = new MutationObserver(() => { changed = performance.now(); });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
  const check = () => {
    const now = performance.now();
    const waiting = timers ? timers.pending() > 0 : false;
    if (now - start >= capMs || (!waiting && now - changed >= quietMs)) {
      observer.disconnect();
      resolve(true);
    } else later(check, 50);
  };
  later(check, Math.min(50, capMs));
})`;

/** Subresources a text crawler never needs; blocking them saves bandwidth and time. */
const BLOCKED_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'image',
  'media',
  'font',
  'stylesheet',
  'texttrack',
  'manifest',
]);

type ResolvedOptions = Required<BrowserPoolOptions>;

/**
 * Renders JavaScript pages on one shared Chromium: a fresh browser context per render (no shared
 * cookies or storage), at most `maxPages` at once, every request checked by the caller's policy,
 * a hard timeout per render, the browser relaunched after a crash, and `close()` leaving no
 * Chromium process or profile directory behind (Playwright's temporary profile is removed with it).
 */
export class BrowserPool {
  readonly #options: ResolvedOptions;
  readonly #slots: Slots;
  #browser: Browser | null = null;
  #launching: Promise<Browser> | null = null;
  #closed = false;
  /** Closes the browser once no render has run for `idleCloseMs` (see {@link BrowserPoolOptions}). */
  #idleTimer: NodeJS.Timeout | undefined;

  private constructor(options: ResolvedOptions) {
    this.#options = options;
    this.#slots = new Slots(options.maxPages);
  }

  /** Launches Chromium and returns a pool ready to render. */
  static async launch(options: BrowserPoolOptions): Promise<BrowserPool> {
    const navigationTimeoutMs = options.navigationTimeoutMs ?? DEFAULTS.navigationTimeoutMs;
    const settleTimeoutMs = options.settleTimeoutMs ?? DEFAULTS.settleTimeoutMs;
    const pool = new BrowserPool({
      executablePath: options.executablePath,
      maxPages: Math.max(1, options.maxPages ?? DEFAULTS.maxPages),
      navigationTimeoutMs,
      settleTimeoutMs,
      renderTimeoutMs: options.renderTimeoutMs ?? navigationTimeoutMs + settleTimeoutMs + RENDER_TIMEOUT_MARGIN_MS,
      maxHtmlBytes: options.maxHtmlBytes ?? DEFAULTS.maxHtmlBytes,
      maxRequestsPerPage: options.maxRequestsPerPage ?? DEFAULTS.maxRequestsPerPage,
      userAgent: options.userAgent ?? DEFAULTS.userAgent,
      idleCloseMs: options.idleCloseMs ?? DEFAULTS.idleCloseMs,
    });
    await pool.#ensureBrowser();
    return pool;
  }

  /** Renders in flight right now (never more than `maxPages`). */
  get pagesInFlight(): number {
    return this.#slots.inUse;
  }

  /** Whether Chromium is running now (it is closed when idle, and launched by the next render). */
  get browserRunning(): boolean {
    return this.#browser?.isConnected() === true;
  }

  /**
   * Loads `url` in a fresh context, lets its scripts run, and returns the resulting HTML.
   * Rejects with `NonRetryableError` (`invalid_url`, `blocked_by_policy`) or `RetryableError`
   * (`render_timeout`, `render_failed`, `render_unavailable`).
   */
  async render(url: string, options: RenderOptions): Promise<RenderResult> {
    if (!isHttpUrl(url)) throw new NonRetryableError(`not an http(s) URL: ${url}`, 'invalid_url');
    if (!(await allowed(options.allowRequest, url))) {
      throw new NonRetryableError(`request policy refuses ${url}`, 'blocked_by_policy');
    }
    clearTimeout(this.#idleTimer);
    await this.#slots.acquire();
    try {
      // Routing sees only first requests; the proxy also sees redirect hops and tunnels.
      const proxy = await startPolicyProxy(
        (target) => allowed(options.allowRequest, target),
        options.lookup ? { lookup: options.lookup } : {},
      );
      const context = await this.#newContext({
        // `<-loopback>` removes Chromium's implicit bypass, so local addresses are checked too.
        proxy: { server: proxy.server, bypass: '<-loopback>' },
        userAgent: this.#options.userAgent,
        serviceWorkers: 'block',
        acceptDownloads: false,
        javaScriptEnabled: true,
      }).catch(async (error: unknown) => {
        await proxy.close();
        if (error instanceof RetryableError) throw error;
        throw new RetryableError('cannot open a browser context', 'render_failed', { cause: error });
      });
      await Promise.all([NO_PEER_CONNECTIONS, TRACK_SHORT_TIMERS].map((script) => context.addInitScript(script))).catch(
        async (error: unknown) => {
          await context.close().catch(() => {});
          await proxy.close();
          throw new RetryableError('cannot open a browser context', 'render_failed', { cause: error });
        },
      );
      let timer: NodeJS.Timeout | undefined;
      const work = this.#renderIn(context, url, options);
      work.catch(() => {}); // may settle after the hard timeout; its outcome no longer matters
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new RetryableError(`render of ${url} took over ${this.#options.renderTimeoutMs} ms`, 'render_timeout'),
            ),
          this.#options.renderTimeoutMs,
        );
      });
      try {
        return await Promise.race([work, deadline]);
      } finally {
        clearTimeout(timer);
        await context.close().catch(() => {});
        await proxy.close();
      }
    } finally {
      this.#slots.release();
      this.#closeWhenIdle();
    }
  }

  /** Closes Chromium once `idleCloseMs` pass with no render in flight or waiting. */
  #closeWhenIdle(): void {
    clearTimeout(this.#idleTimer);
    if (this.#closed || this.#slots.inUse > 0) return;
    this.#idleTimer = setTimeout(() => {
      const browser = this.#browser;
      if (this.#closed || this.#slots.inUse > 0 || browser === null || this.#launching !== null) return;
      this.#browser = null;
      browser.close().catch(() => {});
    }, this.#options.idleCloseMs);
    this.#idleTimer.unref();
  }

  /** Closes Chromium (and its temporary profile); pending and later renders are refused. */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    this.#closed = true;
    this.#slots.rejectWaiting(new RetryableError('browser pool closed', 'render_unavailable'));
    const browser = this.#browser ?? (await this.#launching?.catch(() => null)) ?? null;
    this.#browser = null;
    await browser?.close().catch(() => {});
  }

  async #renderIn(context: BrowserContext, url: string, options: RenderOptions): Promise<RenderResult> {
    let requests = 0;
    await context.route('**/*', async (route: Route) => {
      const request = route.request();
      const target = request.url();
      const permitted =
        !BLOCKED_RESOURCE_TYPES.has(request.resourceType()) &&
        isHttpUrl(target) &&
        ++requests <= this.#options.maxRequestsPerPage &&
        (await allowed(options.allowRequest, target));
      await (permitted ? route.continue() : route.abort('blockedbyclient')).catch(() => {});
    });
    await context.routeWebSocket(/.*/, async (ws: WebSocketRoute) => {
      const httpUrl = ws.url().replace(/^ws/i, 'http');
      if (isHttpUrl(httpUrl) && (await allowed(options.allowRequest, httpUrl))) ws.connectToServer();
      else await ws.close({ code: 1008, reason: 'blocked' }).catch(() => {});
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => {}));
    let status: number | null = null;
    try {
      const response = await page.goto(url, { waitUntil: 'load', timeout: this.#options.navigationTimeoutMs });
      status = response?.status() ?? null;
    } catch (error) {
      throw navigationError(url, error);
    }
    // Script-built pages fetch their content after `load`, or add it on a timer; give them a
    // moment, not forever: the network quiet, then the document (see domSettled), within the budget.
    const settleBy = Date.now() + this.#options.settleTimeoutMs;
    await page.waitForLoadState('networkidle', { timeout: this.#options.settleTimeoutMs }).catch(() => {});
    const capMs = settleBy - Date.now();
    if (capMs > 0) await page.evaluate(domSettled(DOM_QUIET_MS, capMs)).catch(() => {});
    const withShadowRoots = await page.evaluate<string | null>(SERIALIZE_WITH_SHADOW_ROOTS).catch(() => null);
    const html = truncateUtf8(withShadowRoots ?? (await page.content()), this.#options.maxHtmlBytes);
    return { html, finalUrl: page.url(), status };
  }

  /**
   * A fresh context. A browser that died before Playwright noticed (killed, crashed: it still
   * counts as connected for a moment) fails to open one: it is dropped and relaunched, once.
   */
  async #newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    const browser = await this.#ensureBrowser();
    try {
      return await browser.newContext(options);
    } catch (error) {
      if (this.#closed) throw error;
      if (this.#browser === browser) this.#browser = null;
      browser.close().catch(() => {});
      return (await this.#ensureBrowser()).newContext(options);
    }
  }

  async #ensureBrowser(): Promise<Browser> {
    if (this.#closed) throw new RetryableError('browser pool closed', 'render_unavailable');
    if (this.#browser?.isConnected()) return this.#browser;
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = null;
    });
    return this.#launching;
  }

  async #launch(): Promise<Browser> {
    let browser: Browser;
    try {
      // Loaded at the first launch: a crawler process that renders nothing (most crawls, and
      // `quarry crawl` queueing seeds) need not load the driver.
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: this.#options.executablePath,
        headless: true,
        chromiumSandbox: false,
        args: [...CHROMIUM_FLAGS],
      });
    } catch (error) {
      throw new RetryableError(`cannot launch Chromium at ${this.#options.executablePath}`, 'render_unavailable', {
        cause: error,
      });
    }
    if (this.#closed) {
      await browser.close().catch(() => {});
      throw new RetryableError('browser pool closed', 'render_unavailable');
    }
    // A crashed or killed browser is dropped here and relaunched by the next render.
    browser.on('disconnected', () => {
      if (this.#browser === browser) this.#browser = null;
    });
    this.#browser = browser;
    return browser;
  }
}

async function allowed(policy: RenderOptions['allowRequest'], url: string): Promise<boolean> {
  try {
    return (await policy(url)) === true;
  } catch {
    return false;
  }
}

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function navigationError(url: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  // playwright-core's errors.TimeoutError, told by its name (the driver is loaded lazily).
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new RetryableError(`page did not finish loading: ${url}`, 'render_timeout', { cause: error });
  }
  if (message.includes('ERR_BLOCKED_BY_CLIENT')) {
    return new NonRetryableError(`request policy refuses ${url} (or a redirect from it)`, 'blocked_by_policy', error);
  }
  return new RetryableError(`render failed for ${url}: ${message.split('\n')[0]}`, 'render_failed', { cause: error });
}

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const cut = Buffer.from(text).subarray(0, maxBytes).toString('utf8');
  return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}
