/** The language code stored when nothing better is known. */
export const UNKNOWN_LANG = 'und';

/** Primary subtags already canonicalized (a few hundred at most: the languages the web declares). */
const canonical = new Map<string, string>();
const MAX_CACHED = 1_000;

/**
 * Normalizes a language tag to its primary subtag in lower case (`zh-CN` → `zh`, `EN` → `en`), in
 * its canonical form: a three-letter code with a two-letter one becomes it (`eng` → `en`, `ger` and
 * `deu` → `de`) and a retired code its replacement (`iw` → `he`, `in` → `id`), by the Unicode
 * locale data `Intl.Locale` carries. Pages declare `lang="eng"` and clients ask `lang=deu`; both must
 * meet the `en` and `de` that language detection gives. Returns null for anything that is not a
 * well-formed BCP 47 primary subtag (2 to 3 letters, or `und`).
 */
export function normalizeLang(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  if (!/^[a-z]{2,3}$/.test(primary)) return null;
  let lang = canonical.get(primary);
  if (lang === undefined) {
    lang = primary === UNKNOWN_LANG ? primary : canonicalLanguage(primary);
    if (canonical.size < MAX_CACHED) canonical.set(primary, lang);
  }
  return lang;
}

function canonicalLanguage(primary: string): string {
  try {
    const language = new Intl.Locale(primary).language;
    return /^[a-z]{2,3}$/.test(language) ? language : primary;
  } catch {
    return primary;
  }
}
