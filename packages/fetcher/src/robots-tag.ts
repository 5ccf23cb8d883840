/** What a page's `X-Robots-Tag` response header asks of this crawler. */
export interface RobotsTag {
  /** Keep the page out of the index (`noindex`, `none`, or an `unavailable_after` date passed). */
  readonly noindex: boolean;
  /** Do not follow the page's links (`nofollow`, `none`). */
  readonly nofollow: boolean;
}

/** Rules written `name: value`, which a bot name must not be mistaken for. */
const VALUED_RULES = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);
const BOT_PREFIX = /^([^\s:]+)\s*:\s*(.*)$/;
const UNAVAILABLE_AFTER = /^unavailable_after\s*:\s*(.*)$/i;

/**
 * Reads an `X-Robots-Tag` header: the indexing rules of a `<meta name="robots">`, given in HTTP,
 * which is how a PDF or an Office document says `noindex`. The value is a comma-separated list of
 * rules; a bot name before a rule (`googlebot: noindex`) makes it and the rules after it apply to
 * that bot only, and rules without one apply to every crawler. Repeated headers arrive on lines of
 * their own (as the fetcher gives them), each read alone: `otherbot: nofollow` in one header and
 * `noindex` in the next is a `noindex` for every crawler. Names and rules are case-insensitive.
 *
 * `unavailable_after: <date>` (RFC 822, RFC 850 or ISO 8601) is `noindex` once the date has passed.
 *
 * @param agents - the bot names, lower case, whose rules this crawler follows: its own product
 *   token (see productToken), and `googlebot` as for `<meta name="googlebot">`.
 * @param now - the current time, in milliseconds since the epoch.
 * @example robotsTagOf('googlebot: noindex, otherbot: nofollow', ['quarrybot', 'googlebot'], Date.now())
 * // { noindex: true, nofollow: false }
 */
export function robotsTagOf(value: string | undefined, agents: readonly string[], now: number): RobotsTag {
  let noindex = false;
  let nofollow = false;
  if (!value) return { noindex, nofollow };
  for (const header of value.split('\n')) {
    const tag = headerRules(header, agents, now);
    noindex ||= tag.noindex;
    nofollow ||= tag.nofollow;
  }
  return { noindex, nofollow };
}

/** The rules of one `X-Robots-Tag` header (see {@link robotsTagOf}). */
function headerRules(value: string, agents: readonly string[], now: number): RobotsTag {
  let noindex = false;
  let nofollow = false;
  const parts = value.split(',');
  let applies = true;
  for (let i = 0; i < parts.length; i++) {
    let rule = (parts[i] as string).trim();
    const prefixed = BOT_PREFIX.exec(rule);
    if (prefixed && !VALUED_RULES.has((prefixed[1] as string).toLowerCase())) {
      applies = agents.includes((prefixed[1] as string).toLowerCase());
      rule = (prefixed[2] as string).trim();
    }
    const unavailable = UNAVAILABLE_AFTER.exec(rule);
    if (unavailable) {
      let date = (unavailable[1] as string).trim();
      // An RFC 850 date holds a comma after its weekday: `Friday, 25-Jun-10 15:00:00 PST`.
      if (/^[A-Za-z]+$/.test(date) && i + 1 < parts.length) date = `${date},${parts[++i]}`;
      const at = Date.parse(date);
      if (applies && !Number.isNaN(at) && at <= now) noindex = true;
      continue;
    }
    if (!applies) continue;
    switch (rule.toLowerCase()) {
      case 'noindex':
        noindex = true;
        break;
      case 'nofollow':
        nofollow = true;
        break;
      case 'none':
        noindex = true;
        nofollow = true;
        break;
    }
  }
  return { noindex, nofollow };
}
