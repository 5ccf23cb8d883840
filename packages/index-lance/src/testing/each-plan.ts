import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from '../lance-index.js';

/** The ids a query finds, in order. */
export type Ids = (q: string, match?: 'all' | 'any') => Promise<string[]>;

/** The ways a search is answered: the fast plan over folded pages or the fresh tier, and the general plan. */
export const PLANS: [string, { fastPlan: boolean; fold: boolean }][] = [
  ['fast plan, folded pages', { fastPlan: true, fold: true }],
  ['fast plan, pages in the fresh tier', { fastPlan: true, fold: false }],
  ['general plan', { fastPlan: false, fold: true }],
];

/**
 * `check` run on an index of `docs`, once for each plan, the pages folded or in the fresh tier; it
 * gets the ids a query finds, and the index itself for what ids do not show.
 */
export function eachPlan(
  title: string,
  docs: () => PageDocument[],
  check: (ids: Ids, index: LanceSearchIndex) => Promise<void>,
): void {
  describe(title, () => {
    let dir: string | undefined;
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });

    it.each(PLANS)('%s', async (_name, { fastPlan, fold }) => {
      dir = mkdtempSync(join(tmpdir(), 'quarry-lance-plans-'));
      const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false, fastPlan });
      try {
        await index.upsert(docs());
        if (fold) await index.flush();
        await check(
          async (q, match = 'all') =>
            (await index.search({ query: parseQuery(q), match, limit: 10, offset: 0 })).hits.map((hit) => hit.id),
          index,
        );
      } finally {
        await index.close();
      }
    });
  });
}
