import { isAscii } from 'node:buffer';
import { analyse } from 'chardet';
import { decodeWith, isValidUtf8, prescanMetaCharset, resolveEncodingLabel } from './charset.js';
import { parseContentType } from './content-type.js';

/** Where the encoding used by {@link decodeHtml} came from. */
export type CharsetSource = 'bom' | 'http' | 'meta' | 'sniff' | 'default';

/** The result of {@link decodeHtml}. */
export interface DecodedHtml {
  readonly text: string;
  /** WHATWG encoding name actually used (`utf-8`, `gbk`, `windows-1252`...). */
  readonly charset: string;
  readonly source: CharsetSource;
}

/** Options of {@link decodeHtml}. */
export interface DecodeHtmlOptions {
  /** The response's Content-Type header (its charset parameter is the HTTP declaration). */
  readonly contentType?: string;
  /** Bytes searched for `<meta charset>`. @defaultValue 4096 */
  readonly prescanBytes?: number;
}

/**
 * Bytes given to the statistical detector, from just before the first non-ASCII byte (the head of a
 * page is mostly ASCII markup that tells the detector nothing). The detector costs about half a
 * microsecond per byte, which made it the main thread's largest cost on undeclared pages at 16 KiB;
 * a few KiB already give every test page the same verdict.
 */
const SNIFF_SAMPLE_BYTES = 4 * 1024;
/** The sample also stops after this many non-ASCII bytes: a few hundred CJK characters decide. */
const SNIFF_NON_ASCII_BYTES = 1024;
/** Below this confidence (0-100) chardet's guess is not trusted over a declaration. */
const MIN_SNIFF_CONFIDENCE = 30;
/**
 * Valid non-ASCII characters per U+FFFD from which bytes read as UTF-8 are taken for UTF-8 with a
 * few stray bytes (a latin1 © pasted into a template) rather than another encoding. Legacy text
 * read as UTF-8 gives about 0.3 (GBK, Big5, Shift_JIS and EUC pairs form valid sequences by chance)
 * or 0 (single-byte encodings); among 20,000 random runs of 1 to 50 characters of GBK (the Chinese
 * test pages), Big5, Shift_JIS, EUC-JP and EUC-KR text each, none reached 8, the highest was 4.
 */
const MIN_UTF8_VALID_PER_INVALID = 8;

function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  return null;
}

function hasNonAscii(bytes: Uint8Array): boolean {
  return !isAscii(bytes);
}

function countReplacements(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) count++;
  return count;
}

/** Whether text decoded as UTF-8 is mostly real characters, its U+FFFDs a few stray bytes. */
/** The non-ASCII characters of bytes read as UTF-8: valid ones, and U+FFFD for invalid bytes. */
function utf8Counts(utf8Text: string): { valid: number; invalid: number } {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < utf8Text.length; i++) {
    const code = utf8Text.charCodeAt(i);
    // A character outside the BMP is two code units: its low surrogate is not counted again.
    if (code < 0x80 || (code >= 0xdc00 && code <= 0xdfff)) continue;
    if (code === 0xfffd) invalid++;
    else valid++;
  }
  return { valid, invalid };
}

function isMostlyUtf8(utf8Text: string): boolean {
  const { valid, invalid } = utf8Counts(utf8Text);
  return valid >= invalid * MIN_UTF8_VALID_PER_INVALID;
}

/** The text of bytes that are UTF-8, or UTF-8 but for a few stray bytes; null for anything else. */
function decodeIfUtf8(bytes: Uint8Array): string | null {
  if (isValidUtf8(bytes)) return decodeWith(bytes, 'utf-8');
  const text = decodeWith(bytes, 'utf-8');
  return isMostlyUtf8(text) ? text : null;
}

/** Thai letters a sample must hold before its spelling is judged (see looksLikeThai). */
const MIN_THAI_LETTERS = 60;
/** Misspelt marks per Thai letter up to which a sample is taken for Thai. */
const MAX_THAI_MISSPELT = 0.02;
/**
 * The least share of non-ASCII bytes that are Thai's commonest signs: `า` (0xD2), the leading vowels
 * (0xE0–0xE4) and the tone marks (0xE8–0xEB). About 22% of Thai text; about 4% of Korean in EUC-KR,
 * whose trail bytes fall on them by chance (its lead bytes are TIS-620 consonants, so Korean spells
 * well enough by the rules alone).
 */
