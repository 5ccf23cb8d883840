import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { FILETYPES, NonRetryableError } from '@quarry/core';
import { type ExtractJob, extractHere } from './extract-job.js';
import { runWorker, WorkerSlots } from './run-worker.js';
import {
  DOCUMENT_LIMIT_DEFAULTS,
  type DocumentFiletype,
  type DocumentLimits,
  type ExtractedDocument,
} from './types.js';

/** The share of `timeoutMs` a reader may spend reading part by part (a PDF's pages) before it stops. */
const PART_READING_SHARE = 0.5;

/** Every filetype but a page's (html, txt, md): see {@link DocumentFiletype}. */
const PAGE_FILETYPES: ReadonlySet<string> = new Set(['html', 'txt', 'md']);
const DOCUMENT_FILETYPES: ReadonlySet<string> = new Set(FILETYPES.filter((type) => !PAGE_FILETYPES.has(type)));

/**
 * Extraction workers running at once in this process, whatever the crawl's concurrency: one per
 * core, at most 4. Each may take its heap budget (512 MiB) and the unzipped parts beside it, and
 * every one more on a core slows the others towards their timeout: with one per crawl slot (8),
 * a crawl meeting four hostile files on two cores peaked at 2.2 GB and timed out files that read
 * in 5 to 13 s alone. The others wait their turn; their time starts with their worker.
 */
const DOCUMENT_WORKERS = new WorkerSlots(Math.min(4, availableParallelism()));

/**
 * Extracts plain text and properties (title, author, creation date) from a PDF or Office file.
 * The bytes are untrusted: they are read in a worker thread with a time and heap budget, OOXML
 * zips are inflated under a byte cap, and the text is bounded. Every failure is a
 * `NonRetryableError` with code `document_too_large`, `document_timeout`, `document_encrypted` (a
 * PDF that opens only with a password), `document_unreadable`
 * or `unsupported_filetype`.
 *
 * @example const { text, title } = await extractDocument(body, 'pdf', { timeoutMs: 10_000 });
 */
export async function extractDocument(
  bytes: Buffer | Uint8Array,
  filetype: DocumentFiletype,
  options: DocumentLimits = {},
): Promise<ExtractedDocument> {
  const limits = { ...DOCUMENT_LIMIT_DEFAULTS, ...options };
  if (!DOCUMENT_FILETYPES.has(filetype)) {
    throw new NonRetryableError(`not a document type: ${String(filetype)}`, 'unsupported_filetype');
  }
  if (bytes.length > limits.maxBytes) {
    throw new NonRetryableError(`document is ${bytes.length} bytes, over ${limits.maxBytes}`, 'document_too_large');
  }
  if (bytes.length === 0) throw new NonRetryableError('empty document', 'document_unreadable');
  const job: ExtractJob = {
    bytes: new Uint8Array(bytes),
    filetype,
    maxTextChars: limits.maxTextChars,
    maxUnzippedBytes: limits.maxUnzippedBytes,
    // Half the time for reading part by part: the rest for opening it, the layout and the answer.
    maxReadMs: Math.floor(limits.timeoutMs * PART_READING_SHARE),
  };
  const script = workerScript();
  if (script) return runWorker<ExtractedDocument>(script, job, limits, { slots: DOCUMENT_WORKERS });
  return extractInline(job, limits.timeoutMs);
}

/**
 * The compiled worker entry. Built code finds it beside itself; code run from sources (tests)
 * uses the package's dist/ when it has been built.
 */
function workerScript(): URL | null {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../dist/worker.js', here) : new URL('./worker.js', here);
  return existsSync(fileURLToPath(url)) ? url : null;
}

/**
 * Fallback when no compiled worker exists (sources not built): same reading, but the timeout can
 * only cut asynchronous waits, not a parser stuck in a loop.
 */
async function extractInline(job: ExtractJob, timeoutMs: number): Promise<ExtractedDocument> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new NonRetryableError(`extraction took over ${timeoutMs} ms`, 'document_timeout')),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([extractHere(job), timeout]);
  } catch (error) {
    if (error instanceof NonRetryableError) throw error;
    throw new NonRetryableError(`unreadable document: ${(error as Error).message}`, 'document_unreadable', error);
  } finally {
    clearTimeout(timer);
  }
}
