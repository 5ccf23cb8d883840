import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** Whether CI (QUARRY_REQUIRE_SERVERS) requires this server, making its absence a failure. */
export function isServerRequired(name: ServerName): boolean {
  return (process.env.QUARRY_REQUIRE_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes(name);
}

/**
 * `describe` for a suite that needs a server: runs it when the server's binary is present; else
 * skips it with a message, or, when QUARRY_REQUIRE_SERVERS names the server, fails.
 */
export function describeWithServer(name: ServerName, title: string, body: () => void): void {
  // Jest's injected globals, so that this module also loads outside Jest (benchmarks use startRedis).
  if (findServerBinary(name)) {
    describe(title, body);
  } else if (isServerRequired(name)) {
    describe(title, () => {
      it(`needs ${name} (required by QUARRY_REQUIRE_SERVERS)`, () => {
        throw new Error(`${name} is not installed, and QUARRY_REQUIRE_SERVERS requires it`);
      });
    });
  } else {
    console.warn(`skipping "${title}": ${name} is not installed`);
    describe.skip(title, body);
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

/** A real redis-server on a free loopback port, in its own temp dir. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, so append-only files are flushed) and removes its dir unless kept. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Stops and starts again on the same port and data dir (persistence decides what survives). */
  restart(): Promise<void>;
}

/** Starts redis-server; `appendOnly` turns persistence on (for restart tests). */
export async function startRedis(options: { appendOnly?: boolean } = {}): Promise<RedisServer> {
  const bin = findServerBinary('redis');
  if (!bin) throw new Error('redis-server is not installed');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'quarry-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
    '--appendfsync',
    'always',
  ];
  let child: ChildProcess = await launch(bin, args, port);
  const stopChild = async (): Promise<void> => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(stopOptions = {}) {
      await stopChild();
      if (!stopOptions.keepData) rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await stopChild();
      child = await launch(bin, args, port);
    },
  };
}

async function launch(bin: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${port}: ${output}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}
