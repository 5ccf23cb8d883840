import { stripSiteName } from './dom-facts.js';

/** The marks that part a headline from a site or section name (`|`, `-`, `–`, `»`…); a slash too, between two parts. */
export const SEPARATOR_MARK = '(?:\\||-{1,2}|–|—|•|·|::|»|«|~)';
/** A separator between a headline and a site or section name, with space around it. */
export const SEPARATOR = new RegExp(`\\s+(?:${SEPARATOR_MARK}|\\/)\\s+`);
/** A tail that dates the headline (`- March 2026`, `/ 2027`) rather than naming the site. */
const DATE_TAIL = /^(?:\p{L}+\.?\s+)?(?:\d{1,2},?\s+)?(?:19|20)\d{2}$/u;
/** What forum engines write before a topic's title (phpBB's `Site • View topic - Headline`). */
const PAGE_KIND = /^view (?:topic|thread|forum)$/i;
/** A trailing segment of at most this many words, shorter than the rest, names the site. */
const MAX_TAIL_WORDS = 3;

/** Chinese, Japanese or Korean text: titles there join the headline and the site's name without spaces. */
const CJK_TEXT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A CJK character or full-width punctuation, beside which a hyphen separates (`吗？-报社新闻`). */
const CJK_SIDE =
  '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303f\\uff01-\\uff60]';
/**
 * Separators a CJK title writes without spaces: underscores (`标题_频道_新浪网`), bars, full-width
 * bars, a doubled hyphen, angle marks (`艺术史研究<世纪在线中国艺术网`, `‹`, `›`, `»`), and a hyphen
 * beside a CJK character (never between Latin letters or digits: `China-Pub`, `2022-02-13`). Long
 * dashes are left alone: `——` is Chinese punctuation inside a headline, and so are `《》`.
 */
const UNSPACED_SEPARATOR = new RegExp(
  `\\s*(?:_+|\\||｜|-{2,}|[<>‹›«»])\\s*|(?<=${CJK_SIDE})\\s*-\\s*|\\s*-\\s*(?=${CJK_SIDE})`,
  'gu',
);
/** A trailing part of a CJK title this short (in characters) names the site or its section. */
export const MAX_CJK_TAIL_CHARS = 16;
/**
 * A CJK title's last part that calls itself a web site (`世纪在线中国艺术网`, `…门户网站`, `…官网`):
 * the site's name even when it is longer than the headline before it.
 */
const CJK_SITE_NAME = /(?:网|網|网站|網站)$/u;

