import { decodeHTML } from 'entities';

const BLOCK_TAG = /<\/?(?:br|p|div|li|ul|ol|tr|td|th|h[1-6]|hr|blockquote|section|article)\b[^>]*>/gi;
const HIDDEN_ELEMENT = /<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/**
 * A provider's field is read up to this many characters: its text is clipped to a few hundred
 * anyway, and a field of megabytes (a provider passing a page through) made the patterns above
 * take seconds.
 */
const MAX_INPUT_CHARS = 16_384;

/**
 * Plain text from a provider's HTML-ish string (Brave marks matches with `<strong>`, SearXNG passes
 * engines' markup and entities through): tags removed, entities decoded, whitespace collapsed,
 * control characters dropped, clipped to `maxChars` at a word boundary with an ellipsis.
 */
export function htmlToText(input: string, maxChars: number): string {
  const read = input.length > MAX_INPUT_CHARS ? input.slice(0, MAX_INPUT_CHARS) : input;
  const text = decodeHTML(
    read
      .replace(HIDDEN_ELEMENT, ' ')
      .replace(BLOCK_TAG, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clipText(text, maxChars);
}

function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
