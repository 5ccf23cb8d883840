import { stat } from 'node:fs/promises';
import { type BlobStore, type PageDocument, readLines, type SearchIndex } from '@quarry/core';
import type { ImportLineResult, LangDetector, WordCounter } from './import-line.js';
import { type LineParser, localLineParser } from './line-parser.js';

/** Longest JSONL line read, in characters; a longer line is rejected without parsing. */
export const MAX_IMPORT_LINE_CHARS = 16 * 1024 * 1024;

/** Lines sent to the parser at a time, at most; a chunk also ends at {@link CHUNK_CHARS}. */
const CHUNK_LINES = 256;
const CHUNK_CHARS = 4 * 1024 * 1024;

export interface ImportOptions {
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  readonly countWords: WordCounter;
  readonly detectLang: LangDetector;
  /**
   * Parses the lines (e.g. on worker threads: `pooledLineParser`). @defaultValue every line on this
   * thread, with `countWords` and `detectLang`
   */
  readonly parser?: LineParser;
  /**
   * Documents written per index transaction (bigger transactions cost FTS5 less merge work per
   * document). @defaultValue 5000
   */
  readonly batchSize?: number;
  /** A batch is also written once its texts reach this many characters (bounds memory). @defaultValue 32 Mi */
  readonly batchChars?: number;
  /** Called for each rejected line, as it is found. */
  readonly onBadLine?: (lineNumber: number, reason: string) => void;
  /**
   * Called as the import moves: after each chunk of lines is parsed (`bytesRead` moves every few
   * hundred lines) and after each batch is written (`imported` moves every batch).
   */
  readonly onProgress?: (progress: ImportProgress) => void;
  /**
   * Stops the import (Ctrl-C): no further line is read, the batch being written is finished, lines
   * parsed but not written are dropped, and the summary says `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/** How far an import is: bytes of the file parsed, documents written, lines rejected. */
export interface ImportProgress {
  readonly bytesRead: number;
  readonly totalBytes: number;
  readonly imported: number;
  readonly failed: number;
}

/** Lines read but not parsed yet (`text` null: too long, rejected unread), up to where the file was read. */
interface Chunk {
  lines: { number: number; text: string | null }[];
  chars: number;
  bytesRead: number;
}

export interface ImportSummary {
  readonly imported: number;
  readonly failed: number;
  readonly lines: number;
  readonly elapsedMs: number;
  /** True when the signal stopped the import before the end of the file. */
  readonly interrupted: boolean;
}

/**
 * Streams a JSONL file into the index: each valid line becomes a document (blob first, then the
 * index entry, so a hit never points at a missing blob); each bad line is reported and skipped.
 * Re-importing a URL replaces its document (ids derive from the normalized URL).
 */
export async function importJsonl(file: string, options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const totalBytes = (await stat(file)).size;
  const batchSize = options.batchSize ?? 5000;
  const batchChars = options.batchChars ?? 32 * 1024 * 1024;
  // A line of more bytes than this has more characters than the limit (a character takes at most 3
  // bytes of UTF-8 per UTF-16 unit), so it is rejected without being decoded or held in memory.
  const lines = readLines(file, { maxBytes: 3 * MAX_IMPORT_LINE_CHARS });
  let bytesRead = 0;
  let lineNumber = 0;
  let imported = 0;
  let failed = 0;
  // Within one batch the last line for a URL wins, as it would across batches; `imported` counts
  // valid lines either way.
  let batch = new Map<string, PageDocument>();
  let linesInBatch = 0;
  let charsInBatch = 0;
  // One batch is written (blobs, then the index on its writer thread) while the next is parsed;
  // batches are written in order, so a later line for a URL still wins.
  let writing: Promise<void> = Promise.resolve();
  const progress = (): void => options.onProgress?.({ bytesRead, totalBytes, imported, failed });

  const flush = async (): Promise<void> => {
    if (batch.size === 0) return;
    const docs = [...batch.values()];
    const lineCount = linesInBatch;
    batch = new Map();
    linesInBatch = 0;
    charsInBatch = 0;
    await writing;
    writing = (async () => {
      await options.blobs.putMany(docs);
      await options.index.upsert(docs);
      imported += lineCount;
      progress();
    })();
    // Awaited at the next flush or at the end; this only keeps a failure from going unhandled meanwhile.
    writing.catch(() => {});
  };

  const rejected = (at: number, reason: string): void => {
    failed += 1;
    options.onBadLine?.(at, reason);
  };

  // Lines are parsed in chunks (on worker threads with a pooled parser), several at once, and their
  // results taken in line order: bad lines are reported in order and a later line for a URL wins.
  const parser = options.parser ?? localLineParser(options);
  let chunk: Chunk = { lines: [], chars: 0, bytesRead: 0 };
  const parsing: { chunk: Chunk; results: Promise<ImportLineResult[]> }[] = [];
  const send = (): void => {
    if (chunk.lines.length === 0) return;
    const texts = chunk.lines.flatMap(({ text }) => (text === null ? [] : [text]));
    const results = parser.parse(texts);
    results.catch(() => {});
    parsing.push({ chunk, results });
    chunk = { lines: [], chars: 0, bytesRead: 0 };
  };
  const take = async (): Promise<void> => {
    const next = parsing.shift();
    if (next === undefined) return;
    const results = await next.results;
    bytesRead = next.chunk.bytesRead;
    let at = 0;
    for (const { number, text } of next.chunk.lines) {
      if (text === null) {
        rejected(number, `line: longer than ${MAX_IMPORT_LINE_CHARS.toLocaleString('en-US')} characters`);
        continue;
      }
      const result = results[at++]!;
      if (!result.ok) {
        rejected(number, result.reason);
        continue;
      }
      batch.set(result.doc.id, result.doc);
      linesInBatch += 1;
      charsInBatch += text.length;
      if (batch.size >= batchSize || charsInBatch >= batchChars) await flush();
    }
    // A batch takes seconds to write; the bar also moves as each chunk of lines is parsed.
    progress();
  };

  const stopped = () => options.signal?.aborted === true;
  for await (const { text, bytesRead: through } of lines) {
    if (stopped()) break;
    lineNumber += 1;
    const line = text === null ? null : lineNumber === 1 ? text.replace(/^\uFEFF/, '') : text;
    if (line?.trim() === '') continue;
    const tooLong = line === null || line.length > MAX_IMPORT_LINE_CHARS;
    chunk.lines.push({ number: lineNumber, text: tooLong ? null : line });
    chunk.chars += tooLong ? 0 : line.length;
    chunk.bytesRead = through;
    if (chunk.lines.length >= CHUNK_LINES || chunk.chars >= CHUNK_CHARS) {
      send();
      while (parsing.length > parser.parallelism && !stopped()) await take();
    }
  }
  let complete = false;
  if (!stopped()) {
    send();
    while (parsing.length > 0 && !stopped()) await take();
    if (!stopped()) {
      await flush();
      complete = true;
    }
  }
  // Once stopped, chunks still being parsed and the unwritten batch are dropped: only the write
  // under way is waited for, so that the count said is what the index holds.
  await writing;
  return { imported, failed, lines: lineNumber, elapsedMs: performance.now() - started, interrupted: !complete };
}
