import { decodeHTML } from 'entities';

/**
 * What shows nothing, or nothing a reader can read, outside the page's own fonts: format characters
 * (soft hyphen, zero-width space and joiners, word joiner, direction marks, byte-order mark) and
 * private-use characters (an icon font's glyph, a legacy encoding's unmapped character, `投身外交(3)`
 * then U+E004).
 */
const INVISIBLE = /[\p{Cf}\p{Co}]/gu;

/**
 * The text of a title as a reader sees it: entities a site escaped twice (`TFC8&reg;`,
 * `Tools &#8211; Tips`) decoded, characters that show nothing (a soft hyphen in `Assis&shy;tance`,
 * zero-width spaces, see INVISIBLE) removed and spaces collapsed, so that no word is split or spelled out.
 */
export function titleText(text: string): string {
  const decoded = text.includes('&') ? decodeHTML(text) : text;
  return decoded.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}
