import { describe, expect, it } from '@jest/globals';
import iconv from 'iconv-lite';
import { decodeWith, resolveEncodingLabel } from './charset.js';

/** The WHATWG single-byte encodings (their indexes cover every byte from 0x80 to 0xFF). */
const SINGLE_BYTE = [
  'ibm866',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'iso-8859-8-i',
  'iso-8859-10',
  'iso-8859-13',
  'iso-8859-14',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'macintosh',
  'windows-874',
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
];

/** Bytes iconv-lite decodes from older Apple tables than the WHATWG macintosh index. */
const MACINTOSH_WHATWG: ReadonlyMap<number, string> = new Map([
  [0xbd, '\u03a9'], // Ω, where iconv-lite has the ohm sign
  [0xdb, '\u20ac'], // €, where iconv-lite has ¤
  [0xf0, '\uf8ff'], // the Apple logo, where iconv-lite has U+FFFD
]);

describe('decodeWith', () => {
  it('decodes windows-1252 punctuation under every label that means windows-1252', () => {
    const sentence = 'très élégant — naïve €, “quoted” ‘x’ ™ … Œuvre Šíp';
    const bytes = iconv.encode(sentence, 'windows-1252');
    for (const label of ['windows-1252', 'iso-8859-1', 'latin1', 'ascii', 'us-ascii', 'cp1252', 'l1', 'iso88591']) {
      const encoding = resolveEncodingLabel(label);
      expect([label, encoding]).toEqual([label, 'windows-1252']);
      expect([label, decodeWith(bytes, encoding ?? '')]).toEqual([label, sentence]);
      expect([label, decodeWith(bytes, label)]).toEqual([label, sentence]);
    }
  });

  it('keeps the five bytes windows-1252 leaves undefined as C1 controls, as WHATWG says', () => {
    expect(decodeWith(Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]), 'windows-1252')).toBe('\x81\x8d\x8f\x90\x9d');
  });

  it('decodes every byte of every single-byte encoding as WHATWG does (iconv-lite, but for its gaps)', () => {
    const disagreements: string[] = [];
    for (const encoding of SINGLE_BYTE) {
      for (let byte = 0x80; byte <= 0xff; byte++) {
        const ours = decodeWith(Buffer.from([byte]), encoding);
        const theirs = iconv.decode(Buffer.from([byte]), encoding);
        const expected = (encoding === 'macintosh' && MACINTOSH_WHATWG.get(byte)) || theirs;
        // Where iconv-lite gives U+FFFD for 0x80-0x9F, the WHATWG windows-125x indexes keep the C1
        // control of the same value (what Windows itself does).
        const undefinedByte = byte <= 0x9f && expected === '\uFFFD' && ours === String.fromCharCode(byte);
        if (ours !== expected && !undefinedByte) {
          disagreements.push(`${encoding} 0x${byte.toString(16)}: ${ours} instead of ${expected}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
