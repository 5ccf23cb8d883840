/**
 * Accents a typesetter draws as glyphs of their own. TeX's `\'e` with a font that has no `é` (OT1,
 * the Computer Modern default) puts an acute accent over an `e`, and pdf.js gives the two as
 * separate characters: `prote´ge´` for protégé, `Luı´s` (a dotless i) for Luís. Such a word is found
 * by no search for it. Such an accent starts a run of its own (pdf.js starts one where the pen
 * moves back), and where it sits tells its letter: drawn back over the end of the text before it,
 * it is the last letter's; drawn where it stands, it is the next letter's. A letter and its accent
 * become the one character Unicode has for them (NFC), and only then: an accent that makes no such
 * letter, or one inside a run (an apostrophe typed as `´`), is left as it is.
 */

/** The spacing accents (Unicode's modifier letters and Latin-1's spacing marks) and the marks they stand for. */
const COMBINING: Readonly<Record<string, string>> = {
  '\u00b4': '\u0301', // ´ acute
  '\u02cb': '\u0300', // ˋ grave
  '\u0060': '\u0300', // ` grave, as OT1 fonts map theirs: only drawn back over a letter (code opens with it)
  '\u00a8': '\u0308', // ¨ diaeresis
  '\u02c6': '\u0302', // ˆ circumflex
  '\u02dc': '\u0303', // ˜ tilde
  '\u02c7': '\u030c', // ˇ caron
  '\u00b8': '\u0327', // ¸ cedilla
  '\u02d8': '\u0306', // ˘ breve
  '\u02da': '\u030a', // ˚ ring
  '\u02dd': '\u030b', // ˝ double acute
  '\u00af': '\u0304', // ¯ macron
  '\u02d9': '\u0307', // ˙ dot
};

/** The dotless letters TeX puts an accent above, and the letters they are then. */
const DOTLESS: Readonly<Record<string, string>> = { ı: 'i', ȷ: 'j' };

/**
 * The letter `letter` with the spacing accent `accent` as one character (`e` and `´` → `é`); null
 * when either is not one or Unicode has no such letter.
 */
export function composeAccent(letter: string, accent: string): string | null {
  const mark = COMBINING[accent];
  if (mark === undefined || !/^\p{L}$/u.test(letter)) return null;
  const base = mark === '\u0327' ? letter : (DOTLESS[letter] ?? letter);
  const composed = `${base}${mark}`.normalize('NFC');
  return [...composed].length === 1 ? composed : null;
}

/**
 * `before` followed by a run of text `run` that starts with an accent: the accent goes onto the last
 * letter of `before` when `overBefore` (the run starts back over the text before it), else onto
 * the run's next letter (an ASCII grave never: `` `echo` `` is code). Returns the two texts as they
 * are then.
 */
export function placeRunAccent(before: string, run: string, overBefore: boolean): [string, string] {
  const accent = run[0] ?? '';
  if (COMBINING[accent] === undefined) return [before, run];
  if (overBefore) {
    const composed = composeAccent(before.at(-1) ?? '', accent);
    if (composed !== null) return [before.slice(0, -1) + composed, run.slice(1)];
  }
  const composed = accent === '`' ? null : composeAccent(run[1] ?? '', accent);
  return composed === null ? [before, run] : [before, composed + run.slice(2)];
}
