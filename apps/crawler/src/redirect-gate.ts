import { hostOf, NonRetryableError, QuarryError, RetryableError } from '@quarry/core';
import type { RobotsCache, RobotsVerdict } from '@quarry/fetcher';
import type { LlmsTxtCache } from './llms-cache.js';
import type { SideRequests } from './side-requests.js';

/** Longest Crawl-delay honoured; a site asking for more is crawled at this pace. @defaultValue 60 s */
export const MAX_CRAWL_DELAY_MS = 60_000;
/** A page (or a redirect's target) its site's robots.txt disallows: skipped, never failed. */
export const ROBOTS_DISALLOWED = 'robots_disallowed';
/**
 * The robots cache's reason when robots.txt answered 5xx or 429 or could not be reached: the site
 * (that origin, scheme, host and port) is disallowed for now (an hour), and the page is tried
 * again, not skipped for good.
 */
export const ROBOTS_UNREACHABLE = 'robots_unreachable';

/** What a redirect gate needs of the page handler's parts. */
export interface RedirectGateDeps {
  readonly robots: Pick<RobotsCache, 'check'>;
  readonly sideRequests: Pick<SideRequests, 'restMs' | 'pace'>;
  /** The crawler's own delay between two requests to a host. */
  readonly hostDelayMs: number;
}

/** A host's delay: the crawler's own, or its robots.txt's Crawl-delay when longer (up to the cap). */
export function hostDelayOf(deps: Pick<RedirectGateDeps, 'hostDelayMs'>, verdict: RobotsVerdict): number {
  return Math.max(deps.hostDelayMs, crawlDelayMsOf(verdict));
}

/** The delay a host's robots.txt asks for (its Crawl-delay, up to the cap); 0 when none. */
export function crawlDelayMsOf(verdict: RobotsVerdict): number {
  return Math.min(MAX_CRAWL_DELAY_MS, (verdict.crawlDelaySecs ?? 0) * 1000);
}

/**
 * Thrown by {@link redirectGate} when the redirect's target host was just sent a request of the
 * crawler's own (its robots.txt or llms.txt), and by {@link redirectsOf} when it was sent a page
 * too recently: the task is postponed for `restMs`, and on its next try the redirect goes on to
 * the target, whose answer is cached by then.
 */
export class TargetResting extends QuarryError {
  readonly restMs: number;

  constructor(target: string, restMs: number) {
    super(`the host of ${target} rests ${restMs} ms after the crawler's last request to it`, {
      code: 'target_resting',
      retryable: true,
    });
    this.restMs = restMs;
  }
}

/**
 * Lets a redirect go on to `target` only when the target's robots.txt allows it: the target is a
 * page of its own (often on another host, whose robots.txt was never asked), and a redirect must not
 * be a way around robots.txt. Throws `robots_disallowed` (the page is skipped) or, when that
 * robots.txt cannot be read, `robots_unreachable` (tried again later); and {@link TargetResting}
 * when that robots.txt was asked just now and the target host's delay has not passed since, so
 * that the target page is spaced from it as a site's first page is.
 *
 * With `llms` (a page's redirect, whose document records the target site's llms.txt verdict), the
 * target's llms.txt is asked next, in its own turn, as a new site's is: robots.txt, llms.txt, then
 * the page, a delay apart. Each hop is asked, as the gate cannot know which one is the last.
 * Resolves to the target host's delay.
 */
export async function redirectGate(
  deps: RedirectGateDeps,
  target: string,
  llms?: Pick<LlmsTxtCache, 'has'>,
): Promise<number> {
  const verdict = await deps.robots.check(target);
  if (!verdict.allowed) {
    if (verdict.reason === ROBOTS_UNREACHABLE) throw robotsUnreachable(target, verdict);
    throw new NonRetryableError(`robots.txt disallows the redirect target ${target}`, ROBOTS_DISALLOWED);
  }
  const delayMs = hostDelayOf(deps, verdict);
  const rested = () => {
    const restMs = deps.sideRequests.restMs(target, delayMs);
    if (restMs > 0) throw new TargetResting(target, restMs);
  };
  rested();
  if (!llms) return delayMs;
  await llms.has(target);
  rested();
  return delayMs;
}

/**
 * The redirect gate of one fetch of `url` (the fetcher's `beforeRedirect`): each hop passes
 * {@link redirectGate}, and a hop to a host the fetch has not asked yet is paced as a page of that
 * host would be (SideRequests' `pace`): it waits in place for the host's request in flight to end
 * and for the rest of the host's delay since this process last sent it a page, or throws
 * {@link TargetResting} when that is longer. The
 * queue spaces a host's own tasks, not the redirects other hosts send to it: a site whose links
 * name both `example.com` and `www.example.com`, one redirecting to the other, had its pages asked
 * twice as often as its delay allows. A hop back to a host of the same fetch (a sign-in bounce, or
 * `http:` to `https:` on one host) is one exchange with it, and follows at once. The wait ends
 * when the fetch's `signal` aborts (its deadline, which counts the gate's time too).
 */
export function redirectsOf(
  deps: RedirectGateDeps,
  url: string,
  { llms }: { llms?: Pick<LlmsTxtCache, 'has'> } = {},
): (target: string, signal?: AbortSignal) => Promise<void> {
  const asked = new Set([hostOf(url)]);
  return async (target, signal) => {
    const delayMs = await redirectGate(deps, target, llms);
    const host = hostOf(target);
    if (asked.has(host)) return;
    const restMs = await deps.sideRequests.pace(target, delayMs, signal);
    if (restMs > 0) throw new TargetResting(target, restMs);
    asked.add(host);
  };
}

/**
 * The retryable error of a page whose robots.txt could not be read (5xx, 429, a network error):
 * RFC 9309 says to assume the site disallowed for now, not for good, so the page is tried again
 * (and fails, with this reason, when that keeps up past its tries). Its retry is
 * not a host backoff (no Retry-After), which would hold back every port of the host name (for a
 * redirect, the redirecting page's host) for one origin's trouble: a dead port kept the live site
 * on the next port waiting 10 minutes. The page's next try comes once the robots cache asks
 * robots.txt again (`verdict.retryInMs`, a minute after it failed), so that each try reads a new
 * answer: tries 2 and 4 s apart had read the one cached answer, and a robots.txt down for a moment
 * failed its seed for good in 6 s.
 */
export function robotsUnreachable(url: string, verdict: Pick<RobotsVerdict, 'retryInMs'> = {}): RetryableError {
  return new RetryableError(`robots.txt of ${new URL(url).origin} is unreachable`, ROBOTS_UNREACHABLE, {
    ...(verdict.retryInMs === undefined ? {} : { retryInMs: verdict.retryInMs + ROBOTS_RETRY_MARGIN_MS }),
  });
}

/** How long after the robots cache lets its unreachable answer go a page tries again. */
const ROBOTS_RETRY_MARGIN_MS = 1_000;
