import { cleanAuthor, isOrganisation } from './author.js';
import { hostLabels, namesSite } from './title-strip.js';

/** Where a page names its author, each cleaned with {@link cleanAuthor}. */
export interface AuthorSources {
  /** What the page declares, best first: Readability's byline, meta author, article:author, JSON-LD. */
  declared: ReadonlyArray<string | null | undefined>;
  /** A Chinese page's own byline (see findZhByline), null elsewhere. */
  zhByline: string | null;
  /** Texts of byline elements in document order (see readDomFacts). */
  bylines: readonly string[];
  siteName: string | null;
  url: string;
}

/** A forum post by the thread's starter: its user card says so. */
const ORIGINAL_POSTER = /(?:^|\s)(?:OP|original poster)(?:\s|$)/i;

/**
 * The page's author: the first declared name, unless it only names the site (`Rapid7` on
 * rapid7.com, a publisher filled in as author) and a person is named elsewhere, declared or in a
 * byline element; on Chinese pages a byline in the text beats a declared news organisation. With
 * nothing declared: the Chinese byline, else the byline element of the thread's starter (forums
 * mark it `OP`), else the first byline element that cleans to a name.
 */
export function chooseAuthor(sources: AuthorSources): string | null {
  const labels = hostLabels(sources.url);
  const namesTheSite = (name: string) => namesSite(name, sources.siteName, labels, 0);
  const declared = sources.declared.map(cleanAuthor).filter((n): n is string => n !== null);
  const starter = sources.bylines.find((b) => ORIGINAL_POSTER.test(b));
  const bylines = [starter, ...sources.bylines].map(cleanAuthor).filter((n): n is string => n !== null);
  const first = declared[0];
  if (first !== undefined && !namesTheSite(first)) {
    return sources.zhByline !== null && isOrganisation(first) ? sources.zhByline : first;
  }
  const person = [...declared, ...bylines].find((n) => !namesTheSite(n));
  if (first !== undefined) return person ?? first;
  return sources.zhByline ?? bylines[0] ?? null;
}
