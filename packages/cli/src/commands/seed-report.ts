import type { Crawler, Seed, SeedStanding } from '@quarry/crawler';
import { type CrawlStats, isListReason, otherReasons, REASON_NOTES } from '@quarry/queue';

/** Lines listed per kind of outcome before the rest are only counted. */
const MAX_LISTED = 10;

/**
 * Warns about the seeds the address policy refuses that `Crawler.reseed` left queued (new, queued
 * again or already queued), naming QUARRY_ALLOW_HOSTS; resolves to how many there were. They are
 * queued, so the crawl records the true reason (`blocked_address`). A seed left alone (done, within
 * a forgotten site, its budget spent) is not warned about: nothing will fetch it. `standings` are
 * reseed's, in the order of `seeds`. `crawlsHere`: this process crawls them (`start`, `crawl
 * --wait`); otherwise a crawler started with another environment (`quarry start` with the host
 * allowed) may fetch them, and the warning says so.
 */
export async function warnRefusedSeeds(
  crawler: Pick<Crawler, 'refusedSeeds'>,
  seeds: readonly Seed[],
  standings: readonly SeedStanding[],
  crawlsHere: boolean,
): Promise<number> {
  const queued = seeds.filter((_seed, i) => {
    const standing = standings[i];
    return standing !== undefined && (standing.state === 'new' || standing.state === 'pending' || standing.requeued);
  });
  const refused = await crawler.refusedSeeds(queued);
  for (const { seed, address } of refused) {
    const host = new URL(seed.url).hostname;
    const allow = `QUARRY_ALLOW_HOSTS=${host} (host names, addresses or CIDR ranges, comma-separated)`;
    process.stderr.write(
      crawlsHere
        ? `quarry: seed ${seed.url} is refused: ${address} is a private or reserved address, which the crawler does not fetch by default.\n` +
            `  To crawl a site on your own network, allow its host: ${allow}.\n`
        : `quarry: seed ${seed.url} is at a private or reserved address (${address}), which a crawler fetches only when QUARRY_ALLOW_HOSTS allows it; this command's environment does not.\n` +
            `  It is queued: a crawler started with ${allow} fetches it, one without skips it (blocked_address).\n`,
    );
  }
  return refused.length;
}

/** What happened to each explicitly given seed, for people: new, queued again, or left alone and why. */
export function seedReport(standings: readonly SeedStanding[]): string {
  const lines: string[] = [];
  const added = standings.filter((s) => s.state === 'new').length;
  if (added > 0) lines.push(`queued ${added} new seed URL${added === 1 ? '' : 's'}`);
  const list = (title: string, picked: readonly SeedStanding[], describe: (s: SeedStanding) => string) => {
    if (picked.length === 0) return;
    lines.push(`${title} (${picked.length}):`);
    for (const s of picked.slice(0, MAX_LISTED)) lines.push(`  ${s.url}${describe(s)}`);
    if (picked.length > MAX_LISTED) lines.push(`  ... and ${picked.length - MAX_LISTED} more`);
  };
  const widened = (s: SeedStanding): number | undefined => ('widened' in s ? s.widened?.pages : undefined);
  list(
    'crawled again with a larger page budget, depth or scope: their pages are queued again',
    standings.filter((s) => widened(s) !== undefined),
    (s) => ` (${widened(s)} page${widened(s) === 1 ? '' : 's'})`,
  );
  list(
    'queued again, as they ended skipped or failed',
    standings.filter((s) => s.requeued && widened(s) === undefined),
    (s) => ` (was ${s.state}${'reason' in s && s.reason ? `: ${s.reason}` : ''})`,
  );
  list(
    'left alone, already crawled with as large a budget, depth and scope (--recrawl AGE crawls pages again)',
    standings.filter((s) => s.state === 'done' && widened(s) === undefined),
    () => '',
  );
  list(
    'already queued',
    standings.filter((s) => s.state === 'pending'),
    () => '',
  );
  list(
    'not queued, within a site taken out of the crawl (`quarry forget --undo SITE` crawls it again)',
    standings.filter((s) => s.state === 'forgotten'),
    (s) => ('site' in s ? ` (${s.site})` : ''),
  );
  list(
    "not queued, their site's page budget is spent",
    standings.filter((s) => s.state === 'unknown'),
    () => '',
  );
  return lines.join('\n');
}

/**
 * `quarry status` lines for skip and failure reasons: count, code and a few example URLs, then the
 * URLs of the reasons not listed (beyond the ten a state lists) on an `other reasons` line, so the
 * counts add up to the state's. The sitemaps and feeds skipped (`link_list`, `no_sitemap`) are
 * listed last, apart from the pages skipped, as the counts line shows them (see finishedCounts).
 */
export function reasonLines(stats: Pick<CrawlStats, 'reasons' | 'skipped' | 'failed'>): string[] {
  const sections = [
    {
      title: 'skipped',
      rows: stats.reasons.filter((r) => r.state === 'skipped' && !isListReason(r.reason)),
      others: otherReasons(stats, 'skipped'),
    },
    { title: 'failed', rows: stats.reasons.filter((r) => r.state === 'failed'), others: otherReasons(stats, 'failed') },
    {
      title: 'sitemaps and feeds',
      rows: stats.reasons.filter((r) => r.state === 'skipped' && isListReason(r.reason)),
      others: 0,
    },
  ];
  const out: string[] = [];
  for (const { title, rows, others } of sections) {
    if (rows.length === 0 && others === 0) continue;
    out.push(`${title}, by reason:`);
    const width = Math.max(0, ...rows.map((r) => r.reason.length));
    for (const r of rows) {
      out.push(`  ${String(r.count).padStart(7)}  ${r.reason.padEnd(width)}  e.g. ${r.examples.join(' ')}`);
    }
    if (others > 0) out.push(`  ${String(others).padStart(7)}  other reasons`);
    for (const r of rows) {
      const note = REASON_NOTES[r.reason];
      if (note) out.push(`  ${r.reason}: ${note}`);
    }
  }
  return out;
}
