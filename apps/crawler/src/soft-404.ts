/** A page this long is content, whatever its title says. */
const MAX_WORDS = 150;

/**
 * Titles that say the page is missing, in the languages Quarry sees most: `404`, `Error 404`,
 * `Page not found`, `Oops! That page can't be found`, `Seite nicht gefunden`, `Page introuvable`,
 * `Página no encontrada`, `页面不存在`, `ページが見つかりません`. Anchored at the title's start or end,
 * so that `The 404 error, explained` is an article.
 */
const MISSING = [
  /^(?:error\s*)?404\b/i,
  /\b404\s*(?:error|not found)?$/i,
  // The whole title, or before a site name (`Page not found | Example`), not `Not Found in …`.
  /^(?:(?:the\s+)?(?:page|file|document|content|resource)\s+)?not\s+found[\s!.]*(?:[|·–—-].*)?$/i,
  /^(?:oops|sorry|whoops)\b.{0,40}\b(?:not\s+(?:be\s+)?found|(?:doesn['’]t|does\s+not|no\s+longer)\s+exists?|can['’]?not\s+be\s+found|can['’]t\s+be\s+found)/i,
  /^(?:this\s+)?page\s+(?:does\s+not|doesn['’]t|no\s+longer)\s+exists?\b/i,
  /^seite\s+nicht\s+gefunden\b/i,
  /^page\s+(?:introuvable|non\s+trouv[ée]e)\b/i,
  /^p[áa]gina\s+no\s+encontrada\b/i,
  /^(?:页面|网页)(?:不存在|未找到)|^找不到(?:该|此|您要的)?(?:页面|网页)/,
  /^ページが見つかりません/,
];

/**
 * Whether a page served with 200 is a "not found" page all the same (a soft 404): a short page
 * whose title says it is missing. Such pages would answer searches for "page" or "found" with
 * nothing; the crawler skips them (`soft_404`).
 */
export function isSoftNotFound(page: { readonly title: string; readonly word_count: number }): boolean {
  if (page.word_count > MAX_WORDS) return false;
  const title = page.title.trim();
  return MISSING.some((pattern) => pattern.test(title));
}
