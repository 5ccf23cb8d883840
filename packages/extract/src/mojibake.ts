/** UTF-8 bytes read as Latin-1 or Windows-1252 (`Investorâ\u0080\u0099s`): 2 to 4 chars a character. */
const MOJIBAKE =
  /[\u00C2-\u00F4][\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]{1,3}/gu;
/** The same for characters of three or four bytes (curly quotes, dashes: `â€™`, `â\u0080\u0099`). */
const WIDE_MOJIBAKE =
  /[\u00E0-\u00F4][\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]{2,3}/gu;
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
/** A page's text showing this many wide ones was decoded wrongly as a whole. */
const MIN_WIDE_MOJIBAKE = 2;

/** A run of characters decoded back from the bytes they were read from, or null if not UTF-8. */
function decodeRun(run: string, decoder: TextDecoder): string | null {
  const bytes = [...run].map((c) => {
    const high = CP1252_HIGH.indexOf(c);
    return high >= 0 ? 0x80 + high : (c.codePointAt(0) ?? 0);
  });
  if (bytes.some((b) => b > 0xff)) return null;
  try {
    return decoder.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/**
 * Undoes mojibake in a title: runs that read as UTF-8 once their characters are taken back to
 * the bytes they came from (Latin-1 or Windows-1252) are decoded; anything else is left alone.
 */
export function repairMojibake(text: string): string {
  if (!/[\u00C2-\u00F4]/u.test(text)) return text;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return text.replace(MOJIBAKE, (run) => decodeRun(run, decoder) ?? run);
}

/**
 * Whether a page's text shows mojibake for certain: at least two characters of three or four bytes
 * that read back as UTF-8 (`letâ€™s`, a source saved twice as UTF-8). A two-byte pair alone is
 * not enough: `É»` in French quotes and `ß“` in German ones are text.
 */
export function showsMojibake(text: string): boolean {
  if (!/[\u00E0-\u00F4]/u.test(text)) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let wide = 0;
  for (const run of text.match(WIDE_MOJIBAKE) ?? []) {
    if (decodeRun(run, decoder) !== null && ++wide >= MIN_WIDE_MOJIBAKE) return true;
  }
  return false;
}

/** A page's text with its mojibake undone (see repairMojibake) when it shows it for certain (see showsMojibake). */
export function repairTextMojibake(text: string): string {
  return showsMojibake(text) ? repairMojibake(text) : text;
}
