/** A response to `GET /llms.txt` (or `/llms-full.txt`) as the fetcher saw it. */
export interface LlmsTxtResponse {
  status: number;
  contentType: string | null;
  /** The decoded body (the fetcher bounds its size). */
  body: string;
  requestedUrl: string;
  finalUrl: string;
}

/** The verdict on a response: `reason` is a short machine-friendly word for logs and tests. */
export interface LlmsTxtVerdict {
  isLlmsTxt: boolean;
  reason: string;
}

/** Only this much of the body is inspected: enough to judge, bounded cost for multi-MB files. */
const INSPECT_CHARS = 64 * 1024;
/** Placeholder and parked pages are tiny; a phrase in a long file is just content. */
const PLACEHOLDER_MAX_CHARS = 2_000;
/**
 * Text outside headings below this length (and no link) is a stub, not a description, but for the
 * format's own summary: a title and a `> blockquote` line (`# Docs\n> Our API.`) is the smallest
 * llms.txt the proposal describes.
 */
const MIN_CONTENT_CHARS = 20;

const HTML_START =
  /^<(?:!doctype|html|head|body|script|meta|title|\?xml|div|iframe|style|link|noscript|!--|p|a|br|center|h1)[\s>/]/i;
const HTML_TAGS = /<(?:html|head|body)[\s>]|<\/(?:html|body)>/i;
const ROBOTS_LINE =
  /^(?:user-agent|allow|disallow|crawl-delay|sitemap|host|noindex|clean-param|content-signal|request-rate|visit-time)\s*:/i;
const HEADING = /^#{1,6}[ \t]+\S/;
/** The llms.txt summary: a blockquote with a word in it. */
const SUMMARY = /^>[ \t]*.*[\p{L}\p{N}]{2}/u;
// Bounded repeats keep the scan linear on hostile lines like `[[[[...`.
const MD_LINK = /\[[^\]\n]{1,500}\]\([^)\s]{0,2000}\)/;
const PARKED =
  /\bdomain(?: name)?\b[^.\n]{0,60}\bfor sale\b|\bbuy this domain\b|\bdomain (?:is )?parked\b|\bparked (?:free|domain|by)\b|\blaunching soon\b|\bcoming soon\b|\bunder construction\b|\blancio imminente\b|\bpr[oó]ximamente\b|\ben construcci[oó]n\b|\bbient[oô]t disponible\b|\bin k[uü]rze\b|\bem breve\b|\bbinnenkort\b|正在准备中|即将上线|敬请期待/i;
const INJECTION = /\bignore (?:all )?(?:the )?(?:previous|prior|above) instructions\b/i;

/**
 * Decides whether a response is a real llms.txt (the crawler's `has_llms_txt`). The rule, written
 * out in LLMS_TXT.md: a 2xx response that was not redirected to another file or site, whose body is
 * not empty, not HTML, not JSON, not robots.txt-style, is markdown (a heading or a markdown link),
 * says more than its title, and is not a parked-domain or placeholder page or a prompt-injection
 * trap.
 *
 * @example classifyLlmsTxt({ status: 200, contentType: 'text/plain', body: '# Site\n\n> About\n\n- [Docs](/docs.md)', requestedUrl: 'https://a.dev/llms.txt', finalUrl: 'https://a.dev/llms.txt' })
 *   // { isLlmsTxt: true, reason: 'markdown' }
 */
export function classifyLlmsTxt(response: LlmsTxtResponse): LlmsTxtVerdict {
  const no = (reason: string): LlmsTxtVerdict => ({ isLlmsTxt: false, reason });
  if (response.status < 200 || response.status > 299) return no('status');
  const redirect = redirectProblem(response.requestedUrl, response.finalUrl);
  if (redirect) return no(redirect);
  const type = (response.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (/json/.test(type)) return no('json');
  if (/^(?:image|audio|video|font)\/|^application\/(?:pdf|zip|gzip)$/.test(type)) return no('binary');
  const body = response.body
    .slice(0, INSPECT_CHARS)
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n');
  const trimmed = body.trim();
  if (trimmed === '') return no('empty');
  if (/\0/.test(trimmed)) return no('binary');
  if (
    HTML_START.test(trimmed) ||
    HTML_TAGS.test(trimmed.slice(0, 2_048)) ||
    (type.includes('html') && hasTag(trimmed))
  ) {
    return no('html');
  }
  if (looksLikeJson(trimmed)) return no('json');
  const lines = trimmed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (isRobotsStyle(lines)) return no('robots-style');
  const headings = lines.filter((line) => HEADING.test(line));
  const hasLink = lines.some((line) => MD_LINK.test(line));
  if (headings.length === 0 && !hasLink) return no('not-markdown');
  const content = lines.filter((line) => !HEADING.test(line)).join(' ');
  const summarized = headings.some((line) => /^#[ \t]/.test(line)) && lines.some((line) => SUMMARY.test(line));
  if (!hasLink && !summarized && content.length < MIN_CONTENT_CHARS) return no('stub');
  if (trimmed.length <= PLACEHOLDER_MAX_CHARS && PARKED.test(trimmed)) return no('parked-or-placeholder');
  if (INJECTION.test(trimmed)) return no('prompt-injection');
  return { isLlmsTxt: true, reason: 'markdown' };
}

/** Null when the redirect (if any) kept the file: same file name, same site (www. and subdomains allowed). */
function redirectProblem(requestedUrl: string, finalUrl: string): string | null {
  let requested: URL;
  let final: URL;
  try {
    requested = new URL(requestedUrl);
    final = new URL(finalUrl);
  } catch {
    return 'bad-url';
  }
  const fileOf = (url: URL): string => url.pathname.replace(/\/+$/, '').split('/').pop()?.toLowerCase() ?? '';
  if (fileOf(final) !== fileOf(requested)) return 'redirected';
  const a = requested.hostname.replace(/^www\./, '');
  const b = final.hostname.replace(/^www\./, '');
  if (a !== b && !a.endsWith(`.${b}`) && !b.endsWith(`.${a}`)) return 'redirected-off-site';
  return null;
}

/**
 * Whether a `<` and a letter is followed, anywhere later, by a `>` (what /<[a-z][^>]*>/i finds).
 * Only the first `<` and letter needs checking; the regex retried from every one, quadratic on
 * `<a<a<a…`.
 */
function hasTag(text: string): boolean {
  const open = text.search(/<[a-z]/i);
  return open >= 0 && text.indexOf('>', open + 2) >= 0;
}

function looksLikeJson(text: string): boolean {
  if (text.startsWith('{')) return true;
  if (!text.startsWith('[')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Most lines that are not comments are robots.txt directives. */
function isRobotsStyle(lines: string[]): boolean {
  const directives = lines.filter((line) => !line.startsWith('#'));
  const robots = directives.filter((line) => ROBOTS_LINE.test(line)).length;
  return robots > 0 && robots * 2 >= directives.length;
}
