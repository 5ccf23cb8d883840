import { createReadStream } from 'node:fs';

/** One line of a text file, without its line break. */
export interface FileLine {
  /** The line, decoded as UTF-8; null when it has more than `maxBytes` bytes (they are skipped unread). */
  readonly text: string | null;
  /** Bytes of the file up to the end of this line, its line break included. */
  readonly bytesRead: number;
}

/** Options of {@link readLines}. */
export interface ReadLinesOptions {
  /** Longest line decoded, in bytes; a longer one comes as `text: null`. @defaultValue no limit */
  readonly maxBytes?: number;
  /** Bytes read at a time. @defaultValue 1 MiB */
  readonly chunkBytes?: number;
}

/**
 * The lines of a UTF-8 file (LF or CRLF). The file is read in large chunks of bytes, cut at newline
 * bytes (a newline byte is never part of a multi-byte character) and each line decoded once. An
 * import of large JSONL files spent about as long in `node:readline` as in parsing the JSON: it
 * decodes each chunk into a string, then splits it with a regular expression and joins the pieces
 * of a line split across chunks. A line longer than `maxBytes` is not kept in memory while it is
 * read: its bytes are dropped as they come, and it is reported as `text: null`.
 */
export async function* readLines(path: string, options: ReadLinesOptions = {}): AsyncGenerator<FileLine> {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  /** The line whose last bytes are `end` (the pending bytes before them), ending at `endAt`. */
  const line = (end: Buffer, endAt: number): FileLine => {
    const skipped = pendingBytes + end.length > maxBytes;
    const bytes = skipped ? null : pending.length === 0 ? end : Buffer.concat([...pending, end]);
    pending = [];
    pendingBytes = 0;
    if (bytes === null) return { text: null, bytesRead: endAt };
    const length = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return { text: bytes.toString('utf8', 0, length), bytesRead: endAt };
  };
  for await (const chunk of createReadStream(path, { highWaterMark: options.chunkBytes ?? 1 << 20 })) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (let newline = buffer.indexOf(0x0a); newline !== -1; newline = buffer.indexOf(0x0a, start)) {
      yield line(buffer.subarray(start, newline), offset + newline + 1);
      start = newline + 1;
    }
    if (start < buffer.length) {
      const rest = buffer.subarray(start);
      pendingBytes += rest.length;
      // The bytes of a line over the limit are only counted.
      if (pendingBytes <= maxBytes) pending.push(rest);
      else pending = [];
    }
    offset += buffer.length;
  }
  if (pendingBytes > 0) yield line(Buffer.alloc(0), offset);
}
