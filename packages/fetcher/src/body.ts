import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { nonRetryable } from './errors.js';

/** What {@link readLimitedBody} returns. */
export interface LimitedBody {
  readonly body: Buffer;
  /** True when the body was cut at the limit (only in truncate mode). */
  readonly truncated: boolean;
}

/** Content codings we decode ourselves; anything else is refused rather than stored as garbage. */
const MAX_CODINGS = 2;

/** Thrown inside the pipeline to stop it once enough bytes are kept in truncate mode. */
class EnoughBytes extends Error {}

/**
 * Accepts zlib-wrapped (RFC 1950) and raw (RFC 1951) deflate alike: servers send both for
 * `Content-Encoding: deflate`, so the first two bytes decide which inflater to use.
 */
class AutoInflate extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.#inner) {
      const b0 = chunk[0] ?? 0;
      const b1 = chunk[1] ?? 0;
      const zlibWrapped = (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
      const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
      this.#inner = zlibWrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
      this.#inner.on('data', (data: Buffer) => this.push(data));
      this.#inner.on('error', (error) => this.destroy(error));
    }
    this.#inner.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    if (!this.#inner) {
      done();
      return;
    }
    this.#inner.once('end', () => done());
    this.#inner.end();
  }
}

function decoderFor(coding: string): Transform | null {
  // Z_SYNC_FLUSH: tolerate a stream cut short, as browsers do; the size limits still hold.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'deflate':
      return new AutoInflate();
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return null;
  }
}

/** Parses a Content-Encoding header into the codings to undo, outermost first. */
export function contentCodings(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
}

function byteCounter(maxBytes: number, truncate: boolean): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.length;
      if (total <= maxBytes) return done(null, chunk);
      done(truncate ? new EnoughBytes() : nonRetryable('too_large', `compressed body exceeds ${maxBytes} bytes`));
    },
  });
}

/**
 * Reads a response body, undoing its content codings, with `maxBodyBytes` enforced both on the
 * bytes received and on the decoded bytes (so a compression bomb costs at most the limit).
 * Over the limit it throws `too_large`, or with `truncate` keeps the first `maxBodyBytes` decoded
 * bytes. An unknown coding throws `unsupported_encoding`; a corrupt stream throws `bad_encoding`.
 */
export async function readLimitedBody(
  stream: Readable,
  contentEncoding: string | undefined,
  maxBodyBytes: number,
  truncate: boolean,
): Promise<LimitedBody> {
  const codings = contentCodings(contentEncoding);
  const decoders: Transform[] = [];
  for (const coding of codings) {
    const decoder = decoderFor(coding);
    if (!decoder || decoders.length >= MAX_CODINGS) {
      stream.destroy();
      throw nonRetryable('unsupported_encoding', `unsupported content encoding: ${contentEncoding ?? ''}`);
    }
    decoders.push(decoder);
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  // The sink enforces the decoded limit itself, so in truncate mode every kept byte is stored
  // before the pipeline is stopped.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const room = maxBodyBytes - kept;
      if (chunk.length <= room) {
        chunks.push(chunk);
        kept += chunk.length;
        return done();
      }
      if (!truncate) return done(nonRetryable('too_large', `body exceeds ${maxBodyBytes} bytes`));
      chunks.push(chunk.subarray(0, room));
      kept += room;
      done(new EnoughBytes());
    },
  });
  // Received bytes are bounded too when decoding, or a stream that decodes to little (or
  // nothing) would be read forever.
  const stages: (Readable | Transform | Writable)[] =
    decoders.length > 0 ? [stream, byteCounter(maxBodyBytes, truncate), ...decoders, sink] : [stream, sink];
  try {
    await pipeline(stages);
  } catch (error) {
    if (error instanceof EnoughBytes) {
      truncated = true;
    } else if (isZlibError(error)) {
      throw nonRetryable('bad_encoding', 'corrupt compressed body', error);
    } else {
      throw error;
    }
  }
  return { body: Buffer.concat(chunks), truncated };
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}
