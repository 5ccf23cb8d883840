import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NonRetryableError, type QuarryError, RetryableError } from '@quarry/core';
import { decodeHtml } from './decode.js';
import { createFetcher, type Fetcher } from './fetcher.js';

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<QuarryError> {
  try {
    await promise;
  } catch (error) {
    return error as QuarryError;
  }
  throw new Error('expected a rejection');
}

function listen(server: Server | NetServer, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/** A raw TCP server for answers node:http would refuse to produce; `onSocket` scripts the reply. */
async function rawServer(onSocket: (socket: Socket) => void, host = '127.0.0.1') {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  const port = await listen(server, host);
  return {
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const BOMB_BYTES = 50 * 1024 * 1024;
const LIMIT_BYTES = 256 * 1024;
const bomb = zlib.gzipSync(Buffer.alloc(BOMB_BYTES));
const gbkPage = Buffer.from([0x3c, 0x70, 0x3e, 0xd6, 0xd0, 0xce, 0xc4, 0x3c, 0x2f, 0x70, 0x3e]); // <p>中文</p>

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/page': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; Charset="GBK"', 'x-ua': req.headers['user-agent'] ?? '' });
    res.end(gbkPage);
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(zlib.gzipSync('hello gzip'));
  },
  '/deflate-raw': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' });
    res.end(zlib.deflateRawSync('hello raw deflate'));
  },
  '/deflate': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' });
    res.end(zlib.deflateSync('hello zlib deflate'));
  },
  '/br': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
    res.end(zlib.brotliCompressSync('hello brotli'));
  },
  '/bomb': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(bomb);
  },
  '/endless': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk)) {}
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  },
  '/huge-declared': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(1024 * 1024 * 1024) });
    res.write('<p>start</p>');
  },
  '/utf16': (_req, res) => {
    // UTF-16 declared in the header, without a byte order mark: half its bytes are NUL.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-16le' });
    res.end(Buffer.from('<html><title>Wide</title><p>hello there</p></html>', 'utf16le'));
  },
  '/binary': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  },
  '/loop-a': (_req, res) => {
    res.writeHead(302, { location: '/loop-b' });
    res.end();
  },
  '/loop-b': (_req, res) => {
    res.writeHead(301, { location: '/loop-a' });
    res.end();
  },
  // Announces 10,000 bytes, sends 100 and hangs up.
  '/cut-short': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': '10000' });
    res.write('<p>'.padEnd(100, 'x'));
    setTimeout(() => res.socket?.destroy(), 20);
  },
  // 2,000 headers: past undici's 16 KiB for a response head.
  '/many-headers': (_req, res) => {
    for (let i = 0; i < 2000; i++) res.setHeader(`x-filler-${i}`, 'padding');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>unreachable</p>');
  },
  '/etag': (req, res) => {
    if (
      req.headers['if-none-match'] === '"v1"' ||
      req.headers['if-modified-since'] === 'Sun, 22 Nov 2026 08:00:00 GMT'
    ) {
      res.writeHead(304, { etag: '"v1"' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html', etag: '"v1"', 'last-modified': 'Sun, 22 Nov 2026 08:00:00 GMT' });
    res.end('<p>fresh</p>');
  },
};

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const n = Number(chain[1]);
    res.writeHead(n > 0 ? 302 : 200, n > 0 ? { location: `/chain/${n - 1}` } : { 'content-type': 'text/plain' });
    return void res.end(n > 0 ? '' : 'end of chain');
  }
  const status = /^\/status\/(\d+)$/.exec(url.pathname);
  if (status) {
    const headers: Record<string, string> = { 'content-type': 'text/plain' };
    const retryAfter = url.searchParams.get('retry-after');
    if (retryAfter) headers['retry-after'] = retryAfter;
    res.writeHead(Number(status[1]), headers);
    return void res.end(`status ${status[1]}`);
  }
  if (url.pathname === '/redirect') {
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
    return void res.end();
  }
  const route = routes[url.pathname];
  if (route) {
    route(req, res);
    return;
  }
  res.writeHead(404);
  res.end();
}

