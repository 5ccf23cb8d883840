import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findServerBinary, freePort } from './servers.js';

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
    // Stopping twice (a test that stops Redis on purpose, then its afterAll) must not wait forever.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
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
