import type { Filetype } from '@quarry/core';

/** The document formats {@link extractDocument} reads. */
export type DocumentFiletype = Exclude<Filetype, 'html' | 'txt' | 'md'>;

/** Document properties, each null when the file does not say. `published_at` is ISO 8601 UTC. */
export interface DocumentMetadata {
  title: string | null;
  author: string | null;
  published_at: string | null;
}

/** What a format reader gives: plain text and Markdown, and properties. */
export interface DocumentContent extends DocumentMetadata {
  text: string;
  /**
   * The same content as Markdown with the structure the format gives: Word headings, lists and
   * tables, one `##` section per slide (its first line the heading) and per sheet (a table);
   * PDF and legacy binary formats have paragraphs only. Bounded like `text`.
   */
  markdown: string;
}

/** What {@link extractDocument} returns: plain text (whitespace tidied, bounded) and properties. */
export interface ExtractedDocument extends DocumentContent {
  /**
   * What the file is, by its bytes: the filetype it was given, unless it is another (a PDF served
   * as a `.doc`, a Word file served as a PDF, a workbook served as a Word file).
   */
  filetype: DocumentFiletype;
}

/** Limits for one extraction; every document is treated as hostile. */
export interface DocumentLimits {
  /**
   * Largest input accepted, in bytes.
   * @defaultValue 25 MiB
   */
  maxBytes?: number;
  /**
   * Wall-clock limit for one extraction; the worker running it is terminated when it passes.
   * @defaultValue 30_000
   */
  timeoutMs?: number;
  /**
   * Longest text returned, in characters; longer text is cut (at a word boundary when possible).
   * @defaultValue 2_000_000
   */
  maxTextChars?: number;
  /**
   * Largest total uncompressed size of an OOXML or OpenDocument zip's parts, or of the streams a
   * PDF's text is read from, in bytes (decompression-bomb guard).
   * @defaultValue 200 MiB
   */
  maxUnzippedBytes?: number;
  /**
   * Heap limit of the extraction worker, in MiB; a document that needs more fails cleanly.
   * @defaultValue 512
   */
  maxHeapMb?: number;
}

/** Defaults for {@link DocumentLimits}, kept in this one place. */
export const DOCUMENT_LIMIT_DEFAULTS: Readonly<Required<DocumentLimits>> = Object.freeze({
  maxBytes: 25 * 1024 * 1024,
  timeoutMs: 30_000,
  maxTextChars: 2_000_000,
  maxUnzippedBytes: 200 * 1024 * 1024,
  maxHeapMb: 512,
});
