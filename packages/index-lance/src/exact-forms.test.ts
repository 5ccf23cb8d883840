import { describe, expect, it } from '@jest/globals';
import { FORM_BOOST, formsText, RERANK_WINDOW, rerankByForms, TITLE_WORD_BOOST } from './exact-forms.js';

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

describe('re-ranking by word forms and titles', () => {
  it('reads the first RERANK_WINDOW matches, whatever page is asked for, and leaves the rest in place', async () => {
    const ranked = Array.from({ length: 50 }, (_, i) => ({
      id: `p${String(i).padStart(2, '0')}`,
      score: 100 - i,
    }));
    // (Texts as formsText writes them: the title, a line break, the body; here untitled.)
    const { read, textOf } = reader({ p00: '\nShe runs', [`p${RERANK_WINDOW - 1}`]: '\nShe is running' });
    const out = await rerankByForms(ranked, ['running'], textOf, byId);
    expect(read).toEqual(ranked.slice(0, RERANK_WINDOW).map((item) => item.id));
    expect(out.slice(RERANK_WINDOW)).toEqual(ranked.slice(RERANK_WINDOW));
    // Relative to a page holding the word as asked (or not at all: unknown here), one holding only
    // another form is worth 0.95: p01 (99) passes p00 (100) as 99 / 0.95 = 104.2.
    expect(out[0]!.id).toBe('p01');
    expect(out.find((item) => item.id === 'p00')!.score).toBe(100);
    expect(out.map((item) => item.id).sort()).toEqual(ranked.map((item) => item.id));
  });

  it('ranks exactly within the window: a page with the exact form passes one within 5% holding only another', async () => {
    const ranked = [10, 9.6, 9.55, 5].map((score, i) => ({ id: `p${i}`, score }));
    const { textOf } = reader({ p0: '\nruns', p1: '\nrunning', p2: '\nrunning', p3: '\nrunning' });
    const out = await rerankByForms(ranked, ['running'], textOf, byId);
    expect(out.map((item) => item.id)).toEqual(['p1', 'p2', 'p0', 'p3']);
    expect(out[0]!.score).toBeCloseTo(9.6 * FORM_BOOST);
    expect(out[2]!.score).toBe(10);
  });

  it('raises a page by TITLE_WORD_BOOST for each required word its title holds in some form', async () => {
    const ranked = [10, 9.5, 9, 8.9].map((score, i) => ({ id: `p${i}`, score }));
    const { textOf } = reader({
      p0: formsText({ title: 'Notes', snippet_src: 'Site reliability, site after site.' })!,
      p1: formsText({ title: 'Reliability\nof a site', snippet_src: 'Site reliability.' })!,
      p2: formsText({ title: 'Site Reliability Engineering', snippet_src: 'A site.' })!,
      p3: formsText({ title: 'Sites', snippet_src: 'Site reliability.' })!,
    });
    const out = await rerankByForms(ranked, ['site', 'reliability'], textOf, byId);
    expect(out.map((item) => item.id)).toEqual(['p1', 'p2', 'p3', 'p0']);
    const forms = FORM_BOOST ** 2;
    expect(out[0]!.score).toBeCloseTo(9.5 * forms * TITLE_WORD_BOOST ** 2);
    expect(out[3]!.score).toBeCloseTo(10 * forms);
    // Another form in the title counts as the word there (`Sites`).
    expect(out[2]!.score).toBeCloseTo(8.9 * forms * TITLE_WORD_BOOST);
  });

  it('leaves the order alone without words whose form counts', async () => {
    const ranked = [3, 2, 1].map((score, i) => ({ id: `p${i}`, score }));
    const { read, textOf } = reader({});
    expect(await rerankByForms(ranked, [], textOf, byId)).toEqual(ranked);
    expect(read).toEqual([]);
  });
});
