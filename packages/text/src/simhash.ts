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
  const ones = new BitCounts();
  if (tokens.length < SHINGLE_TOKENS) {
    const feature = tokens.join(' ');
    ones.add(hash32(feature, OFFSET_BASIS_HIGH), hash32(feature, OFFSET_BASIS_LOW));
  }
  for (let i = 0; i + SHINGLE_TOKENS <= tokens.length; i += 1) {
    const [a, b, c] = [tokens[i]!, tokens[i + 1]!, tokens[i + 2]!];
    ones.add(shingleHash(a, b, c, OFFSET_BASIS_HIGH), shingleHash(a, b, c, OFFSET_BASIS_LOW));
  }
  // A bit is set where more features have it than not (the sum of ±1 per feature is positive).
  const counts = ones.counts();
  let high = 0;
  let low = 0;
  for (let bit = 0; bit < 32; bit += 1) {
    high = (high << 1) | (2 * counts[bit]! > ones.features ? 1 : 0);
    low = (low << 1) | (2 * counts[bit + 32]! > ones.features ? 1 : 0);
  }
  return hex32(high) + hex32(low);
}

/**
 * How many features have each of the 64 bits set (bit 0 the high word's most significant). Four
 * 32-bit accumulators per word hold eight 4-bit counters each (bits k, k + 4, … of the word), so a
 * feature costs eight masked adds instead of 64; they are emptied into the counts every 15 features,
 * before a counter can overflow. Building the shingle strings and counting bit by bit had made the
 * SimHash a third of `quarry import`'s main-thread time (0.9 ms a 10 KB page).
 */
class BitCounts {
  features = 0;
  readonly #counts = new Int32Array(HASH_BITS);
  readonly #lanes = new Int32Array(8);
  #pending = 0;

  add(high: number, low: number): void {
    const lanes = this.#lanes;
    for (let k = 0; k < 4; k += 1) {
      lanes[k]! += (high >>> k) & NIBBLE_LOW_BITS;
      lanes[k + 4]! += (low >>> k) & NIBBLE_LOW_BITS;
    }
    this.features += 1;
    if (++this.#pending === 15) this.#flush();
  }

  counts(): Int32Array {
    this.#flush();
    return this.#counts;
  }

  #flush(): void {
    const lanes = this.#lanes;
    for (let k = 0; k < 4; k += 1) {
      for (let nibble = 0; nibble < 8; nibble += 1) {
        // Bit 4·nibble + k from the least significant end is bit 31 − that from the most significant.
        const bit = 31 - (4 * nibble + k);
        this.#counts[bit]! += (lanes[k]! >>> (4 * nibble)) & 0xf;
        this.#counts[bit + 32]! += (lanes[k + 4]! >>> (4 * nibble)) & 0xf;
      }
    }
    lanes.fill(0);
    this.#pending = 0;
  }
}

/** Every fourth bit of a word, from the least significant. */
const NIBBLE_LOW_BITS = 0x11111111;
const SPACE = 0x20;

/** {@link hash32} of `${a} ${b} ${c}`, without building the string. */
function shingleHash(a: string, b: string, c: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < a.length; i += 1) h = Math.imul(h ^ a.charCodeAt(i), FNV_PRIME_32);
  h = Math.imul(h ^ SPACE, FNV_PRIME_32);
  for (let i = 0; i < b.length; i += 1) h = Math.imul(h ^ b.charCodeAt(i), FNV_PRIME_32);
  h = Math.imul(h ^ SPACE, FNV_PRIME_32);
  for (let i = 0; i < c.length; i += 1) h = Math.imul(h ^ c.charCodeAt(i), FNV_PRIME_32);
  return fmix32(h);
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
  return fmix32(h);
}

/** MurmurHash3's finalizer: every input bit moves every output bit. */
function fmix32(value: number): number {
  let h = value;
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
