/** UTF-8 bytes read as Latin-1 or Windows-1252 (`Investorâ\u0080\u0099s`): 2 to 4 chars a character. */
const MOJIBAKE =
  /[\u00C2-\u00F4][\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]{1,3}/gu;
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/**
 * Undoes mojibake in a title: runs that read as UTF-8 once their characters are taken back to
 * the bytes they came from (Latin-1 or Windows-1252) are decoded; anything else is left alone.
 */
export function repairMojibake(text: string): string {
  if (!/[\u00C2-\u00F4]/u.test(text)) return text;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return text.replace(MOJIBAKE, (run) => {
    const bytes = [...run].map((c) => {
      const high = CP1252_HIGH.indexOf(c);
      return high >= 0 ? 0x80 + high : (c.codePointAt(0) ?? 0);
    });
    if (bytes.some((b) => b > 0xff)) return run;
    try {
      return decoder.decode(Uint8Array.from(bytes));
    } catch {
      return run;
    }
  });
}
