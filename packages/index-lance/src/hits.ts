import type * as lancedb from '@lancedb/lancedb';
import type { IndexHit } from '@quarry/core';
import { makeSnippet } from '@quarry/text';
import type { Table as ArrowTable } from 'apache-arrow';
import { type FtsPlan, sqlString } from './fts-query.js';
import { COLUMNS, type StoredHit } from './rows.js';

/** Columns a hit needs (the analysed text columns are never read back). */
export const HIT_COLUMNS = [COLUMNS.hit];

/**
 * A row read with {@link HIT_COLUMNS} (and any other column), its stored hit unpacked: the hit's
 * fields (`id`, `url`, `title`, `snippet_src`, …) beside the row's other columns.
 */
export function unpackHit(row: Record<string, unknown>): Record<string, unknown> {
  const { [COLUMNS.hit]: hit, ...rest } = row;
  return { ...rest, ...parseHit(hit as string) };
}

/** The fields of a stored hit (the `hit` column's JSON), as a row {@link toHit} reads. */
export function parseHit(json: string): Record<string, unknown> {
  return JSON.parse(json) as StoredHit as unknown as Record<string, unknown>;
}
/** Keeps every score positive. */
export const MIN_SCORE = 1e-6;
/**
 * A search hit from a stored row (its hit unpacked by {@link unpackHit}), its snippet centred on
 * the plan's words; or, when the query left snippets to the caller, empty, with the words beside
 * the opening (`snippetTerms`) for the caller to make it.
 */
export function toHit(
  row: Record<string, unknown>,
  score: number,
  plan: Pick<FtsPlan, 'snippetTerms' | 'snippets'>,
): IndexHit {
  const simhash = row.simhash as string | null;
  const opening = typeof row.snippet_src === 'string' ? row.snippet_src : undefined;
  const left = !plan.snippets && opening !== undefined;
  return {
    id: row.id as string,
    url: row.url as string,
    title: row.title as string,
    snippet: left
      ? ''
      : makeSnippet(
          opening ?? '',
          plan.snippetTerms.map((text) => ({ text })),
        ),
    domain: row.domain as string,
    site_name: (row.site_name as string | null) ?? null,
    lang: row.lang as string,
    score,
    has_llms_txt: Boolean(row.has_llms_txt),
    published_at: (row.published_at as string | null) ?? null,
    crawled_at: row.crawled_at as string,
    filetype: row.filetype as string,
    ...(simhash ? { simhash } : {}),
    ...(snippetSourceCut(row) ? { snippetSourceCut: true } : {}),
    ...(opening !== undefined ? { opening } : {}),
    ...(left ? { snippetTerms: plan.snippetTerms } : {}),
  };
}

/** Whether the row's snippet source is the start of a longer body. */
function snippetSourceCut(row: Record<string, unknown>): boolean {
  const source = row.snippet_src;
  return typeof row.body_chars === 'number' && typeof source === 'string' && row.body_chars > source.length;
}

/**
 * One column of an engine answer, as a typed array where it has one (`_rowid`: `BigUint64Array`,
 * `_score`: `Float32Array`). Reading a thousand matches through Arrow's row objects (`toArray()`)
 * cost about 2 ms of a search's main-thread time; reading their columns costs next to nothing.
 */
export function columnOf<T>(table: ArrowTable, name: string): ArrayLike<T> {
  return (table.getChild(name)?.toArray() ?? []) as ArrayLike<T>;
}

/**
 * A string column of an engine answer as each value's UTF-8 bytes (views into the answer's buffer,
 * null for a null value), not decoded: a search that checks runs of tokens in its candidates' stored
 * analysed text (whole pages) spent about 3 ms of main-thread time per search decoding them.
 */
export function utf8Of(table: ArrowTable, name: string): (Uint8Array | null)[] {
  const vector = table.getChild(name);
  const values: (Uint8Array | null)[] = [];
  for (const data of vector?.data ?? []) {
    const offsets = data.valueOffsets as Int32Array | BigInt64Array | undefined;
    const bytes = data.values as Uint8Array | undefined;
    for (let i = 0; i < data.length; i++) {
      if (!offsets || !bytes || !data.getValid(i)) {
        values.push(null);
        continue;
      }
      // (A slice's offsets are sliced with it: they start at its first value.)
      const [start, end] = [Number(offsets[i]), Number(offsets[i + 1])];
      values.push(bytes.subarray(start, end));
    }
  }
  return values;
}

