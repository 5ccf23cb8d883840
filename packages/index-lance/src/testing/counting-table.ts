import type * as lancedb from '@lancedb/lancedb';

/**
 * The table, counting the calls of one of its methods: a test's check of which way a read went
 * (`takeRowIds` for a take by row id, `query` for a filter).
 */
export function countingCalls(
  table: lancedb.Table,
  method: keyof lancedb.Table,
): { readonly table: lancedb.Table; readonly calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(table, {
    get(target, key) {
      if (key === method) calls++;
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { table: proxy, calls: () => calls };
}
