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

/**
 * `Â` before a Latin-1 sign or space: a no-break space, `©`, `®`, `°`, `«`… whose two UTF-8 bytes
 * were read one character each (`Â\u00a0`, `Â©`). No language writes `Â` before one of these.
 */
const STRAY_A_SIGN = /\u00C2(?=[\u00A0-\u00BF])/gu;
/**
 * The same `Â` once the extracted text turned its no-break space into a space or a line end:
 * after a word's last character, where no language writes it (French, Portuguese, Romanian and
 * Vietnamese write `â` only inside a word)...
 */
const STRAY_A_WORD_END = /(?<=[^\s\u00C2])\u00C2(?=[ \t]|$)/gmu;
/**
 * ...or standing alone (`widely.  Â  Â`, a run of no-break spaces each saved twice), with the
 * spaces before it, after a sign, a digit or another such `Â` (after a letter it may be a letter
 * named in a list: `A Ă Â B`)...
 */
const STRAY_A_ALONE = /(?<=[^\p{L}\s]|\u00C2)[ \t]+\u00C2(?=[ \t]|$)/gmu;
/** ...or alone at the start of a line, with the spaces after it. */
const STRAY_A_LINE_START = /^\u00C2(?:[ \t]+|$)/gmu;

/**
 * How a page's text (and its markdown, alike) is cleared of mojibake, or null when it shows none:
 * all of it (see repairMojibake) when the text shows it for certain (see showsMojibake), and in
 * any case the stray `Â` of a sign or a no-break space saved twice as UTF-8, the commonest mojibake
 * of all, which can be nothing else (also once the text's layout turned that space into a space or
 * a line end, where no run is left for repairMojibake to decode).
 */
export function mojibakeRepairOf(text: string): ((text: string) => string) | null {
  if (showsMojibake(text)) return (shown) => dropStrayA(repairMojibake(shown));
  return text.includes('\u00C2') ? dropStrayA : null;
}

function dropStrayA(text: string): string {
  return text
    .replace(STRAY_A_SIGN, '')
    .replace(STRAY_A_WORD_END, '')
    .replace(STRAY_A_ALONE, '')
    .replace(STRAY_A_LINE_START, '');
}
