import { readFile } from 'node:fs/promises';
import { parseSeed, parseSeedsText, type Seed, SeedsError } from '@quarry/crawler';
import { fsProblem, UsageError } from '../usage.js';

/**
 * The seeds of a command line: `--seed` URLs and a `--seeds` file. All or nothing: any bad seed,
 * an unreadable file or a file without seeds is a {@link UsageError} listing every problem (each
 * bad line by number) and saying that nothing was queued.
 */
export async function loadSeeds(
  urls: readonly string[],
  file: string | undefined,
  defaults: Partial<Seed>,
): Promise<Seed[]> {
  const seeds: Seed[] = [];
  const problems: string[] = [];
  for (const url of urls) {
    try {
      seeds.push(parseSeed(url, defaults));
    } catch (error) {
      problems.push(`--seed ${url}: ${(error as Error).message}`);
    }
  }
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`seeds file ${file} ${fsProblem(error) ?? 'cannot be read'}; nothing was queued`);
    }
    try {
      const fromFile = parseSeedsText(text, defaults);
      if (fromFile.length === 0) {
        problems.push(`seeds file ${file} holds no seeds (one URL per line, # starts a comment)`);
      }
      seeds.push(...fromFile);
    } catch (error) {
      if (!(error instanceof SeedsError)) throw error;
      problems.push(...error.problems.map((p) => `${file} ${p}`));
    }
  }
  if (problems.length === 1) throw new UsageError(`${problems[0]}; nothing was queued`);
  if (problems.length > 1) {
    throw new UsageError(`${problems.length} bad seeds; nothing was queued:\n  ${problems.join('\n  ')}`);
  }
  return seeds;
}
