import { parseTimestamp } from '@quarry/core';
import CFB from 'cfb';
import { escapeLineStart, quoted } from './markdown-table.js';
import type { DocumentMetadata } from './types.js';

type Container = ReturnType<typeof CFB.read>;

/** Opens an OLE2 compound file (legacy .doc/.xls/.ppt); throws on anything else. */
export function openOle(bytes: Uint8Array): Container {
  return CFB.read(bytes, { type: 'buffer' });
}

/**
 * Which legacy format an OLE2 file is, by its main stream ([MS-DOC] `WordDocument`, [MS-PPT]
 * `PowerPoint Document`, [MS-XLS] `Workbook`, or `Book` for Excel 5), or null for none of them.
 */
export function oleKind(ole: Container): 'doc' | 'ppt' | 'xls' | null {
  const has = (name: string) => CFB.find(ole, name) != null;
  if (has('WordDocument')) return 'doc';
  if (has('PowerPoint Document')) return 'ppt';
  if (has('Workbook') || has('Book')) return 'xls';
  return null;
}

function streamBytes(ole: Container, name: string): Buffer | null {
  const entry = CFB.find(ole, name);
  if (!entry || entry.content == null || entry.content.length === 0) return null;
  return Buffer.from(entry.content as Uint8Array);
}

const PID_CODEPAGE = 1;
const PID_TITLE = 2;
const PID_AUTHOR = 4;
const PID_CREATE_DTM = 12;
const VT_I2 = 0x02;
const VT_LPSTR = 0x1e;
const VT_LPWSTR = 0x1f;
const VT_FILETIME = 0x40;
/** 100-ns ticks between 1601-01-01 (FILETIME epoch) and 1970-01-01. */
const FILETIME_UNIX_OFFSET = 116_444_736_000_000_000n;
const MAX_PROPERTY_CHARS = 1_000;

/**
 * Title, author and creation time from the `\x05SummaryInformation` property set
 * ([MS-OLEPS]), which Word, Excel and PowerPoint all write. Missing or malformed → nulls.
 */
export function oleSummary(ole: Container): DocumentMetadata {
  const none: DocumentMetadata = { title: null, author: null, published_at: null };
  const buf = streamBytes(ole, '\u0005SummaryInformation');
  if (!buf || buf.length < 48) return none;
  try {
    const sectionStart = buf.readUInt32LE(44);
    const count = buf.readUInt32LE(sectionStart + 4);
    const offsets = new Map<number, number>();
    for (let i = 0; i < Math.min(count, 64); i++) {
      const at = sectionStart + 8 + i * 8;
      offsets.set(buf.readUInt32LE(at), sectionStart + buf.readUInt32LE(at + 4));
    }
    const codepageAt = offsets.get(PID_CODEPAGE);
    const codepage =
      codepageAt !== undefined && buf.readUInt16LE(codepageAt) === VT_I2 ? buf.readUInt16LE(codepageAt + 4) : 1252;
    const read = (pid: number): string | Date | null => {
      const at = offsets.get(pid);
      return at === undefined ? null : readProperty(buf, at, codepage);
    };
    const title = read(PID_TITLE);
    const author = read(PID_AUTHOR);
    const created = read(PID_CREATE_DTM);
    return {
      title: typeof title === 'string' ? title : null,
      author: typeof author === 'string' ? author : null,
      published_at: created instanceof Date ? parseTimestamp(created) : null,
    };
  } catch {
    return none;
  }
}

function readProperty(buf: Buffer, at: number, codepage: number): string | Date | null {
  const type = buf.readUInt16LE(at);
  if (type === VT_LPSTR) {
    const size = Math.min(buf.readUInt32LE(at + 4), MAX_PROPERTY_CHARS);
    return decodeCodepage(buf.subarray(at + 8, at + 8 + size), codepage);
  }
  if (type === VT_LPWSTR) {
    const chars = Math.min(buf.readUInt32LE(at + 4), MAX_PROPERTY_CHARS);
    return cleanString(buf.subarray(at + 8, at + 8 + chars * 2).toString('utf16le'));
  }
  if (type === VT_FILETIME) {
    const ticks = buf.readBigUInt64LE(at + 4);
    if (ticks === 0n) return null;
    return new Date(Number((ticks - FILETIME_UNIX_OFFSET) / 10_000n));
  }
  return null;
}

