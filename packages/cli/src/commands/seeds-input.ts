import { readFile } from 'node:fs/promises';
import { parseSeed, parseSeedLines, type Seed, SeedsError } from '@quarry/crawler';
import { fsProblem, UsageError } from '../usage.js';

/** A seed and where the command line gave it (`--seed`, or a line of a seeds file), for warnings. */
interface GivenSeed {
  readonly seed: Seed;
  /** The seeds file and its line number; none for `--seed`. */
  readonly from?: { readonly file: string; readonly line: number };
}

/**
 * The seeds of a command line: `--seed` URLs and `--seeds` files, in that order. All or nothing:
 * any bad seed, an unreadable file or a file without seeds is a {@link UsageError} listing every
 * problem (each bad line by file and number) and saying that nothing was queued. A URL given twice
 * is queued once, with its first settings; `warn` is told when a repeat asked for other ones.
 */
export async function loadSeeds(
  urls: readonly string[],
  files: readonly string[],
  defaults: Partial<Seed>,
  warn: (message: string) => void = (message) => process.stderr.write(`quarry: ${message}\n`),
): Promise<Seed[]> {
  const given: GivenSeed[] = [];
  const problems: string[] = [];
  for (const url of urls) {
    try {
      given.push({ seed: parseSeed(url, defaults) });
    } catch (error) {
      problems.push(`--seed ${url}: ${(error as Error).message}`);
    }
  }
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`seeds file ${file} ${fsProblem(error) ?? 'cannot be read'}; nothing was queued`);
    }
    try {
      const fromFile = parseSeedLines(text, defaults);
      if (fromFile.length === 0) {
        problems.push(`seeds file ${file} holds no seeds (one URL per line, # starts a comment)`);
      }
      given.push(...fromFile.map(({ seed, line }) => ({ seed, from: { file, line } })));
    } catch (error) {
      if (!(error instanceof SeedsError)) throw error;
      problems.push(...error.problems.map((p) => `${file} ${p}`));
    }
  }
  if (problems.length === 1) throw new UsageError(`${problems[0]}; nothing was queued`);
  if (problems.length > 1) {
    throw new UsageError(`${problems.length} bad seeds; nothing was queued:\n  ${problems.join('\n  ')}`);
  }
  return firstOfEach(given, warn);
}

const SETTINGS = [
  ['depth', 'maxDepth'],
  ['pages', 'maxPages'],
  ['scope', 'scope'],
  ['render', 'render'],
] as const;

/**
 * Each URL once, as first given: the crawl queue keeps a URL's first task, so a later line's
 * settings would be dropped silently. A repeat with other settings is warned about, naming both.
 */
function firstOfEach(given: readonly GivenSeed[], warn: (message: string) => void): Seed[] {
  const first = new Map<string, GivenSeed>();
  for (const current of given) {
    const earlier = first.get(current.seed.url);
    if (earlier === undefined) {
      first.set(current.seed.url, current);
      continue;
    }
    const differ = SETTINGS.filter(([, key]) => earlier.seed[key] !== current.seed[key]);
    if (differ.length === 0) continue;
    const show = (seed: Seed) => differ.map(([name, key]) => `${name}=${seed[key]}`).join(' ');
    // Both from one file (the usual case): the file is named once, before the line numbers.
    const oneFile = earlier.from !== undefined && earlier.from.file === current.from?.file;
    const where = ({ from }: GivenSeed) =>
      from === undefined ? '--seed' : `${oneFile ? '' : `${from.file} `}line ${from.line}`;
    warn(
      `${oneFile ? `${earlier.from?.file}: ` : ''}${where(current)} repeats ${current.seed.url} of ${where(earlier)} with other ` +
        `settings (${show(current.seed)}, not ${show(earlier.seed)}); the first wins: ${where(earlier)}`,
    );
  }
  return [...first.values()].map(({ seed }) => seed);
}
