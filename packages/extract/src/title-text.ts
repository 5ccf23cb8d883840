import { decodeHTML } from 'entities';

/** Soft hyphen, zero-width space and joiners, word joiner, byte-order mark. */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/**
 * The text of a title as a reader sees it: entities a site escaped twice (`TFC8&reg;`,
 * `Tools &#8211; Tips`) decoded, characters that show nothing (a soft hyphen in `Assis&shy;tance`,
 * zero-width spaces) removed and spaces collapsed, so that no word is split or spelled out.
 */
export function titleText(text: string): string {
  const decoded = text.includes('&') ? decodeHTML(text) : text;
  return decoded.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}
