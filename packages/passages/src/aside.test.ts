import { afterAll, describe, expect, it } from '@jest/globals';
import { ASIDE_MIN_CHARS, closePassageThread, selectPassagesAside } from './aside.js';
import { selectPassages } from './passages.js';

afterAll(async () => {
  await closePassageThread();
});

/** A long report: paragraphs about many subjects, one of them the harbour's dredging. */
function report(chars: number): string {
  const subjects = ['tides', 'ferries', 'cranes', 'budgets', 'weather', 'lighthouses', 'cargo', 'pilots'];
  const paragraphs: string[] = [];
  for (let i = 0; paragraphs.join('\n\n').length < chars; i++) {
    const subject = subjects[i % subjects.length];
    paragraphs.push(
      i === 500
        ? 'The dredging of the north channel ended in March, two weeks early, at a cost of four million.'
        : `Paragraph ${i} reports on ${subject} at the harbour, item ${i * 7} of the board's list for the year.`,
    );
  }
  return paragraphs.join('\n\n');
}

describe('selectPassagesAside', () => {
  it('selects the passages of a long page on a worker thread: the same passages, the calling thread free', async () => {
    const request = { bodyText: report(150_000), query: 'when did the dredging end', lang: 'en', maxTokens: 200 };
    expect(request.bodyText.length).toBeGreaterThan(ASIDE_MIN_CHARS);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const aside = await selectPassagesAside(request);
    clearInterval(timer);
    // Selected in place, the page would have held the calling thread from start to end.
    expect(ticks).toBeGreaterThan(0);
    expect(aside).toEqual(selectPassages(request));
    expect(aside[0]?.text).toContain('The dredging of the north channel ended in March');
  });

  it('selects the passages of a page of ordinary length in place', async () => {
    const request = { bodyText: report(5_000), query: 'cranes', lang: 'en', maxTokens: 100 };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const passages = await selectPassagesAside(request);
    clearInterval(timer);
    expect(ticks).toBe(0);
    expect(passages).toEqual(selectPassages(request));
  });
});
