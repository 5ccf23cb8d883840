import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../../..');
/** The built `quarry` command the black-box tests run. */
export const BIN = join(ROOT, 'packages/cli/bin/quarry.js');

/** Throws unless the CLI was built (the integration tests run the real command, not the sources). */
export function requireBuiltCli(): void {
  if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) throw new Error('run `npm run build` first');
}

/** How one run of the CLI ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run the CLI. */
export interface RunCliOptions {
  /** Kill the run after this long. @defaultValue 100,000 */
  readonly timeoutMs?: number;
  /** Run as this user and group (without supplementary groups); needs root, see {@link NOBODY}. */
  readonly as?: { readonly uid: number; readonly gid: number };
}

/** The unprivileged user and group (`nobody`, `nogroup`) for permission tests run by root. */
export const NOBODY = { uid: 65534, gid: 65534 } as const;

/** Whether this process may run commands as another user (`RunCliOptions.as`): only root may. */
export function canSwitchUser(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Runs `quarry ARGS` with exactly `env` (plus PATH) and resolves when it exits. A run still going
 * after `timeoutMs` is killed (code null, a note at the end of stderr), so that a hung command fails
 * its test with what it printed rather than with the test's own timeout.
 */
export function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  { timeoutMs = 100_000, as }: RunCliOptions = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      ...(as ? { uid: as.uid, gid: as.gid } : {}),
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += `\n(runCli: killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A `quarry` process left running (`serve`, `start`, a worker); its output is collected. */
export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** What it printed to stderr so far. */
  readonly stderr: string;
  /** What it printed to stdout so far (its JSON log lines). */
  readonly stdout: string;
  /**
   * Resolves with the first match of `pattern` in stderr; rejects, with the stderr, when the process
   * exits first or nothing matches within `timeoutMs` (start-up takes seconds on a busy CI machine).
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /**
   * The API's base URL from this machine, read from the start-up announcement. Run it with
   * `PORT=0`: a port picked beforehand may be taken, by another test's server or outgoing
   * connection, before the process binds it.
   */
  listening(timeoutMs?: number): Promise<string>;
  /** SIGTERM, resolving with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `quarry ARGS` with exactly `env` (plus PATH), without waiting for anything. */
export function spawnCli(args: readonly string[], env: Readonly<Record<string, string>>): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  let stderr = '';
  let stdout = '';
  let exitCode: number | null | undefined;
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const waitFor = async (pattern: RegExp, timeoutMs = 150_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = pattern.exec(stderr);
      if (m) return m;
      if (exitCode !== undefined)
        throw new Error(`quarry ${args[0]} exited (${exitCode}) before ${pattern}:\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} from quarry ${args[0]} in ${timeoutMs} ms:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    child,
    get stderr() {
      return stderr;
    },
    get stdout() {
      return stdout;
    },
    waitFor,
    async listening(timeoutMs) {
      const [, url] = await waitFor(/^ {2}search: +(http:\/\/\S+)\/api\/v1\/search\?q=/m, timeoutMs);
      return url as string;
    },
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
