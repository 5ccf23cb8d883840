import type * as lancedb from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';

interface Waiting {
  readonly columns: readonly string[];
  readonly rowIds: readonly bigint[];
  readonly resolve: (found: ArrowTable) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Reads stored rows by row id (with `_rowid`), merging the reads asked for in one tick into one
 * `takeRowIds` of the union of their rows and columns: a query of two word-form alternatives checks
 * each one's phrase candidates on their stored text at the same moment, and one engine call costs
 * less than two. Each caller gets the whole answer and picks its rows by `_rowid`. Row ids are
 * those of the table's current version; a reader serves one search.
 */
export class RowReader {
  readonly #table: lancedb.Table;
  #waiting: Waiting[] = [];

  constructor(table: lancedb.Table) {
    this.#table = table;
  }

  /** The rows' `columns` and `_rowid`, as one engine answer (possibly holding other rows and columns). */
  read(rowIds: readonly bigint[], columns: readonly string[]): Promise<ArrowTable> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) queueMicrotask(() => void this.#flush());
      this.#waiting.push({ columns, rowIds, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = [];
    const rowIds = [...new Set(waiting.flatMap((w) => w.rowIds))];
    const columns = [...new Set(waiting.flatMap((w) => w.columns))];
    try {
      const found = await this.#table.takeRowIds(rowIds).select(columns).withRowId().toArrow();
      for (const w of waiting) w.resolve(found);
    } catch (error) {
      for (const w of waiting) w.reject(error);
    }
  }
}
