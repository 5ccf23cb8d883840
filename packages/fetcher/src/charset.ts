import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';

/**
 * The WHATWG encoding name for a label (`gb2312` → `gbk`, `latin1` → `windows-1252`), or null for
 * an unknown label. Node's TextDecoder implements the WHATWG label table; labels it knows but
 * cannot decode map as the HTML spec says (`x-user-defined` → windows-1252).
 */
export function resolveEncodingLabel(label: string): string | null {
  const trimmed = label.trim().toLowerCase();
  if (trimmed === '') return null;
  if (trimmed === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    // Node without full ICU knows fewer labels; iconv-lite covers the common legacy ones.
    return iconv.encodingExists(trimmed) ? trimmed : null;
  }
}

/** windows-1252 bytes 0x80-0x9F as the WHATWG standard decodes them (its other bytes are latin1). */
const WINDOWS_1252_80_TO_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** A 256-entry table of the characters some bytes must decode to, for {@link NODE_DECODER_FIXES}. */
function byteTable(entries: Iterable<readonly [number, string]>): readonly (string | undefined)[] {
  const table = new Array<string | undefined>(256).fill(undefined);
  for (const [byte, char] of entries) table[byte] = char;
  return table;
}

/**
 * Bytes that Node 20's TextDecoder decodes unlike the WHATWG Encoding Standard, found by comparing
 * every byte 0x80-0xFF of every single-byte encoding with iconv-lite and the standard's indexes
 * (charset.test.ts keeps checking). windows-1252 is the one that matters: Node decodes it as latin1
 * (0x80 becomes U+0080, not €), and every label WHATWG maps to it (iso-8859-1, latin1, ascii,
 * us-ascii...) goes there too, so € — “ ” ‘ ’ ™ … became C1 controls that were later stripped. The
 * rest are a rare Hebrew vowel point and bytes the standard leaves undefined. Bytes are patched one
 * by one rather than decoded with iconv-lite, which makes the C1 bytes that the standard keeps in
 * windows-125x U+FFFD (and decode.ts counts U+FFFD against a declared encoding).
 */
const NODE_DECODER_FIXES: ReadonlyMap<string, readonly (string | undefined)[]> = new Map([
  ['windows-1252', byteTable([...WINDOWS_1252_80_TO_9F].map((char, i) => [0x80 + i, char] as const))],
  ['windows-1253', byteTable([[0xaa, '\uFFFD']])],
  ['windows-1255', byteTable([[0xca, '\u05BA']])],
  ['windows-874', byteTable([0xdb, 0xdc, 0xdd, 0xde, 0xfc, 0xfd, 0xfe, 0xff].map((byte) => [byte, '\uFFFD'] as const))],
]);

/** Replaces the characters of the fixed bytes in the output of a single-byte decoder. */
function applyFixes(bytes: Uint8Array, text: string, fixes: readonly (string | undefined)[]): string {
  // A single-byte decoder gives exactly one UTF-16 unit per byte, so byte i decoded to text[i].
  let out = '';
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    const fix = fixes[bytes[i] as number];
    if (fix === undefined) continue;
    out += text.slice(from, i) + fix;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Node's decoder for an encoding, or null for one it does not know (iso-8859-16). */
function nodeDecoder(encoding: string) {
  try {
    return new TextDecoder(encoding);
  } catch {
    return null;
  }
}

/** Decodes bytes with a resolved encoding name, replacing malformed sequences with U+FFFD. */
export function decodeWith(bytes: Uint8Array, encoding: string): string {
  const decoder = nodeDecoder(encoding);
  if (decoder === null) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
  const text = decoder.decode(bytes);
  // Looked up by the decoder's name, so every label that means windows-1252 is fixed too.
  const fixes = NODE_DECODER_FIXES.get(decoder.encoding);
  return fixes ? applyFixes(bytes, text, fixes) : text;
}

/** Whether the bytes are well-formed UTF-8 (a sequence cut off at the very end is tolerated). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  // isUtf8 validates without building a string (a fatal TextDecoder decodes the whole page).
  if (isUtf8(bytes)) return true;
  // A body truncated at a byte limit may end mid-character: drop an incomplete last sequence.
  const cut = incompleteTail(bytes);
  return cut > 0 && isUtf8(bytes.subarray(0, bytes.length - cut));
}

/** Length of a multi-byte sequence cut off at the end of the bytes (0 when the end is complete). */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back] as number;
    if (byte < 0x80) return 0;
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return needed > back ? back : 0;
    }
  }
  return 0;
}

const WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const isSpace = (c: number | undefined): boolean => c !== undefined && WHITESPACE.has(c);
const isAlpha = (c: number | undefined): boolean =>
  c !== undefined && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));

