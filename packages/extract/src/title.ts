import { stripSiteName } from './dom-facts.js';

/** What a page says its title is, from each source ('' or null when it says nothing). */
export interface TitleSources {
  ogTitle: string | null;
  /** JSON-LD `headline`, when it agrees with the page (see agreesWith). */
  jsonLdHeadline: string | null;
  readabilityTitle: string | null;
  docTitle: string;
  /** The main `<h1>` (inside `<article>`/`<main>`, else the first one). */
  h1: string;
  siteName: string | null;
  url: string;
}

/** A separator between a headline and a site or section name, with space around it. */
const SEPARATOR = /\s+(?:\||-{1,2}|–|—|•|·|::|»|«|\/|~)\s+/;
const MAX_H1_CHARS = 300;
/** A trailing segment of at most this many words, shorter than the rest, names the site. */
const MAX_TAIL_WORDS = 3;

const fold = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

const usable = (text: string | null | undefined): text is string =>
  typeof text === 'string' && text.trim() !== '' && !/^(?:https?:\/\/|www\.)\S+$/i.test(text.trim());

/** Whether a title segment names the site: its site name, or the host's registrable label. */
function namesSite(segment: string, siteName: string | null, host: string): boolean {
  const folded = fold(segment);
  if (folded === '') return true;
  if (siteName && fold(siteName) === folded) return true;
  const labels = host
    .replace(/^www\./, '')
    .split('.')
    .slice(0, -1);
  const hostFolded = fold(labels.join(''));
  return (
    folded.length >= 3 && (hostFolded.includes(folded) || labels.some((l) => l.length >= 4 && folded.includes(fold(l))))
  );
}

/**
 * The page's title: og:title, else the JSON-LD headline, Readability's title, `<title>`, the main
 * `<h1>` (the first usable one; never a bare URL), with the site's name removed (`Headline | Site`,
 * `Site - Headline`, `Headline • Author`): a segment that names the site (site name or host) goes,
 * a segment equal to the main `<h1>` wins, and a trailing ` | Tail` goes. '' only when the page
 * gives none of these.
 */
export function reconcileTitle(sources: TitleSources): string {
  const h1 = sources.h1.length <= MAX_H1_CHARS ? sources.h1 : '';
  const raw = [sources.ogTitle, sources.jsonLdHeadline, sources.readabilityTitle, sources.docTitle, h1].find(usable);
  if (raw === undefined) return '';
  const stripped = stripSiteName(raw.trim(), sources.siteName);
  let host = '';
  try {
    host = new URL(sources.url).hostname.toLowerCase();
  } catch {
    // No host to compare with.
  }
  const segments = stripped.split(SEPARATOR).map((s) => s.trim());
  if (segments.length === 1) return stripped;
  const h1Folded = fold(h1);
  const asH1 = h1Folded !== '' ? segments.find((s) => fold(s) === h1Folded) : undefined;
  if (asH1 !== undefined) return asH1;
  let first = 0;
  let last = segments.length - 1;
  while (last > first && namesSite(segments[last] ?? '', sources.siteName, host)) last--;
  while (first < last && namesSite(segments[first] ?? '', sources.siteName, host)) first++;
  if (first !== 0 || last !== segments.length - 1) return rejoin(stripped, first, last);
  // `Headline | Anything` without a known site: a pipe separates the site or section, and so does
  // any separator before a short tail (`Lorem ipsum dolor sit amet – My website`).
  const pipe = stripped.lastIndexOf(' | ');
  if (pipe > 0) return stripped.slice(0, pipe).trim();
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const tail = segments[segments.length - 1] ?? '';
  const head = rejoin(stripped, 0, segments.length - 2);
  return words(tail) <= MAX_TAIL_WORDS && words(tail) < words(head) ? head : stripped;
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
