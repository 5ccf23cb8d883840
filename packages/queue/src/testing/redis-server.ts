// Test support: a throwaway redis-server on a free local port. Not part of the public API.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the tests expect the Redis server binary. */
export const REDIS_SERVER_PATH = '/usr/bin/redis-server';

/**
 * Whether Redis suites run: true when the binary exists. When it is missing, the suite is skipped
 * with a message, unless QUARRY_REQUIRE_SERVERS names redis, in which case this throws (CI).
 */
export function redisAvailable(): boolean {
  if (existsSync(REDIS_SERVER_PATH)) return true;
  const required = (process.env.QUARRY_REQUIRE_SERVERS ?? '').split(',').map((s) => s.trim().toLowerCase());
  if (required.includes('redis')) {
    throw new Error(`QUARRY_REQUIRE_SERVERS names redis but ${REDIS_SERVER_PATH} is missing`);
  }
  console.warn(`skipping Redis queue tests: ${REDIS_SERVER_PATH} not found`);
  return false;
}

/** A running test Redis. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts redis-server on a free 127.0.0.1 port, without persistence, in a temporary directory. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'quarry-redis-'));
  const proc = spawn(
    REDIS_SERVER_PATH,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForReady(proc);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
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

function waitForReady(proc: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    proc.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
}
