import { spawn } from 'node:child_process';
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
