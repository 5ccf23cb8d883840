import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

/** Servers an integration suite may need; CI lists the ones it provides in QUARRY_REQUIRE_SERVERS. */
export type ServerName = 'redis' | 'chromium';

const BINARIES: Record<ServerName, string[]> = {
  redis: ['redis-server'],
  chromium: ['chromium', 'chromium-browser', 'google-chrome'],
};

/** The first binary of a server found on PATH, or null. */
export function findServerBinary(name: ServerName): string | null {
  for (const bin of BINARIES[name]) {
    try {
      return execFileSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not on PATH: try the next name
    }
  }
  return null;
}

/**
 * Whether CI (QUARRY_REQUIRE_SERVERS, a comma list such as `redis,chromium`) requires this
 * server, making its absence a failure. Any name works, e.g. `meilisearch` for a server found by URL.
 */
export function isServerRequired(name: string): boolean {
  return (process.env.QUARRY_REQUIRE_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .includes(name.toLowerCase());
}

/** What a suite needs from its environment, and whether it is there. */
export interface ServerNeed {
  /** The name QUARRY_REQUIRE_SERVERS uses for it (`redis`, `chromium`, `meilisearch`). */
  readonly name: string;
  readonly available: boolean;
  /** Why it is missing, for the skip message and the failure (e.g. "MEILI_URL is not set"). */
  readonly missing: string;
}

/** What to do with a suite or test given its need: run it, skip it, or fail because CI requires it. */
export function verdictFor(need: ServerNeed): 'run' | 'skip' | 'fail' {
  if (need.available) return 'run';
  return isServerRequired(need.name) ? 'fail' : 'skip';
}

/**
 * `describe` for a suite whose need is not a binary on PATH (a server found by URL, say): runs it
 * when available; else skips it with a message, or, when QUARRY_REQUIRE_SERVERS names it, fails.
 * A skipped suite keeps its real body, so the skip report shows every test it did not run.
 */
export function describeIfAvailable(need: ServerNeed, title: string, body: () => void): void {
  // Jest's injected globals, so that this module also loads outside Jest (benchmarks use startRedis).
  switch (verdictFor(need)) {
    case 'run':
      describe(title, body);
      break;
    case 'fail':
      describe(title, () => {
        it(`needs ${need.name} (required by QUARRY_REQUIRE_SERVERS)`, () => {
          throw new Error(`${need.missing}, and QUARRY_REQUIRE_SERVERS requires ${need.name}`);
        });
      });
      break;
    case 'skip':
      console.warn(`skipping "${title}": ${need.missing}`);
      describe.skip(title, body);
  }
}

function binaryNeed(name: ServerName): ServerNeed {
  return {
    name,
    available: findServerBinary(name) !== null,
    missing: `${BINARIES[name].join(' / ')} not found on PATH`,
  };
}

/**
 * `describe` for a suite that needs a server: runs it when the server's binary is on PATH; else
 * skips it with a message, or, when QUARRY_REQUIRE_SERVERS names the server, fails.
 *
 * @example describeWithServer('redis', 'RedisKeyStore', () => { ... startRedis() in beforeAll ... });
 */
export function describeWithServer(name: ServerName, title: string, body: () => void): void {
  describeIfAvailable(binaryNeed(name), title, body);
}

/**
 * `it` for one test that needs a second server inside a suite gated on another (a Redis test in a
 * Chromium suite): the same run, skip-with-a-message or fail rule as {@link describeWithServer}.
 */
export function itWithServer(name: ServerName, title: string, fn: () => Promise<unknown>, timeoutMs?: number): void {
  const need = binaryNeed(name);
  switch (verdictFor(need)) {
    case 'run':
      it(title, fn, timeoutMs);
      break;
    case 'fail':
      it(title, () => {
        throw new Error(`${need.missing}, and QUARRY_REQUIRE_SERVERS requires ${name}`);
      });
      break;
    case 'skip':
      console.warn(`skipping "${title}": ${need.missing}`);
      it.skip(title, fn, timeoutMs);
  }
}

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
