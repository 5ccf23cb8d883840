import { type ExtractedPage, extractHtml } from '@quarry/extract';

/** What a worker thread is given: decoded HTML and where it came from. */
export interface ExtractJob {
  readonly html: string;
  readonly url: string;
  readonly contentLanguage: string | null;
}

/** Runs in a worker thread (piscina): HTML extraction is CPU-bound and would block the event loop. */
export default function extract(job: ExtractJob): ExtractedPage {
  return extractHtml(job.html, { url: job.url, contentLanguage: job.contentLanguage });
}
