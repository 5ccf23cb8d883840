/**
 * Normalizes a language tag to its primary subtag in lower case (`zh-CN` → `zh`, `EN` → `en`).
 * Returns null for anything that is not a well-formed BCP 47 primary subtag (2 to 3 letters, or
 * `und`).
 */
export function normalizeLang(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

/** The language code stored when nothing better is known. */
export const UNKNOWN_LANG = 'und';