const MIN_THAI_SIGNS = 0.1;

/** A byte's class in TIS-620 (windows-874's Thai half, 0xA1–0xFB): what may come before and after it. */
function thaiClass(byte: number): 'consonant' | 'mark' | 'leading' | 'other' | 'none' {
  if (byte >= 0xa1 && byte <= 0xce) return 'consonant';
  // Vowels and tone marks written above or below the consonant before them (ั ิ ี ึ ื ุ ู ฺ ็ ่ ้ ๊ ๋ ์ ํ ๎).
  if (byte === 0xd1 || (byte >= 0xd4 && byte <= 0xda) || (byte >= 0xe7 && byte <= 0xee)) return 'mark';
  // Vowels written before the consonant they follow in speech (เ แ โ ใ ไ).
  if (byte >= 0xe0 && byte <= 0xe4) return 'leading';
  if ((byte >= 0xcf && byte <= 0xd3) || (byte >= 0xdf && byte <= 0xfb) || byte === 0xa0) return 'other';
  // windows-874's punctuation (ellipsis, curly quotes, dashes).
  if (byte === 0x80 || byte === 0x85 || (byte >= 0x91 && byte <= 0x97)) return 'other';
  return 'none';
}

/**
 * Whether non-ASCII bytes are Thai in windows-874 (TIS-620), which chardet does not know (it took a
 * Thai page for EUC-JP or EUC-KR): every byte is one of the encoding's, and the marks written above
 * and below a consonant follow one, a leading vowel comes before one, and Thai's commonest signs are
 * common. Chinese and Japanese double-byte text read this way holds bytes outside it or misspells at
 * once; Korean lacks the signs.
 */
function looksLikeThai(sample: Uint8Array): boolean {
  let letters = 0;
  let misspelt = 0;
  let nonAscii = 0;
  let signs = 0;
  // Double-byte text runs an even number of bytes between its ASCII bytes, every run; Thai does not.
  let run = 0;
  let oddRun = false;
  let before: ReturnType<typeof thaiClass> | 'ascii' = 'ascii';
  for (const byte of sample) {
    const kind = byte < 0x80 ? 'ascii' : thaiClass(byte);
    if (kind === 'none') return false;
    if (kind === 'ascii') {
      if (run % 2 === 1) oddRun = true;
      run = 0;
    } else {
      nonAscii++;
      run++;
    }
    if (byte === 0xd2 || (byte >= 0xe0 && byte <= 0xe4) || (byte >= 0xe8 && byte <= 0xeb)) signs++;
    if (kind === 'consonant') letters++;
    if (kind === 'mark' && before !== 'consonant' && before !== 'mark') misspelt++;
    if (before === 'leading' && kind !== 'consonant') misspelt++;
    before = kind;
  }
  if (run % 2 === 1) oddRun = true;
  return (
    oddRun &&
    letters >= MIN_THAI_LETTERS &&
    misspelt <= letters * MAX_THAI_MISSPELT &&
    signs >= nonAscii * MIN_THAI_SIGNS
  );
}

/** chardet's best guess as a WHATWG encoding name, or null when it has none worth trusting. */
function sniffEncoding(bytes: Uint8Array, minConfidence = MIN_SNIFF_CONFIDENCE): string | null {
  const firstNonAscii = bytes.findIndex((byte) => byte >= 0x80);
  const start = Math.max(0, firstNonAscii - 64);
  let end = Math.min(bytes.length, start + SNIFF_SAMPLE_BYTES);
  let nonAscii = 0;
  for (let i = start; i < end; i++) {
    if ((bytes[i] as number) >= 0x80 && ++nonAscii >= SNIFF_NON_ASCII_BYTES) end = i + 1;
  }
  const sample = bytes.subarray(start, end);
  if (looksLikeThai(sample)) return 'windows-874';
  for (const match of analyse(sample)) {
    if (match.confidence < minConfidence) break;
    // chardet reports GB18030 for all simplified-Chinese legacy pages; WHATWG's gb18030 decoder
    // is a superset of gbk, and ISO-8859-1 guesses are decoded as windows-1252 as browsers do.
    const encoding = resolveEncodingLabel(match.name);
    if (encoding !== null && !encoding.startsWith('utf-16') && !encoding.startsWith('utf-32')) return encoding;
  }
  return null;
}

