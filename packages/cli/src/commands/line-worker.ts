/**
 * A worker thread of `quarry import` (see `line-parser.ts`): parses the JSONL lines it is sent as
 * the main thread would, with the same word counter and language detector.
 */
import { type ImportLineResult, parseImportLine } from './import-line.js';
import { IMPORT_HELPERS } from './line-parser.js';

export default function parse(lines: readonly string[]): ImportLineResult[] {
  return lines.map((line) => parseImportLine(line, IMPORT_HELPERS));
}