interface Attribute {
  readonly name: string;
  readonly value: string;
}

/** The HTML spec's "get an attribute" step of the prescan, over a latin1 view of the bytes. */
function getAttribute(s: string, start: number): { attr: Attribute | null; end: number } {
  let i = start;
  while (i < s.length && (isSpace(s.charCodeAt(i)) || s[i] === '/')) i++;
  if (i >= s.length || s[i] === '>') return { attr: null, end: i };
  let name = '';
  while (i < s.length) {
    const ch = s[i] ?? '';
    if (ch === '=' && name !== '') break;
    if (isSpace(s.charCodeAt(i)) || ch === '/' || ch === '>') break;
    name += ch.toLowerCase();
    i++;
  }
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  if (s[i] !== '=') return { attr: { name, value: '' }, end: i };
  i++;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  const quote = s[i];
  let value = '';
  if (quote === '"' || quote === "'") {
    const close = s.indexOf(quote, i + 1);
    if (close < 0) return { attr: null, end: s.length };
    value = s.slice(i + 1, close);
    i = close + 1;
  } else {
    while (i < s.length && !isSpace(s.charCodeAt(i)) && s[i] !== '>') value += s[i++];
  }
  return { attr: { name, value: value.toLowerCase() }, end: i };
}

/** The HTML spec's "extracting a character encoding from a meta element" (the content attribute). */
export function charsetFromMetaContent(content: string): string | null {
  let from = 0;
  for (;;) {
    const at = content.toLowerCase().indexOf('charset', from);
    if (at < 0) return null;
    let i = at + 'charset'.length;
    while (isSpace(content.charCodeAt(i))) i++;
    if (content[i] !== '=') {
      from = i;
      continue;
    }
    i++;
    while (isSpace(content.charCodeAt(i))) i++;
    const quote = content[i];
    if (quote === '"' || quote === "'") {
      const close = content.indexOf(quote, i + 1);
      return close < 0 ? null : content.slice(i + 1, close);
    }
    const rest = content.slice(i);
    const value = /^[^\s;]*/.exec(rest)?.[0] ?? '';
    return value === '' ? null : value;
  }
}

function metaEncoding(attributes: Attribute[]): string | null {
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let charset: string | null = null;
  for (const { name, value } of attributes) {
    if (name === 'http-equiv' && value === 'content-type') gotPragma = true;
    else if (name === 'content' && charset === null) {
      const found = charsetFromMetaContent(value);
      if (found !== null) {
        charset = found;
        needPragma = true;
      }
    } else if (name === 'charset') {
      charset = value;
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || charset === null) return null;
  const encoding = resolveEncodingLabel(charset);
  // A document cannot declare itself UTF-16 in ASCII-compatible bytes; the spec says UTF-8.
  return encoding?.startsWith('utf-16') ? 'utf-8' : encoding;
}

/**
 * The HTML spec's prescan for `<meta charset>` / `<meta http-equiv="content-type">` over the
 * first `maxBytes` bytes (the spec says 1024; real pages often put long scripts first). Skips
 * comments and the attributes of other tags so a `charset=` inside them is not taken.
 */
export function prescanMetaCharset(bytes: Uint8Array, maxBytes = 4096): string | null {
  const s = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, maxBytes)).toString('latin1');
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 2);
      if (end < 0) return null;
      i = end + 3;
      continue;
    }
    if (/^<meta[\s/]/i.test(s.slice(i, i + 6))) {
      const attributes: Attribute[] = [];
      const names = new Set<string>();
      let j = i + 5;
      for (;;) {
        const { attr, end } = getAttribute(s, j);
        j = end;
        if (!attr) break;
        if (!names.has(attr.name)) attributes.push(attr);
        names.add(attr.name);
      }
      const encoding = metaEncoding(attributes);
      if (encoding !== null) return encoding;
      i = j + 1;
      continue;
    }
    if (s[i] === '<' && (isAlpha(s.charCodeAt(i + 1)) || (s[i + 1] === '/' && isAlpha(s.charCodeAt(i + 2))))) {
      let j = i + 1;
      while (j < s.length && !isSpace(s.charCodeAt(j)) && s[j] !== '>') j++;
      for (;;) {
        const { attr, end } = getAttribute(s, j);
        j = end;
        if (!attr) break;
      }
      i = j + 1;
      continue;
    }
    if (s.startsWith('<!', i) || s.startsWith('</', i) || s.startsWith('<?', i)) {
      const end = s.indexOf('>', i + 2);
      if (end < 0) return null;
      i = end + 1;
      continue;
    }
    i++;
  }
  return null;
}