const CODEPAGE_LABELS: Readonly<Record<number, string>> = {
  1200: 'utf-16le',
  65001: 'utf-8',
  936: 'gbk',
  932: 'shift_jis',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
};

function decodeCodepage(bytes: Uint8Array, codepage: number): string | null {
  const label = CODEPAGE_LABELS[codepage] ?? `windows-${codepage}`;
  let text: string;
  try {
    text = new TextDecoder(label).decode(bytes);
  } catch {
    text = Buffer.from(bytes).toString('latin1');
  }
  return cleanString(text);
}

function cleanString(text: string): string | null {
  const value = text.replace(/\u0000.*$/s, '').trim();
  return value === '' ? null : value;
}

const RT_TEXT_CHARS_ATOM = 0x0fa0;
const RT_TEXT_BYTES_ATOM = 0x0fa8;
const RT_TEXT_HEADER_ATOM = 0x0f9f;
const RT_MAIN_MASTER = 0x03f8;
const RT_SLIDE = 0x03ee;
const RT_NOTES = 0x03f0;
const CONTAINER_VERSION = 0x0f;
const MAX_RECORD_DEPTH = 32;
/** TextHeaderAtom types ([MS-PPT] 2.13.33 TextTypeEnum): a title, a centred title, notes. */
const TX_TITLE = new Set([0, 6]);
const TX_NOTES = 2;

/**
 * Text of a legacy PowerPoint file: the TextCharsAtom / TextBytesAtom records of the
 * `PowerPoint Document` stream ([MS-PPT]), skipping master slides (their text is the template's
 * "Click to edit" placeholders, not the author's). Its Markdown heads each slide's section with
 * the slide's title (the text a TextHeaderAtom says is one), and writes speaker notes as quotes.
 */
export function pptText(ole: Container, maxChars: number): { text: string; markdown: string } {
  const stream = streamBytes(ole, 'PowerPoint Document');
  if (!stream) throw new Error('no PowerPoint Document stream');
  const parts: string[] = [];
  const blocks: string[] = [];
  let total = 0;
  let textType = -1;
  const walk = (start: number, end: number, depth: number, inNotes: boolean): void => {
    let at = start;
    while (at + 8 <= end && total < maxChars) {
      const version = stream.readUInt16LE(at) & 0x0f;
      const type = stream.readUInt16LE(at + 2);
      const length = stream.readUInt32LE(at + 4);
      const bodyEnd = Math.min(at + 8 + length, end);
      if (version === CONTAINER_VERSION) {
        if (type !== RT_MAIN_MASTER && depth < MAX_RECORD_DEPTH) {
          walk(at + 8, bodyEnd, depth + 1, type === RT_NOTES || (inNotes && type !== RT_SLIDE));
        }
      } else if (type === RT_TEXT_HEADER_ATOM && bodyEnd - at >= 12) {
        textType = stream.readUInt32LE(at + 8);
      } else if (type === RT_TEXT_CHARS_ATOM || type === RT_TEXT_BYTES_ATOM) {
        const body = stream.subarray(at + 8, bodyEnd);
        const text = type === RT_TEXT_CHARS_ATOM ? body.toString('utf16le') : body.toString('latin1');
        // A lone `*` is the placeholder PowerPoint stores for the slide-number field.
        if (text.trim() !== '*') {
          const plain = text.replace(/\r|\v/g, '\n');
          parts.push(plain);
          blocks.push(...slideBlocks(plain, TX_TITLE.has(textType) && !inNotes, inNotes && textType === TX_NOTES));
          total += text.length;
        }
      }
      at = bodyEnd;
    }
  };
  walk(0, stream.length, 0, false);
  return { text: parts.join('\n'), markdown: blocks.join('\n\n') };
}

/** One text of a slide as Markdown blocks: a title as the section's heading, notes as a quote. */
function slideBlocks(text: string, title: boolean, notes: boolean): string[] {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return [];
  if (title) return [`## ${lines.join(' ')}`];
  if (notes) return [quoted(lines.map(escapeLineStart).join('\n\n'))];
  return lines.map(escapeLineStart);
}
