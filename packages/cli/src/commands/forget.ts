import { type QuarryConfig, removeSitePages } from '@quarry/core';
import { checkForgetSites, checkSites } from '@quarry/queue';
import { openQueues, openStores } from '../runtime.js';
import { UsageError } from '../usage.js';

// Apart from the crawl commands, as `quarry status` is: it opens the queues and the index only.

/** What `quarry forget` is asked to do besides forgetting. */
export interface ForgetOptions {
  /** Crawl the sites again instead (`--undo`). */
  readonly undo?: boolean;
  /** Only list the forgotten sites (`--list`). */
  readonly list?: boolean;
  /** Leave the sites' indexed pages searchable (`--keep-pages`). */
  readonly keepPages?: boolean;
}

/** `1 page`, `2 pages`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** What crawls the URLs queued: the running workers in distributed mode, else a command of this data dir. */
function crawledBy(config: QuarryConfig): string {
  return config.redisUrl
    ? 'the running `quarry worker`s crawl them'
    : '`quarry start` or `quarry crawl --wait` crawls them';
}

/** The sites, checked; a usage error (exit 2, `main` prefixes `quarry: `) naming the value that names no site. */
function sitesOf(values: readonly string[], options: ForgetOptions): string[] {
  if (options.list) {
    if (values.length > 0) throw new UsageError('--list takes no site');
    return [];
  }
  if (values.length === 0) throw new UsageError('name a site to forget (example.com), or give --list');
  try {
    // A public suffix (`com`) is refused to forget, not to undo: one forgotten before may come back.
    return options.undo ? checkSites(values) : checkForgetSites(values);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * `quarry forget SITE...`: the crawl stops taking the sites' URLs (its queued ones are dropped
 * unfetched, links to the sites are refused), then their pages leave the index and the page store.
 * `--undo` crawls them again, `--list` lists them. Exit 0, or 2 on a usage error and when `--undo`
 * names a site that is not forgotten (likely a typo, as a key id `keys revoke` does not know); the
 * others named are crawled again all the same.
 */
export async function runForget(
  config: QuarryConfig,
  values: readonly string[],
  options: ForgetOptions,
): Promise<number> {
  const sites = sitesOf(values, options);
  const queues = await openQueues(config);
  try {
    if (options.list) {
      const forgotten = await queues.crawl.forgotten();
      process.stdout.write(forgotten.length === 0 ? 'no site is forgotten\n' : `${forgotten.join('\n')}\n`);
      return 0;
    }
    if (options.undo) {
      const before = new Set(await queues.crawl.forgotten());
      const undone = sites.filter((site) => before.has(site));
      const unknown = sites.filter((site) => !before.has(site));
      for (const site of unknown) {
        process.stderr.write(
          `quarry: ${site} was not forgotten: nothing to undo (quarry forget --list lists the forgotten sites)\n`,
        );
      }
      if (undone.length === 0) return 2;
      const queued = await queues.crawl.unforget(sites);
      for (const site of undone) process.stdout.write(`crawling ${site} again\n`);
      process.stdout.write(
        `${count(queued, 'URL')} of theirs queued again, those the forget dropped and those crawled before, fetched whole (${crawledBy(config)}); their pages come back as they are crawled\n`,
      );
      return unknown.length > 0 ? 2 : 0;
    }
    // Recorded with the sites: a removal cut short is taken up again by `quarry start` (see the admin's sites routes).
    const dropped = await queues.crawl.forget(sites, { keepPages: options.keepPages === true });
    process.stdout.write(
      dropped === null
        ? `forgotten: ${sites.join(', ')}; the workers drop their queued URLs without fetching them\n`
        : `forgotten: ${sites.join(', ')}; ${count(dropped, 'queued URL')} dropped without fetching\n`,
    );
    if (options.keepPages) return 0;
    return await removePages(config, sites);
  } finally {
    await queues.close();
  }
}

/** Removes the sites' indexed pages, saying how many (and, on a terminal, how many so far). */
async function removePages(config: QuarryConfig, sites: readonly string[]): Promise<number> {
  const stores = await openStores(config, { maintain: false });
  try {
    for (const site of sites) {
      const removed = await removeSitePages(stores.index, stores.blobs, site, (n) => {
        if (process.stderr.isTTY) process.stderr.write(`\r${site}: ${count(n, 'page')} removed so far`);
      });
      if (process.stderr.isTTY && removed > 0) process.stderr.write('\r\x1b[K');
      process.stdout.write(`${site}: ${count(removed, 'page')} removed from the index\n`);
    }
    return 0;
  } finally {
    await stores.close();
  }
}