describe('fetcher against hostile local servers', () => {
  const server = createServer(handle);
  let base = '';
  let fetcher: Fetcher;
  const raws: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    base = `http://127.0.0.1:${await listen(server)}`;
    fetcher = createFetcher({
      allowHosts: ['127.0.0.1'],
      userAgent: 'QuarryTestBot/1.0 (+https://example.invalid/bot)',
      connectTimeoutMs: 1000,
      headersTimeoutMs: 400,
      bodyTimeoutMs: 1500,
      totalTimeoutMs: 1200,
      maxBodyBytes: LIMIT_BYTES,
      maxRedirects: 5,
    });
  });

  afterAll(async () => {
    await fetcher.close();
    await Promise.all(raws.map((raw) => raw.close()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a page with its headers, MIME type, charset and user agent', async () => {
    const result = await fetcher.fetch(`${base}/page#fragment`);
    expect(result).toMatchObject({
      url: `${base}/page#fragment`,
      finalUrl: `${base}/page`,
      status: 200,
      contentType: 'text/html',
      charset: 'gbk',
      redirects: [],
      notModified: false,
      truncated: false,
    });
    expect(result.body.equals(gbkPage)).toBe(true);
    expect(result.headers['x-ua']).toBe('QuarryTestBot/1.0 (+https://example.invalid/bot)');
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['/gzip', 'hello gzip'],
    ['/deflate-raw', 'hello raw deflate'],
    ['/deflate', 'hello zlib deflate'],
    ['/br', 'hello brotli'],
  ])('decodes %s itself', async (path, text) => {
    expect((await fetcher.fetch(`${base}${path}`)).body.toString()).toBe(text);
  });

  it('cuts off a server that never sends headers', async () => {
    const silent = await rawServer(() => {});
    raws.push(silent);
    const error = await rejection(fetcher.fetch(`http://127.0.0.1:${silent.port}/`));
    expect(error).toBeInstanceOf(RetryableError);
    expect(error.code).toBe('headers_timeout');
  });

  it('cuts off a server that drips its body, at the total deadline', async () => {
    const drip = await rawServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n');
        const timer = setInterval(() => socket.write('1\r\na\r\n'), 100);
        socket.on('close', () => clearInterval(timer));
      });
    });
    raws.push(drip);
    const started = Date.now();
    const error = await rejection(fetcher.fetch(`http://127.0.0.1:${drip.port}/`));
    expect(error.code).toBe('total_timeout');
    expect(error).toBeInstanceOf(RetryableError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('follows redirects and records them', async () => {
    const result = await fetcher.fetch(`${base}/chain/3`);
    expect(result.finalUrl).toBe(`${base}/chain/0`);
    expect(result.redirects).toEqual([`${base}/chain/3`, `${base}/chain/2`, `${base}/chain/1`]);
    expect(result.body.toString()).toBe('end of chain');
  });

  it('asks beforeRedirect about each target, and ends the fetch with what it throws', async () => {
    const asked: string[] = [];
    const result = await fetcher.fetch(`${base}/chain/2`, { beforeRedirect: (target) => void asked.push(target) });
    expect(asked).toEqual([`${base}/chain/1`, `${base}/chain/0`]);
    expect(result.finalUrl).toBe(`${base}/chain/0`);
    const refused = new NonRetryableError('robots.txt disallows it', 'robots_disallowed');
    const stopped = await rejection(
      fetcher.fetch(`${base}/chain/2`, {
        beforeRedirect: (target) => {
          if (target.endsWith('/chain/0')) throw refused;
        },
      }),
    );
    expect(stopped).toBe(refused);
  });

  it("counts beforeRedirect's time against the deadline, ending the fetch at it and aborting the hook's signal", async () => {
    // A hook that would take 3 s (a redirect target's slow robots.txt), past the 1.2 s deadline.
    let hookSignal: AbortSignal | undefined;
    const started = Date.now();
    const error = await rejection(
      fetcher.fetch(`${base}/chain/2`, {
        beforeRedirect: async (_target, signal) => {
          hookSignal = signal;
          await sleep(3000, undefined, { signal });
        },
      }),
    );
    expect(error).toBeInstanceOf(RetryableError);
    expect(error.code).toBe('total_timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(hookSignal?.aborted).toBe(true);
    // The caller's abort ends it as well, as `aborted`.
    const controller = new AbortController();
    const pending = fetcher.fetch(`${base}/chain/2`, {
      signal: controller.signal,
      beforeRedirect: () => {
        controller.abort();
        return new Promise<void>(() => {});
      },
    });
    expect((await rejection(pending)).code).toBe('aborted');
  });

  it('reports a body cut short of its Content-Length as truncated_body, retried', async () => {
    const error = await rejection(fetcher.fetch(`${base}/cut-short`));
    expect(error).toBeInstanceOf(RetryableError);
    expect(error.code).toBe('truncated_body');
  });

  it('refuses a response head over the size limit as a bad response, not retried', async () => {
    const error = await rejection(fetcher.fetch(`${base}/many-headers`));
    expect(error).toBeInstanceOf(NonRetryableError);
    expect(error.code).toBe('bad_response');
  });

  it('reports a redirect loop distinctly from too many redirects', async () => {
    const loop = await rejection(fetcher.fetch(`${base}/loop-a`));
    expect(loop).toBeInstanceOf(NonRetryableError);
    expect(loop.code).toBe('redirect_loop');
    const tooMany = await rejection(fetcher.fetch(`${base}/chain/6`));
    expect(tooMany.code).toBe('too_many_redirects');
    await expect(fetcher.fetch(`${base}/chain/5`)).resolves.toMatchObject({ status: 200 });
  });

  it('refuses a redirect to a private address before connecting to it', async () => {
    // A real listener on 127.0.0.2 (not in allowHosts) proves no connection is ever made.
    const other = await rawServer(
      (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
      '127.0.0.2',
    );
    raws.push(other);
    for (const to of [
      `http://127.0.0.2:${other.port}/`,
      'http://10.0.0.1/',
      'http://[::ffff:10.0.0.1]/',
      'http://0x7f.0.0.2/',
    ]) {
      const error = await rejection(fetcher.fetch(`${base}/redirect?to=${encodeURIComponent(to)}`));
      expect([to, error.code]).toEqual([to, 'blocked_address']);
    }
    const scheme = await rejection(fetcher.fetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`));
    expect(scheme.code).toBe('unsupported_scheme');
    expect(other.connections()).toBe(0);
  });

  it('checks a host name on the addresses it resolves to, at connect time', async () => {
    const port = new URL(base).port;
    // localhost resolves to 127.0.0.1 (allowed by address) and maybe ::1 (refused, filtered out).
    await expect(fetcher.fetch(`http://localhost:${port}/page`)).resolves.toMatchObject({ status: 200 });
    const strict = createFetcher({ allowHosts: ['127.0.0.2'] });
    try {
      expect((await rejection(strict.fetch(`http://localhost:${port}/page`))).code).toBe('blocked_address');
    } finally {
      await strict.close();
    }
  });

  it('cuts an endless body at maxBodyBytes, or truncates it when asked', async () => {
    const error = await rejection(fetcher.fetch(`${base}/endless`));
    expect(error).toBeInstanceOf(NonRetryableError);
    expect(error.code).toBe('too_large');
    const cut = await fetcher.fetch(`${base}/endless`, { truncateBody: true, maxBodyBytes: 1000 });
    expect(cut.truncated).toBe(true);
    expect(cut.body.length).toBe(1000);
    // Or only for the types a predicate accepts, given the Content-Type's MIME type.
    const seen: string[] = [];
    const onlyHtml = (mime: string) => {
      seen.push(mime);
      return mime === 'text/html';
    };
    const head = await fetcher.fetch(`${base}/endless`, { truncateBody: onlyHtml, maxBodyBytes: 1000 });
    expect(head.body.length).toBe(1000);
    expect(seen).toEqual(['text/html']);
    const refused = await rejection(
      fetcher.fetch(`${base}/endless`, { truncateBody: () => false, maxBodyBytes: 1000 }),
    );
    expect(refused.code).toBe('too_large');
  });

  it('stops a gzip bomb once the decompressed size passes the limit', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const error = await rejection(fetcher.fetch(`${base}/bomb`));
    expect(error.code).toBe('too_large');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(BOMB_BYTES / 2);
  });

  it('refuses a declared Content-Length over the limit without reading it', async () => {
    const error = await rejection(fetcher.fetch(`${base}/huge-declared`));
    expect(error.code).toBe('too_large');
  });

  it('fails a body shorter than its Content-Length instead of returning it as complete', async () => {
    const liar = await rawServer((socket) => {
      socket.once('data', () => {
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<p>only this</p>');
      });
    });
    raws.push(liar);
    const error = await rejection(fetcher.fetch(`http://127.0.0.1:${liar.port}/`));
    expect(error).toBeInstanceOf(RetryableError);
    expect(['truncated_body', 'connection_reset']).toContain(error.code);
  });

  it.each([
    ['garbage instead of a status line', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nContent-Type text/html\r\n\r\nhi'],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'],
  ])('fails cleanly on %s', async (_what, reply) => {
    const broken = await rawServer((socket) => socket.once('data', () => socket.end(reply)));
    raws.push(broken);
    const error = await rejection(fetcher.fetch(`http://127.0.0.1:${broken.port}/`));
    expect(error).toBeInstanceOf(NonRetryableError);
    expect(error.code).toBe('bad_response');
  });

  it('reads a page the Content-Type declares UTF-16, without a byte order mark, as text', async () => {
    const page = await fetcher.fetch(`${base}/utf16`);
    expect(page.charset).toBe('utf-16le');
    expect(decodeHtml(page.body, { contentType: page.headers['content-type'] }).text).toContain('<p>hello there</p>');
  });

  it('rejects binary served as text/html', async () => {
    const error = await rejection(fetcher.fetch(`${base}/binary`));
    expect(error.code).toBe('binary_content');
    const raw = await fetcher.fetch(`${base}/binary`, { rejectBinaryText: false });
    expect(raw.body[0]).toBe(0x89);
  });

  it.each([
    [404, NonRetryableError],
    [410, NonRetryableError],
    [500, RetryableError],
  ])('maps HTTP %i to an error with a stable code', async (status, kind) => {
    const error = await rejection(fetcher.fetch(`${base}/status/${status}`));
    expect(error).toBeInstanceOf(kind);
    expect(error.code).toBe(`http_${status}`);
  });

  it('carries Retry-After on 503 and 429', async () => {
    const unavailable = await rejection(fetcher.fetch(`${base}/status/503?retry-after=120`));
    expect(unavailable).toBeInstanceOf(RetryableError);
    expect((unavailable as RetryableError).retryAfterSecs).toBe(120);
    const limited = await rejection(fetcher.fetch(`${base}/status/429?retry-after=7`));
    expect(limited.code).toBe('http_429');
    expect((limited as RetryableError).retryAfterSecs).toBe(7);
  });

  it('returns error statuses when asked to', async () => {
    const result = await fetcher.fetch(`${base}/status/404`, { throwOnHttpError: false });
    expect(result.status).toBe(404);
    expect(result.body.toString()).toBe('status 404');
  });

  it('makes conditional requests and reports 304 as not modified', async () => {
    const fresh = await fetcher.fetch(`${base}/etag`);
    expect(fresh.notModified).toBe(false);
    const byEtag = await fetcher.fetch(`${base}/etag`, { etag: fresh.headers.etag });
    expect(byEtag).toMatchObject({ status: 304, notModified: true });
    expect(byEtag.body.length).toBe(0);
    const byDate = await fetcher.fetch(`${base}/etag`, { lastModified: fresh.headers['last-modified'] });
    expect(byDate.notModified).toBe(true);
  });

  it('reports a refused connection as retryable', async () => {
    const closed = await rawServer(() => {});
    await closed.close();
    const error = await rejection(fetcher.fetch(`http://127.0.0.1:${closed.port}/`));
    expect(error).toBeInstanceOf(RetryableError);
    expect(error.code).toBe('connection_refused');
  });

  it('honours the caller abort signal', async () => {
    const controller = new AbortController();
    const pending = fetcher.fetch(`${base}/endless`, { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).code).toBe('aborted');
  });
});
