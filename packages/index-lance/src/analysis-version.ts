import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from './util.js';

/** A change to how pages are analysed into the index's tokens, which pages indexed before it lack. */
export interface AnalysisChange {
  readonly version: number;
  /** When it was released, YYYY-MM-DD. */
  readonly date: string;
  /** What a search finds since, in an operator's words. */
  readonly change: string;
}

/**
 * Every change to analysis since the index recorded its version, oldest first. Bump it with each
 * change that makes pages indexed before it findable by fewer queries than pages indexed after; an
 * index whose pages predate a change says so (`notices()`), and `quarry reindex` reads them again.
 * An index without a record is version 1: written before 2026-12-01.
 */
export const ANALYSIS_CHANGES: readonly AnalysisChange[] = [
  {
    version: 2,
    date: '2026-12-01',
    change: 'traditional and simplified Chinese characters find each other',
  },
  {
    version: 3,
    date: '2026-12-01',
    change:
      "apostrophes and `c++`, `c#` are read as words (`won` no longer finds `won't`, `Rust's` finds `Rust`, `c#` is not the letter `c`)",
  },
  {
    version: 4,
    date: '2026-12-01',
    change: 'a hyphenated word is also found written as one (`covid19` finds `COVID-19`, `ebook` finds `e-book`)',
  },
  {
    version: 5,
    date: '2026-12-01',
    change: 'a number written in groups is also found written as one (`10000` finds `10,000` and `10.000`)',
  },
  {
    version: 6,
    date: '2026-12-06',
    change:
      'letters with a stroke and ligatures are folded (`strasse` finds `Straße`, `lodz` finds `Łódź`, `oresund` finds `Øresund`; until then, a word holding one finds the older pages in no spelling)',
  },
  {
    version: 7,
    date: '2026-12-07',
    change:
      'pages in German, French, Spanish, Italian, Portuguese, Dutch, Russian, Swedish, Danish, Norwegian and Finnish are indexed by stems (`метро москва` finds `Метро Москвы`, `Stromnetz` finds `Stromnetze`; until then, such pages are found by their words as written only)',
  },
  {
    version: 8,
    date: '2026-12-07',
    change:
      'Cyrillic `й` and `ў` are letters of their own, no longer folded to `и` and `у`, so Russian adjectives in `-ый` and `-ий` are stemmed (`новый` finds `новая` and `нового`; until then, a word holding `й` finds the older pages in no spelling)',
  },
];

/** The version this release analyses pages with. */
export const ANALYSIS_VERSION = ANALYSIS_CHANGES[ANALYSIS_CHANGES.length - 1]?.version ?? 1;

/** The file in the index folder recording the oldest analysis version of any page in it. */
export const ANALYSIS_FILE = 'analysis.json';

/**
 * The analysis version of the index in `dir`: that of its oldest pages. 1 when unrecorded (written
 * before the record existed) or unreadable, which at worst asks for a needless `quarry reindex`.
 */
export function readAnalysisVersion(dir: string): number {
  try {
    const { version } = JSON.parse(readFileSync(join(dir, ANALYSIS_FILE), 'utf8')) as { version?: unknown };
    return Number.isSafeInteger(version) && (version as number) > 0 ? (version as number) : 1;
  } catch {
    return 1;
  }
}

/** Records that every page in the index in `dir` is analysed by this release (a new or empty index). */
export function recordAnalysisVersion(dir: string): void {
  writeFileAtomically(join(dir, ANALYSIS_FILE), `${JSON.stringify({ version: ANALYSIS_VERSION })}\n`);
}

/** What an operator should hear about an index whose oldest pages are analysed as `version`, if anything. */
export function analysisNotice(dir: string, version: number): string | null {
  const missed = ANALYSIS_CHANGES.filter((change) => change.version > version);
  if (missed.length === 0) return null;
  const changes = missed.map((change) => `${change.change} (${change.date})`).join('; ');
  return (
    `the search index at ${dir} holds pages analysed by an earlier release, which miss: ${changes}. ` +
    'Pages indexed since are analysed anew; to read the older ones again, stop Quarry and run: quarry reindex'
  );
}