const UTF8 = new TextDecoder();

/**
 * Candidates' hits by key, each kept packed (the hit column's UTF-8 bytes, see {@link utf8Of}) until
 * it is first asked for: a search reads the hits of its top matches along with them, dozens per list
 * and language, and shows a page of ten. Decoding and parsing them all was a tenth of the API's
 * main-thread time on a common word.
 */
export class HitRows {
  readonly #rows = new Map<string, Record<string, unknown>>();
  readonly #packed = new Map<string, Uint8Array>();

  has(key: string): boolean {
    return this.#rows.has(key) || this.#packed.has(key);
  }

  get(key: string): Record<string, unknown> | undefined {
    const row = this.#rows.get(key);
    if (row !== undefined) return row;
    const packed = this.#packed.get(key);
    if (packed === undefined) return undefined;
    const parsed = parseHit(UTF8.decode(packed));
    this.#packed.delete(key);
    this.#rows.set(key, parsed);
    return parsed;
  }

  set(key: string, row: Record<string, unknown>): void {
    this.#packed.delete(key);
    this.#rows.set(key, row);
  }

  /** A hit as stored (its JSON's UTF-8 bytes), unpacked when asked for. */
  setPacked(key: string, hit: Uint8Array): void {
    if (!this.#rows.has(key)) this.#packed.set(key, hit);
  }
}

/** The hit columns of these rows, by row id (of the table version the row ids came from). */
export async function rowsByRowId(
  table: lancedb.Table,
  rowIds: readonly bigint[],
): Promise<Map<bigint, Record<string, unknown>>> {
  const rows = new Map<bigint, Record<string, unknown>>();
  if (rowIds.length === 0) return rows;
  const found = await table.takeRowIds(rowIds).select(HIT_COLUMNS).withRowId().toArrow();
  const [ids, hits] = [columnOf<bigint>(found, '_rowid'), columnOf<string>(found, COLUMNS.hit)];
  for (let i = 0; i < found.numRows; i++) rows.set(ids[i]!, parseHit(hits[i]!));
  return rows;
}

/**
 * The hit columns of these rows, by id, each read by the row id it had when last seen (`rowIds`):
 * a take by row id costs about 1 ms where a filter by id reads every fragment the id index does not
 * cover yet (13 ms for 1,800 pages written since the last fold). A row whose id a fold's compaction
 * gave to another row, or took away, is read by id instead.
 */
export async function rowsByKnownRowId(
  table: lancedb.Table,
  rowIds: ReadonlyMap<string, bigint>,
): Promise<Map<string, Record<string, unknown>>> {
  return (await readHits(table, [], rowIds)).byId;
}

/**
 * In one take: the hit columns of the rows `rowIds` (by row id; missing when a fold compacted them
 * away) and of the pages `known` (by id, as {@link rowsByKnownRowId} reads them).
 */
export async function readHits(
  table: lancedb.Table,
  rowIds: readonly bigint[],
  known: ReadonlyMap<string, bigint>,
): Promise<{ byRowId: Map<bigint, Record<string, unknown>>; byId: Map<string, Record<string, unknown>> }> {
  const taken = await rowsByRowId(table, [...rowIds, ...known.values()]).catch(
    () => new Map<bigint, Record<string, unknown>>(),
  );
  const byRowId = new Map<bigint, Record<string, unknown>>();
  for (const rowId of rowIds) {
    const row = taken.get(rowId);
    if (row) byRowId.set(rowId, row);
  }
  const byId = new Map<string, Record<string, unknown>>();
  const moved: string[] = [];
  for (const [id, rowId] of known) {
    const row = taken.get(rowId);
    if (row?.id === id) byId.set(id, row);
    else moved.push(id);
  }
  for (const [id, row] of await rowsById(table, moved)) byId.set(id, row);
  return { byRowId, byId };
}

/** The hit columns of these rows, by id (through the id index). */
export async function rowsById(
  table: lancedb.Table,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const rows = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return rows;
  const found = await table
    .query()
    .where(`${COLUMNS.id} IN (${ids.map(sqlString).join(', ')})`)
    .select(HIT_COLUMNS)
    .toArrow();
  for (const hit of columnOf<string>(found, COLUMNS.hit) as string[]) {
    const row = parseHit(hit);
    rows.set(row.id as string, row);
  }
  return rows;
}
