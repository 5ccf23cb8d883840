import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

/** Executable names tried, in order, when no explicit path is given. */
const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

/**
 * Directories searched for {@link CHROMIUM_NAMES}: the usual PATH of a Linux system or container
 * (product code never reads the environment; `CHROMIUM_PATH` in the config overrides this).
 */
export const DEFAULT_CHROMIUM_DIRS: readonly string[] = Object.freeze([
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
  '/snap/bin',
  '/opt/google/chrome',
]);

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium to drive: `explicitPath` when given (null if it is not an executable file), else
 * the first `chromium`, `chromium-browser` or `google-chrome` found in `searchDirs`.
 *
 * @example const path = findChromium(config.chromiumPath); // '/usr/bin/chromium' on Debian
 */
export function findChromium(
  explicitPath?: string,
  searchDirs: readonly string[] = DEFAULT_CHROMIUM_DIRS,
): string | null {
  if (explicitPath !== undefined && explicitPath !== '') return isExecutableFile(explicitPath) ? explicitPath : null;
  for (const name of CHROMIUM_NAMES) {
    for (const dir of searchDirs) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}
