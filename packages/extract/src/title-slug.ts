/**
 * The words of a page's URL slug, and how well a title covers them: a slug is written from the
 * headline when the page is made (`/blog/best-laptop-for-college-to-buy-in-2026/`), so of two
 * titles that disagree, the one that covers more of its words is the page's own.
 */

/**
 * A slug has at least this many words of letters; `/portfolio/` or `/docs/` says too little, and so
 * does `/salon-1/` (a CMS's suffix making a slug unique, which a logo's `Salon` would cover whole).
 */
const MIN_SLUG_WORDS = 2;

/**
 * The words of the URL's last path segment that is a slug (letters joined by `-` or `_`), without
 * ids (`t17351`, `1rjl74r`, `2025`); [] when the URL has none.
 */
export function slugWords(url: string): string[] {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return [];
  }
  const segments = path.split('/').filter((s) => s !== '');
  const slug = segments.reverse().find((s) => /\p{L}{2,}[-_]+[\p{L}\p{N}]/u.test(s));
  if (slug === undefined) return [];
  const words = (
    slug
      .replace(/\.\w{2,5}$/, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => /^\p{L}+$/u.test(w) || /^\d{1,3}$/.test(w));
  return words.filter((w) => /^\p{L}/u.test(w)).length >= MIN_SLUG_WORDS ? words : [];
}

/** A word without a plural `s`: `packs` and `pack` are one word in a slug. */
const stem = (word: string): string => (word.length > 3 ? word.replace(/s$/, '') : word);

/** The share of the slug's words (see slugWords) that a title has, 0 for an empty slug. */
export function slugCoverage(slug: readonly string[], title: string): number {
  if (slug.length === 0) return 0;
  const have = new Set((title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem));
  return slug.filter((w) => have.has(stem(w))).length / slug.length;
}
