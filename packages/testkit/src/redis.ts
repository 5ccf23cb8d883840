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

/** Ports tried before giving up when each is taken before redis-server binds it. */
const BIND_ATTEMPTS = 3;

/** Starts redis-server; `appendOnly` turns persistence on (for restart tests). */
export async function startRedis(
  options: {
    appendOnly?: boolean;
    /** Where free ports come from (this kit's tests hand it a taken one). @defaultValue freePort */
    pickPort?: () => Promise<number>;
  } = {},
): Promise<RedisServer> {
  const bin = findServerBinary('redis');
  if (!bin) throw new Error('redis-server is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-redis-'));
  const argsFor = (port: number) => [
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
  const started = await launchOnFreePort(bin, argsFor, options.pickPort ?? freePort);
  const { port } = started;
  const args = argsFor(port);
  let child = started.child;
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

/**
 * Launches redis-server on a free port. It cannot pick its own: a port found free may be taken (by
 * another test's server or outgoing connection) before it binds, and then another is tried.
 */
async function launchOnFreePort(
  bin: string,
  argsFor: (port: number) => string[],
  pickPort: () => Promise<number>,
): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await pickPort();
    try {
      return { child: await launch(bin, argsFor(port), port), port };
    } catch (error) {
      if (attempt >= BIND_ATTEMPTS || !/Address already in use/i.test(String(error))) throw error;
    }
  }
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
