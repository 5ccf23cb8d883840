import * as lancedb from '@lancedb/lancedb';
import { ConfigError } from '@quarry/core';
import { COLUMNS, FTS_COLUMNS, pagesSchema } from './rows.js';

/** The table's name in the LanceDB database. */
export const TABLE = 'pages';

/** The table's indexes: full-text on the analysed columns, scalar on the filters. */
const TABLE_INDEXES: readonly { readonly column: string; readonly config: () => lancedb.Index }[] = [
  ...FTS_COLUMNS.map((column) => ({
    column,
    config: () =>
      lancedb.Index.fts({
        baseTokenizer: 'whitespace',
        lowercase: false,
        stem: false,
        removeStopWords: false,
        asciiFolding: false,
        withPosition: true,
      }),
  })),
  { column: COLUMNS.id, config: () => lancedb.Index.btree() },
  { column: COLUMNS.crawledMs, config: () => lancedb.Index.btree() },
  { column: COLUMNS.lang, config: () => lancedb.Index.bitmap() },
  { column: COLUMNS.filetype, config: () => lancedb.Index.bitmap() },
  { column: COLUMNS.bucket, config: () => lancedb.Index.bitmap() },
  { column: COLUMNS.sites, config: () => lancedb.Index.labelList() },
];
/**
 * Failed attempts at creating the missing indexes in a row during which no index appeared: other
 * processes creating them at the same time make an attempt fail, but then each failure shows one
 * more index and does not count.
 */
const CREATE_ATTEMPTS = 10;

/** A pause long enough to see another process's commit, varied so that racing processes part. */
const pauseBeforeRetry = () => new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 800));

/**
 * Opens the table, creating it and any missing index. Several processes may open a new data dir at
 * once (`quarry serve` beside `quarry worker`): a creation that loses the commit race to another
 * process's is retried after a pause long enough to see that process's commit, skipping what exists.
 */
export async function openTable(
  db: lancedb.Connection,
  path: string,
): Promise<{ table: lancedb.Table; created: boolean }> {
  const { table, created } = await openOrCreate(db);
  if (!created) await refuseOtherLayout(table, path);
  let seen = -1;
  for (let failed = 0; ; ) {
    let have = new Set<string>();
    try {
      await table.checkoutLatest();
      have = new Set((await table.listIndices()).flatMap((index) => index.columns));
      for (const { column, config } of TABLE_INDEXES) {
        // An Index object is consumed by the call that creates it, hence a new one each time.
        if (!have.has(column)) await table.createIndex(column, { config: config(), replace: false });
      }
      return { table, created };
    } catch (error) {
      failed = have.size > seen ? 1 : failed + 1;
      seen = Math.max(seen, have.size);
      if (failed >= CREATE_ATTEMPTS) throw error;
      await pauseBeforeRetry();
    }
  }
}

/**
 * Attempts at opening the table, or creating it when missing. A table another process is creating
 * at that moment is listed (its folder exists) before its first version is written, and opening it
 * then fails (`Table 'pages' exists but could not be loaded … _versions not found`: one of 8
 * processes started together, in a CI run of `open-race.int.test.ts`). Failures are spaced as the
 * indexes' are ({@link pauseBeforeRetry}), so a table that cannot be opened at all fails after about 5 s.
 */
const OPEN_ATTEMPTS = 10;

async function openOrCreate(db: lancedb.Connection): Promise<{ table: lancedb.Table; created: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const created = !(await db.tableNames()).includes(TABLE);
      const table = created
        ? await db.createEmptyTable(TABLE, pagesSchema(), { existOk: true })
        : await db.openTable(TABLE);
      return { table, created };
    } catch (error) {
      if (attempt >= OPEN_ATTEMPTS) throw error;
      await pauseBeforeRetry();
    }
  }
}

/**
 * Builds every index anew over the whole table, without compacting it first. The first fold after
 * a bulk import uses it: the engine's `optimize()` would first rewrite all of the import's files
 * into one (compaction, a third of the time of the fold) and then build the same indexes.
 */
export async function buildIndexes(table: lancedb.Table): Promise<void> {
  for (const { column, config } of TABLE_INDEXES) await table.createIndex(column, { config: config(), replace: true });
}

/** Whether the full-text index on the search column holds no row yet though the table has some. */
export async function nothingIndexedYet(table: lancedb.Table): Promise<boolean> {
  const stats = await table.indexStats(`${COLUMNS.text}_idx`);
  return stats !== undefined && stats.numIndexedRows === 0 && stats.numUnindexedRows > 0;
}

/**
 * An index written by an earlier release has other columns (title, body and site name were
 * searched apart); it is rebuilt from the stored pages, never searched with the wrong plan.
 */
async function refuseOtherLayout(table: lancedb.Table, path: string): Promise<void> {
  const have = new Set((await table.schema()).fields.map((field) => field.name));
  const missing = pagesSchema()
    .fields.map((field) => field.name)
    .filter((name) => !have.has(name));
  if (missing.length === 0) return;
  table.close();
  throw new ConfigError([
    `the search index at ${path} was written by an earlier release (it lacks the ${missing.join(', ')} column` +
      `${missing.length > 1 ? 's' : ''}); rebuild it once from the stored pages with: quarry reindex`,
  ]);
}

/** Rows the full-text index on the search column does not cover yet. */
export async function unindexedRows(table: lancedb.Table): Promise<number> {
  const stats = await table.indexStats(`${COLUMNS.text}_idx`);
  return stats?.numUnindexedRows ?? 0;
}