/** Case, punctuation and spacing folded away: how two titles are compared. */
export const fold = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Whether a URL is a site's home page (`/`, `/index.html`). */
export function isHomePage(url: string): boolean {
  try {
    return /^\/(?:index\.\w+)?$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The host's labels without `www.`: `blog.example.co.uk` → blog, example, co, uk. */
export function hostLabels(url: string): string[] {
  try {
    return new URL(url).hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .split('.');
  } catch {
    return [];
  }
}

/**
 * Whether a title segment names the site: its site name, part of the host, or a short text with
 * the host's name in it (`Arch Linux Forums` on archlinux.org; a longer one is a headline).
 */
export function namesSite(
  segment: string,
  siteName: string | null,
  labels: readonly string[],
  maxWords = MAX_TAIL_WORDS,
): boolean {
  const folded = fold(segment);
  if (folded === '') return true;
  if (siteName && fold(siteName) === folded) return true;
  if (folded.length >= 3 && fold(labels.join('')).includes(folded)) return true;
  const short = segment.split(/\s+/).length <= maxWords;
  return short && labels.slice(0, -1).some((l) => l.length >= 4 && folded.includes(fold(l)));
}

/**
 * The longest folded run worth keeping: runs are matched against `<h1>` texts, which are read up to
 * this length (see title.ts), so a longer run matches none.
 */
export const MAX_RUN_CHARS = 300;

/**
 * The ways a title's segments can be read as its headline, folded: each contiguous run of them that
 * holds its longest segment (`Shop` alone, in `How ML Personalizes Shopping | Shop`, is not one), up
 * to `maxChars` folded characters (a title of a thousand parts gives a bounded set, not millions of
 * characters).
 */
export function segmentRuns(title: string, maxChars = MAX_RUN_CHARS): Set<string> {
  const segments = title.split(SEPARATOR);
  const words = segments.map((s) => s.split(/\s+/).filter(Boolean).length);
  const longest = words.indexOf(Math.max(...words));
  // Folding drops the spaces a join would add, so a run's folded text is its folded parts joined.
  const folded = segments.map(fold);
  const runs = new Set<string>();
  let head = '';
  for (let i = longest; i >= 0; i--) {
    head = (folded[i] ?? '') + head;
    if (head.length > maxChars) break;
    let run = head;
    for (let j = longest; run.length <= maxChars; ) {
      runs.add(run);
      if (++j >= segments.length) break;
      run += folded[j] ?? '';
    }
  }
  return runs;
}

/**
 * A declared title without the site's name (`Headline | Site`, `Site - Headline`, `Headline •
 * Author`): a segment that names the site (site name or host) goes, a segment equal to the main
 * `<h1>` wins, and a trailing ` | Tail` goes.
 */
export function stripTitle(
  raw: string,
  siteName: string | null,
  labels: readonly string[],
  h1: string,
  home: boolean,
): string {
  const named = stripSiteName(stripBracketedSite(stripUnspacedTail(raw, h1), siteName, labels), siteName, home);
  // On the home page the site is the subject: `Figma: The Collaborative Interface Design Tool`.
  const stripped = home ? named : stripSitePrefix(named, siteName, labels);
  const segments = stripped.split(SEPARATOR).map((s) => s.trim());
  if (segments.length === 1) return stripped;
  const h1Folded = fold(h1);
  const asH1 =
    h1Folded !== '' && !namesSite(h1, siteName, labels, 0) ? segments.find((s) => fold(s) === h1Folded) : undefined;
  if (asH1 !== undefined) return asH1;
  // Any segment but the longest may carry the host's name and still only name the site.
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const longest = Math.max(...segments.map(words));
  const namesSiteHere = (segment: string) =>
    namesSite(segment, siteName, labels, words(segment) < longest ? MAX_TAIL_WORDS : 0);
  let first = 0;
  let last = segments.length - 1;
  while (last > first && namesSiteHere(segments[last] ?? '')) last--;
  while (first < last && namesSiteHere(segments[first] ?? '')) first++;
  // `Site • View topic - Headline`: a forum engine's name for the kind of page ends its prefix.
  const kind = segments.slice(first, last).findLastIndex((s) => PAGE_KIND.test(s));
  if (kind >= 0) first += kind + 1;
  const rest = rejoin(stripped, first, last);
  // What is left of `Headline | Anything`: a pipe separates a section, and so does any separator
  // before a short tail (`Lorem ipsum dolor sit amet – My website`, `Question / Forum Section`).
  const pipe = rest.indexOf(' | ');
  if (pipe > 0) return rest.slice(0, pipe).trim();
  if (last === first) return rest;
  const tail = segments[last] ?? '';
  const head = rejoin(stripped, first, last - 1);
  return words(tail) <= MAX_TAIL_WORDS && words(tail) < words(head) && !DATE_TAIL.test(tail) ? head : rest;
}

/**
 * A CJK title without the site and section names it appends without spaces
 * (`四年前中500万现穷困潦倒__商贸_产业资讯_新浪网`, `…小时_苏银`, `…吗？-报社新闻`): the parts after
 * its longest part go while each is at most {@link MAX_CJK_TAIL_CHARS} characters long and comes
 * after a separator of the same kind as the last one (`标题-副题_网站` keeps `标题-副题`), and so does
 * a last part that calls itself a web site when it is the longest (`艺术史研究<世纪在线中国艺术网`). A part
 * that is the page's `<h1>` is the title. Other titles are returned as they are.
 */
function stripUnspacedTail(title: string, h1: string): string {
  if (!CJK_TEXT.test(title)) return title;
  // Each part's text and where it ends; the separator before the next part.
  const parts: Array<{ text: string; end: number }> = [];
  const separators: string[] = [];
  let at = 0;
  for (const m of title.matchAll(UNSPACED_SEPARATOR)) {
    const index = m.index ?? 0;
    parts.push({ text: title.slice(at, index), end: index });
    separators.push(m[0].trim().charAt(0));
    at = index + m[0].length;
  }
  parts.push({ text: title.slice(at), end: title.length });
  if (parts.length < 2 || parts.some((p) => p.text.trim() === '')) return title;
  const h1Folded = fold(h1);
  const asH1 = h1Folded === '' ? undefined : parts.find((p) => fold(p.text) === h1Folded);
  if (asH1 !== undefined) return asH1.text.trim();
  const sizes = parts.map((p) => p.text.replace(/\s+/g, '').length);
  const longest = sizes.indexOf(Math.max(...sizes));
  const kind = separators.at(-1);
  let last = parts.length - 1;
  // The last part may go when it calls itself a web site, the longest or not.
  const site = (i: number) => i === parts.length - 1 && CJK_SITE_NAME.test(parts[i]?.text.trim() ?? '');
  while (
    (last > longest || (last > 0 && site(last))) &&
    (sizes[last] ?? 0) <= MAX_CJK_TAIL_CHARS &&
    separators[last - 1] === kind
  )
    last--;
  return last === parts.length - 1 ? title : title.slice(0, parts[last]?.end).trim();
}

/** `Welcome to LWN.net [LWN.net]`, `Headline (Example)`: a bracketed tail that names the site goes. */
function stripBracketedSite(title: string, siteName: string | null, labels: readonly string[]): string {
  const m = /^(.*\S)\s+[[(]([^\])]{2,40})[\])]$/u.exec(title);
  return m?.[1] && m[2] && namesSite(m[2], siteName, labels) ? m[1] : title;
}

/** `Site: Headline` and `Site Blog: Headline` lose the part before the colon when it names the site. */
function stripSitePrefix(title: string, siteName: string | null, labels: readonly string[]): string {
  const m = /^([^:]{2,40}):\s+(\S.*)$/u.exec(title);
  if (!m?.[1] || !m[2]) return title;
  return namesSite(m[1], siteName, labels) ? m[2] : title;
}

/** Segments first..last of a title, with their original separators. */
function rejoin(title: string, first: number, last: number): string {
  const parts: string[] = [];
  let rest = title;
  for (let i = 0; ; i++) {
    const m = SEPARATOR.exec(rest);
    const segment = m ? rest.slice(0, m.index) : rest;
    if (i >= first && i <= last) parts.push(segment, m && i < last ? m[0] : '');
    if (!m || i >= last) break;
    rest = rest.slice(m.index + m[0].length);
  }
  return parts.join('').trim();
}
