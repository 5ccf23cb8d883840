import { cleanAuthor, cleanByline, isOrganisation } from './author.js';
import { squash } from './text.js';
import { hostLabels, namesSite } from './title-strip.js';

/** Where a page names its author, each cleaned with {@link cleanAuthor}. */
export interface AuthorSources {
  /** What the page declares, best first: Readability's byline, meta author, article:author, JSON-LD. */
  declared: ReadonlyArray<string | null | undefined>;
  /** A Chinese page's own byline (see findZhByline), null elsewhere. */
  zhByline: string | null;
  /** Texts of byline elements in document order (see readDomFacts). */
  bylines: readonly string[];
  /** Texts that are only a label and a name, after the headline (`By Amy Wilhelm`; see readDomFacts). */
  textBylines?: readonly string[];
  /** The first post's `data-author` (see readDomFacts), null when none. */
  postAuthor?: string | null;
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
  const cleaned = sources.bylines.map(cleanByline);
  const starter = cleaned[sources.bylines.findIndex((b) => ORIGINAL_POSTER.test(b))];
  const poster = sources.postAuthor ? cleanByline(sources.postAuthor) : null;
  const bylines = [starter, poster, ...cleaned].filter((n): n is string => n !== null && n !== undefined);
  const textBylines = (sources.textBylines ?? []).map(cleanAuthor).filter((n): n is string => n !== null);
  // Readability reads its byline as one run of text, which glues a card's name to the role set
  // beside it; the byline element's own first line gives the name.
  const first = ungluedName(declared[0], sources.bylines, cleaned);
  if (first !== undefined && !namesTheSite(first)) {
    return sources.zhByline !== null && isOrganisation(first) ? sources.zhByline : first;
  }
  const person = [...declared, ...bylines, ...textBylines].find((n) => !namesTheSite(n));
  if (first !== undefined) return person ?? first;
  return sources.zhByline ?? bylines[0] ?? textBylines[0] ?? null;
}

/**
 * `name` cut to a byline element's name (`names`: each of `rawBylines` cleaned) when it is that
 * element read as one run of text: the name continues without a space (`Harry RabinowitzTech
 * Reporter` for `Harry Rabinowitz`), or the element's lines joined hold all of `name`
 * (`StarredSkies Big Board Owner`, a user card's name and rank on two lines).
 */
function ungluedName(
  name: string | undefined,
  rawBylines: readonly string[],
  names: ReadonlyArray<string | null>,
): string | undefined {
  if (name === undefined) return name;
  for (const [i, raw] of rawBylines.entries()) {
    const own = names[i] ?? null;
    if (own === null || own.length >= name.length || !name.startsWith(own)) continue;
    if (/^\p{L}/u.test(name.slice(own.length)) || squash(raw.replace(/\n/g, ' ')).includes(name)) return own;
  }
  return name;
}
