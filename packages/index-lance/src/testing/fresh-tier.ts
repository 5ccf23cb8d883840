import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { IndexQuery, PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import type { FastQuery } from '../fast-plan.js';
import type { FoldedStats, FreshTier } from '../fresh.js';
import { LanceSearchIndex } from '../lance-index.js';
import { TABLE } from '../table.js';

const FILLER = 'Notes on trains, gardens, music and the weather of the coast. ';

/** The fast search's limits of the tier (see fast-search.ts). */
export const TIER_LIMITS = { maxPages: 20_000, maxLoad: 5000 };
/** No folded page: a tier's scores from its own pages alone. */
export const NO_FOLDED: FoldedStats = { pages: 0, averageLength: async () => null, documentFrequency: async () => 0 };
/** A search's filters: none. */
export const NO_FILTERS: IndexQuery = { query: parseQuery('heron'), limit: 10, offset: 0 };

/** A page of the marsh site, its text some filler and `words`. */
export function marshPage(id: string, words: string, extra: Partial<PageDocument> = {}): PageDocument {
  return makePage(id, `https://marsh.example.org/${id}`, `Marsh note ${id}`, `${FILLER.repeat(2)} ${words}`, extra);
}

/**
 * A table in a folder of its own, written through the index one batch at a time (each batch one
 * `seq`), and read with every commit seen at once, as a fresh tier reads it.
 */
export function tierTable(prefix: string): {
  readonly write: (pages: readonly PageDocument[]) => Promise<void>;
  readonly open: () => Promise<lancedb.Table>;
  readonly remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    write: async (pages) => {
      const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
      await index.upsert(pages);
      await index.close();
    },
    open: async () => (await lancedb.connect(dir, { readConsistencyInterval: 0 })).openTable(TABLE),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A tier's matches of a query, by id, as comparable rows: id and score, with `rows` its row id and
 * quality too.
 */
export async function tierMatches(tier: FreshTier, query: FastQuery, rows = false): Promise<unknown[][]> {
  return (await tier.search(query, NO_FILTERS, NO_FOLDED, null))
    .map((match) => [match.id, match.score.toFixed(9), ...(rows ? [String(match.rowId), match.quality] : [])])
    .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
}
