import { isMainThread } from 'node:worker_threads';
import { lowerThreadPriority } from '@quarry/core';
import { type ExtractedPage, extractHtml, extractMarkdown, type MarkdownDocument } from '@quarry/extract';
import { decodeHtml, readSitemapResponse, type SitemapContent } from '@quarry/fetcher';

// Crawl work yields the cores to searches (see workerPriority); inline (tests), the caller's thread is left alone.
if (!isMainThread) lowerThreadPriority();

/** What a worker thread is given: decoded HTML and where it came from. */
export interface ExtractJob {
  readonly html: string;
  readonly url: string;
  readonly contentLanguage: string | null;
  /** The crawler's bot name, whose `<meta name>` is read like robots (see ExtractHtmlOptions). */
  readonly robotsAgent?: string;
  /** Read the page plainly (see ExtractHtmlOptions.plain): the pool's second try at a page. */
  readonly plain?: boolean;
}

/**
 * The same page as the response body still in bytes: the thread decodes it (BOM, HTTP charset,
 * `<meta charset>`, sniffing), so charset work stays off the crawler's event loop, and bytes cross
 * the thread boundary more cheaply than the (often two-byte) decoded string.
 */
export interface ExtractBodyJob {
  readonly body: Uint8Array;
  /** The response's Content-Type header, whose charset parameter is the HTTP declaration. */
  readonly contentType: string | undefined;
  readonly url: string;
  readonly contentLanguage: string | null;
  readonly robotsAgent?: string;
  readonly plain?: boolean;
}

/** A markdown file's body in bytes (a 1 MB llms-full.txt takes about a second to render and read). */
export interface MarkdownBodyJob {
  readonly kind: 'markdown';
  readonly body: Uint8Array;
  readonly contentType: string | undefined;
  readonly url: string;
}

/**
 * A sitemap's body (XML, gzip, text or a feed; up to the protocol's 50 MB): unzipping and parsing
 * one of 50,000 URLs held the event loop for about half a second.
 */
export interface SitemapBodyJob {
  readonly kind: 'sitemap';
  readonly body: Uint8Array;
  readonly finalUrl: string;
  readonly maxBodyBytes: number;
}

/** Runs in a worker thread (piscina): decoding and extraction are CPU-bound and would block the event loop. */
export default function extract(
  job: ExtractJob | ExtractBodyJob | MarkdownBodyJob | SitemapBodyJob,
): ExtractedPage | MarkdownDocument | Promise<SitemapContent> {
  if ('kind' in job) {
    if (job.kind === 'sitemap') {
      // A Buffer arrives as a plain Uint8Array; the gzip reader takes Buffers.
      const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
      return readSitemapResponse({ body, finalUrl: job.finalUrl }, job.maxBodyBytes);
    }
    return extractMarkdown(decodeHtml(job.body, { contentType: job.contentType }).text, job.url);
  }
  const html = 'html' in job ? job.html : decodeHtml(job.body, { contentType: job.contentType }).text;
  return extractHtml(html, {
    url: job.url,
    contentLanguage: job.contentLanguage,
    ...(job.robotsAgent ? { robotsAgent: job.robotsAgent } : {}),
    ...(job.plain ? { plain: true } : {}),
  });
}