/**
 * Picks the sniffed encoding over a declared one when the declaration is clearly wrong: the
 * declared decoding produces replacement characters and the sniffed one produces far fewer.
 */
function correctDeclared(bytes: Uint8Array, declared: string, source: CharsetSource): DecodedHtml {
  // Valid multi-byte UTF-8 almost never happens by chance in a legacy encoding: pages labelled
  // gb2312 or iso-8859-1 that are really UTF-8 (stray bytes and all) are common, the reverse
  // mistake is not.
  if (declared !== 'utf-8' && hasNonAscii(bytes)) {
    const utf8 = decodeIfUtf8(bytes);
    if (utf8 !== null) return { text: utf8, charset: 'utf-8', source: 'sniff' };
  }
  const text = decodeWith(bytes, declared);
  const bad = countReplacements(text);
  if (bad === 0) return { text, charset: declared, source };
  // A single-byte guess never produces U+FFFD, so it would always beat a UTF-8 page with one stray
  // byte and turn all of its real UTF-8 into mojibake; a few U+FFFD are the lesser harm.
  if (declared === 'utf-8' && isMostlyUtf8(text)) return { text, charset: declared, source };
  const sniffed = sniffEncoding(bytes);
  if (sniffed === null || sniffed === declared) return { text, charset: declared, source };
  const alternative = decodeWith(bytes, sniffed);
  if (countReplacements(alternative) * 4 < bad) return { text: alternative, charset: sniffed, source: 'sniff' };
  return { text, charset: declared, source };
}

/**
 * Decodes an HTML body the way browsers choose its encoding (WHATWG order): byte order mark,
 * then the HTTP charset, then `<meta charset>` found by the HTML prescan, then statistical
 * sniffing, then UTF-8. A declared charset that is clearly wrong (bytes invalid in it that decode
 * cleanly in the sniffed encoding) is corrected; bytes that are UTF-8 but for a few stray bytes are
 * read as UTF-8. Labels map as WHATWG says (gb2312 → gbk, iso-8859-1 → windows-1252).
 *
 * @example decodeHtml(body, { contentType: 'text/html; charset=gb2312' }) // { text, charset: 'gbk', source: 'http' }
 */
export function decodeHtml(body: Uint8Array, options: DecodeHtmlOptions = {}): DecodedHtml {
  const bom = bomEncoding(body);
  if (bom) {
    return { text: decodeWith(body.subarray(bom.length), bom.encoding), charset: bom.encoding, source: 'bom' };
  }
  const httpLabel = parseContentType(options.contentType).charset;
  const httpEncoding = httpLabel === undefined ? null : resolveEncodingLabel(httpLabel);
  if (httpEncoding !== null) return correctDeclared(body, httpEncoding, 'http');
  const metaEncoding = prescanMetaCharset(body, options.prescanBytes);
  if (metaEncoding !== null) return correctDeclared(body, metaEncoding, 'meta');
  if (!hasNonAscii(body)) return { text: decodeWith(body, 'utf-8'), charset: 'utf-8', source: 'default' };
  const utf8 = decodeIfUtf8(body);
  if (utf8 !== null) return { text: utf8, charset: 'utf-8', source: 'sniff' };
  const sniffed = sniffEncoding(body);
  if (sniffed !== null) return { text: decodeWith(body, sniffed), charset: sniffed, source: 'sniff' };
  // No guess is sure (a short page: 200 letters of Russian in windows-1251 scored 28, KOI8-R 23,
  // Greek 21), but bytes of which UTF-8 reads more invalid than valid characters are no UTF-8:
  // the likeliest encoding beats a page of nothing but U+FFFD, which no query finds.
  const text = decodeWith(body, 'utf-8');
  const { valid, invalid } = utf8Counts(text);
  const guess = invalid > valid ? sniffEncoding(body, 0) : null;
  if (guess !== null) return { text: decodeWith(body, guess), charset: guess, source: 'sniff' };
  return { text, charset: 'utf-8', source: 'default' };
}
