import { describe, expect, it } from '@jest/globals';
import { FORM_RERANK_DEPTH, OTHER_FORM_FACTOR, rerankByForms } from './exact-forms.js';

interface Item {
  readonly id: string;
  readonly score: number;
}

/** Texts by id; every read is recorded. */
function reader(texts: Record<string, string>) {
  const read: string[] = [];
  const textOf = async (items: readonly Item[]) => {
    read.push(...items.map((item) => item.id));
    return items.map((item) => texts[item.id] ?? null);
  };
  return { read, textOf };
}

const byId = (a: Item, b: Item) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('re-ranking by word forms', () => {
  it('reads only the page when no later candidate can enter it', async () => {
    const ranked = [10, 9, 5, 4, 3, 2].map((score, i) => ({ id: `p${i}`, score }));
    const { read, textOf } = reader({ p0: 'running', p1: 'running' });
    const out = await rerankByForms(ranked, ['running'], 2, textOf, byId);
    expect(out.map((item) => item.id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    expect(read).toEqual(['p0', 'p1']);
  });

  it('reads every candidate that could still displace a penalised one, and ranks exactly', async () => {
    const f = OTHER_FORM_FACTOR;
    const ranked = [10, 9.99, 10 * f + 0.2, 10 * f, 5].map((score, i) => ({ id: `p${i}`, score }));
    // p0 and p1 hold only another form and fall to 10f and 9.99f; p2 and p3 hold the exact one.
    const { read, textOf } = reader({ p0: 'runs', p1: 'runs', p2: 'running', p3: 'running', p4: 'running' });
    const out = await rerankByForms(ranked, ['running'], 2, textOf, byId);
    expect(out.slice(0, 2).map((item) => item.id)).toEqual(['p2', 'p0']);
    expect(out[1]!.score).toBeCloseTo(10 * f);
    // p0 (10f) ties p3 (10f) and wins on id; p4 (5) could never reach the page, so it is not read.
    expect(read).toEqual(['p0', 'p1', 'p2', 'p3']);
  });

  it('reads at most FORM_RERANK_DEPTH pages of candidates', async () => {
    const ranked = Array.from({ length: 50 }, (_, i) => ({
      id: `p${String(i).padStart(2, '0')}`,
      score: 100 - i * 0.01,
    }));
    const { read, textOf } = reader(Object.fromEntries(ranked.map((item) => [item.id, 'runs'])));
    await rerankByForms(ranked, ['running'], 3, textOf, byId);
    expect(read).toHaveLength(3 * FORM_RERANK_DEPTH);
  });

  it('leaves the order alone without words whose form counts', async () => {
    const ranked = [3, 2, 1].map((score, i) => ({ id: `p${i}`, score }));
    const { read, textOf } = reader({});
    expect(await rerankByForms(ranked, [], 2, textOf, byId)).toEqual(ranked);
    expect(read).toEqual([]);
  });
});
