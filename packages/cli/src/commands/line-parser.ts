import { builtModuleUrl, UNKNOWN_LANG, WorkerPool } from '@quarry/core';
import { countWords, detectTextLanguage } from '@quarry/extract';
import { type ImportLineResult, type LangDetector, parseImportLine, type WordCounter } from './import-line.js';

/** Turns chunks of JSONL lines into documents or reasons, in order. */
export interface LineParser {
  /** Chunks worth parsing at once: one on this thread, and one per worker thread. */
  readonly parallelism: number;
  parse(lines: readonly string[]): Promise<ImportLineResult[]>;
  close(): Promise<void>;
}

/** Parses every line on this thread with the given helpers. */
export function localLineParser(helpers: { countWords: WordCounter; detectLang: LangDetector }): LineParser {
  return {
    parallelism: 1,
    parse: async (lines) => lines.map((line) => parseImportLine(line, helpers)),
    close: async () => {},
  };
}

/** The helpers `quarry import` parses with, here and on its workers. */
export const IMPORT_HELPERS = {
  countWords,
  detectLang: (text: string) => detectTextLanguage(text).lang ?? UNKNOWN_LANG,
};

/**
 * Parses chunks of lines on worker threads (`line-worker.ts`), so that most of the parsing leaves
 * the main thread, which reads the file and writes; it parses one chunk in `threads + 2` itself.
 * A line's parsing (JSON, validation, the word count with ICU's segmenter on CJK text, the
 * SimHash) was most of the main thread's time in `quarry import`, while the index's analysis
 * worker waited. A chunk whose worker failed or died is parsed here; with no workers every chunk is.
 */
export function pooledLineParser(threads: number): LineParser {
  const pool = new WorkerPool<string, ImportLineResult>(builtModuleUrl(import.meta.url, 'line-worker.js'), threads);
  const here = localLineParser(IMPORT_HELPERS);
  const every = pool.size + 2;
  let sent = 0;
  return {
    parallelism: pool.size + 1,
    parse: (lines) =>
      pool.size === 0 || ++sent % every === 0 ? here.parse(lines) : pool.run(lines).catch(() => here.parse(lines)),
    close: () => pool.close(),
  };
}
