import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import type { OpenSearchIndex } from './contract.js';
import { makePage } from './fixtures.js';

/** One IR test collection: documents, queries and graded relevance judgements. */
export interface IrCollection {
  readonly docs: readonly PageDocument[];
  readonly queries: readonly { readonly id: string; readonly text: string }[];
  /** query id → doc id → grade (higher is more relevant). */
  readonly qrels: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/**
 * Loads a collection in the BEIR-like layout of `testdata/ir/*`: `docs.jsonl` (`_id`, `title`,
 * `text`), `queries.jsonl` (`_id`, `text`) and a TREC qrels file (`query 0 doc grade`).
 */
export function loadIrCollection(dir: string, qrelsFile = 'qrels.graded.trec'): IrCollection {
  const lines = (file: string): string[] =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  const docs = lines('docs.jsonl').map((line) => {
    const raw = JSON.parse(line) as { _id: string; title?: string; text?: string };
    return makePage(raw._id, `https://ir.example.org/doc/${raw._id}`, raw.title ?? '', raw.text ?? '');
  });
  const queries = lines('queries.jsonl').map((line) => {
    const raw = JSON.parse(line) as { _id: string; text: string };
    return { id: raw._id, text: raw.text };
  });
  const qrels = new Map<string, Map<string, number>>();
  for (const line of lines(qrelsFile)) {
    const [query, , doc, grade] = line.trim().split(/\s+/);
    if (!query || !doc || grade === undefined || Number(grade) <= 0) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)!.set(doc, Number(grade));
  }
  return { docs, queries, qrels };
}

/** nDCG@k with gains 2^grade − 1 and log2 discounts. */
export function ndcgAt(k: number, ranked: readonly string[], judgements: ReadonlyMap<string, number>): number {
  const gain = (grade: number): number => 2 ** grade - 1;
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + gain(judgements.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judgements.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/**
 * Natural-language IR queries would almost never match with AND, so each is run as the OR of its
 * words (punctuation dropped): this measures ranking, not the AND rule.
 */
export function orQuery(text: string): string {
  return text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .join(' OR ');
}

/**
 * Ranking-quality check: mean nDCG@10 over a collection must reach `minNdcgAt10` (set it a little
 * below what the backend measured, so regressions fail). Skips with a message when the data is absent.
 */
export function describeRankingQuality(
  name: string,
  open: OpenSearchIndex,
  options: { readonly dir: string; readonly minNdcgAt10: number },
): void {
  const present = existsSync(join(options.dir, 'docs.jsonl'));
  if (!present) console.warn(`ranking quality (${name}): ${options.dir} is absent, skipping`);
  (present ? describe : describe.skip)(`ranking quality: ${name}`, () => {
    let close: () => Promise<void>;
    let collection: IrCollection;
    let index: Awaited<ReturnType<OpenSearchIndex>>['index'];

    beforeAll(async () => {
      collection = loadIrCollection(options.dir);
      ({ index, cleanup: close } = await open());
      await index.upsert(collection.docs);
    }, RANKING_TIMEOUT_MS);
    afterAll(async () => {
      await close();
    });

    it(
      `reaches mean nDCG@10 ≥ ${options.minNdcgAt10}`,
      async () => {
        const scores: number[] = [];
        for (const query of collection.queries) {
          const judgements = collection.qrels.get(query.id);
          if (!judgements || judgements.size === 0) continue;
          const result = await index.search({ query: parseQuery(orQuery(query.text)), limit: 10, offset: 0 });
          scores.push(
            ndcgAt(
              10,
              result.hits.map((hit) => hit.id),
              judgements,
            ),
          );
        }
        const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
        console.info(`${name}: mean nDCG@10 = ${mean.toFixed(4)} over ${scores.length} queries`);
        expect(scores.length).toBeGreaterThan(100);
        expect(mean).toBeGreaterThanOrEqual(options.minNdcgAt10);
      },
      RANKING_TIMEOUT_MS,
    );
  });
}

/** A few hundred queries, one after another, on a loaded CI machine. */
const RANKING_TIMEOUT_MS = 180_000;
