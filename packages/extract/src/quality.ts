const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;

/**
 * Token-level F1 between an extracted text and a reference text (bag of tokens, case-folded):
 * words of letters/digits, and each Han or kana character on its own so that Chinese scores
 * without a segmenter. 1 is a perfect match, 0 nothing in common. Used by the golden tests and
 * the benchmark to score extraction quality.
 */
export function tokenF1(extracted: string, reference: string): number {
  const got = counts(extracted);
  const want = counts(reference);
  let gotTotal = 0;
  let wantTotal = 0;
  let common = 0;
  for (const n of got.values()) gotTotal += n;
  for (const [token, n] of want) {
    wantTotal += n;
    common += Math.min(n, got.get(token) ?? 0);
  }
  if (gotTotal === 0 && wantTotal === 0) return 1;
  if (common === 0) return 0;
  const precision = common / gotTotal;
  const recall = common / wantTotal;
  return (2 * precision * recall) / (precision + recall);
}

/** A text's tokens as {@link tokenF1} counts them: case-folded words, each Han or kana character alone. */
export function textTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

function counts(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const token of textTokens(text)) map.set(token, (map.get(token) ?? 0) + 1);
  return map;
}
