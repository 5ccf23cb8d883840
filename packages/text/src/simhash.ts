/**
 * SimHash (Charikar 2002) of a page's text, for finding near-copies: two texts that share most of
 * their word 3-shingles get 64-bit hashes that differ in few bits, while unrelated texts differ in
 * about 32. Used to collapse near-copies (the same article under two URLs, with another date line
 * or footer) at query time, see `SIMHASH_NEAR_BITS`.
 *
 * Decisions:
 * - Text is NFKC-normalized and case-folded; a token is a run of letters and digits, or one Han or
 *   kana character (Chinese and Japanese have no spaces; a character is close enough to a word
 *   for shingling and needs no segmenter).
 * - Features are the overlapping 3-token shingles (a text of fewer tokens is one feature), each
 *   counted once per occurrence, each hashed to 64 bits as two 32-bit FNV-1a hashes with different
 *   offset bases, each finished with MurmurHash3's fmix32 so every input bit moves every output bit.
 * - Output: 16 lower-case hex digits, high word first.
 */

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;
const SHINGLE_TOKENS = 3;
const FNV_PRIME_32 = 0x01000193;
/** FNV-1a's offset basis, and a second one for the other half of the 64 bits. */
const OFFSET_BASIS_HIGH = 0x811c9dc5;
const OFFSET_BASIS_LOW = 0x050c5d1f;
const HASH_BITS = 64;

/**
 * Results whose SimHashes differ in at most this many bits are near-copies (about 97% of their
 * shingles shared, by the angle SimHash estimates: 64 × θ / π bits). Measured on the 65 shared
 * Readability pages (apps/crawler/src/near-copies.test.ts): copies with another date line and/or
 * footer come within 4 bits in 112 of 117 cases for pages of 300 words or more (about 100 at 3
 * bits), 163 of 195 over all pages (short pages vary more); different articles are never closer
 * than 20 bits, and pages sharing under half their shingles never closer than 10.
 */
export const SIMHASH_NEAR_BITS = 4;

/**
 * The 64-bit SimHash of a text as 16 hex digits, or null when the text has no word at all.
 *
 * @example simhash('The quick brown fox jumps over the lazy dog') // '…16 hex digits…'
 */
export function simhash(text: string): string | null {
  const tokens = text.normalize('NFKC').toLowerCase().match(TOKEN);
  if (!tokens) return null;
  const weights = new Int32Array(HASH_BITS);
  const add = (feature: string): void => {
    const high = hash32(feature, OFFSET_BASIS_HIGH);
    const low = hash32(feature, OFFSET_BASIS_LOW);
    for (let bit = 0; bit < 32; bit += 1) {
      weights[bit] = (weights[bit] ?? 0) + ((high >>> (31 - bit)) & 1 ? 1 : -1);
      weights[bit + 32] = (weights[bit + 32] ?? 0) + ((low >>> (31 - bit)) & 1 ? 1 : -1);
    }
  };
  if (tokens.length < SHINGLE_TOKENS) add(tokens.join(' '));
  for (let i = 0; i + SHINGLE_TOKENS <= tokens.length; i += 1) {
    add(`${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`);
  }
  let high = 0;
  let low = 0;
  for (let bit = 0; bit < 32; bit += 1) {
    high = (high << 1) | ((weights[bit] ?? 0) > 0 ? 1 : 0);
    low = (low << 1) | ((weights[bit + 32] ?? 0) > 0 ? 1 : 0);
  }
  return hex32(high) + hex32(low);
}

/**
 * Bits in which two SimHashes (16 hex digits each) differ, 0 to 64; null when either is not a
 * 16-hex-digit string (such results are never taken for near-copies).
 */
export function simhashDistance(a: string, b: string): number | null {
  if (!HEX64.test(a) || !HEX64.test(b)) return null;
  const high = (Number.parseInt(a.slice(0, 8), 16) ^ Number.parseInt(b.slice(0, 8), 16)) >>> 0;
  const low = (Number.parseInt(a.slice(8), 16) ^ Number.parseInt(b.slice(8), 16)) >>> 0;
  return popcount32(high) + popcount32(low);
}

const HEX64 = /^[0-9a-f]{16}$/i;

/** FNV-1a over UTF-16 code units, finished with MurmurHash3's fmix32. */
function hash32(text: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME_32);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
