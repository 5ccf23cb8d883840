import { NonRetryableError, parseTimestamp } from '@quarry/core';
import { XMLParser } from 'fast-xml-parser';
import { strFromU8, Unzip, UnzipInflate, zipSync } from 'fflate';
import type { DocumentMetadata } from './types.js';

/** Entries of an OOXML package by path. */
export type ZipEntries = Record<string, Uint8Array>;

/** Compressed bytes fed to the inflater per step: bounds the output of one step to ~1000×. */
const UNZIP_SLICE_BYTES = 16 * 1024;
const MAX_ZIP_ENTRIES = 10_000;

/**
 * Parts of a package no reader takes text from: pictures, embedded files and thumbnails (OOXML
 * `word/media/`, `ppt/embeddings/`, `docProps/thumbnail.jpeg`; OpenDocument `Pictures/`,
 * `Thumbnails/`). Most of a large document's bytes are these: a report with 300 MB of photos failed
 * as `document_too_large` for text that would have fitted many times over.
 */
const UNREAD_PART = /^(?:(?:word|ppt|xl)\/(?:media|embeddings)\/|docProps\/thumbnail\.|Pictures\/|Thumbnails\/)/;

/**
 * Unzips an OOXML or OpenDocument package counting the bytes actually inflated (not the sizes the
 * archive claims), and stops with `document_too_large` once `maxUnzippedBytes` is passed: a zip
 * bomb costs at most one slice's output beyond the cap. Pictures and embedded files are not
 * inflated at all (see {@link UNREAD_PART}): they are listed empty, so a reader that looks a
 * picture up still finds its part.
 */
export function unzipBounded(bytes: Uint8Array, maxUnzippedBytes: number): ZipEntries {
  const entries: ZipEntries = {};
  let total = 0;
  let count = 0;
  const unzip = new Unzip((file) => {
    count += 1;
    if (count > MAX_ZIP_ENTRIES) throw new NonRetryableError('too many zip entries', 'document_too_large');
    if (UNREAD_PART.test(file.name)) {
      // Never started: its compressed bytes are passed over, nothing is inflated.
      entries[file.name] = new Uint8Array(0);
      return;
    }
    const chunks: Uint8Array[] = [];
    file.ondata = (err, chunk, final) => {
      if (err) throw err;
      total += chunk.length;
      if (total > maxUnzippedBytes) {
        throw new NonRetryableError(`document unzips to more than ${maxUnzippedBytes} bytes`, 'document_too_large');
      }
      chunks.push(chunk);
      if (final) entries[file.name] = concat(chunks);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < bytes.length; at += UNZIP_SLICE_BYTES) {
    unzip.push(bytes.subarray(at, at + UNZIP_SLICE_BYTES), at + UNZIP_SLICE_BYTES >= bytes.length);
  }
  if (count === 0) throw new Error('not a zip archive');
  return entries;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Re-packs checked entries without compression, so a library that unzips on its own (mammoth,
 * SheetJS) only ever sees sizes we have already counted.
 */
export function rezip(entries: ZipEntries): Uint8Array {
  return zipSync(entries, { level: 0 });
}

const xml = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  processEntities: true,
});

/** Title, author and creation date from `docProps/core.xml` (Dublin Core), nulls when absent. */
export function ooxmlCoreProperties(entries: ZipEntries): DocumentMetadata {
  const core = entries['docProps/core.xml'];
  const none: DocumentMetadata = { title: null, author: null, published_at: null };
  if (!core) return none;
  try {
    const props = (xml.parse(strFromU8(core)) as { coreProperties?: Record<string, unknown> }).coreProperties;
    if (!props) return none;
    return {
      title: textValue(props.title),
      author: textValue(props.creator),
      published_at: parseTimestamp(textValue(props.created)),
    };
  } catch {
    return none;
  }
}

function textValue(value: unknown): string | null {
  const raw = typeof value === 'object' && value !== null && '#text' in value ? value['#text'] : value;
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = String(raw).trim();
  return text === '' ? null : text.slice(0, 1_000);
}
