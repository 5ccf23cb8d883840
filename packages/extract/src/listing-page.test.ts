import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropCardControls } from './listing-page.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;

const card = (i: number, extra: string): string =>
  `<div class="card"><h3><a href="/p${i}">Product number ${i}</a></h3><span>$${i}9.99</span>${extra}</div>`;
const grid = (n: number, extra: (i: number) => string): string =>
  `<div class="grid">${Array.from({ length: n }, (_, i) => card(i, extra(i))).join('')}</div>`;

describe('dropCardControls', () => {
  it('removes the buttons and links every card repeats, keeps titles and prices', () => {
    const root = body(grid(4, () => '<button>Quick View</button><a href="/cmp">Compare</a>'));
    expect(dropCardControls(root)).toBe(8);
    const text = root.textContent ?? '';
    expect(text).not.toContain('Quick View');
    expect(text).not.toContain('Compare');
    expect(text).toContain('Product number 3');
    expect(text).toContain('$39.99');
  });

  it("keeps a thread's poster names, which link to one page, and removes its posts' own controls", () => {
    const post = (i: number, user: string) =>
      `<div class="post"><a href="/u/${user}">${user}</a><p>Reply number ${i} says something.</p>` +
      `<a href="/posts/${i}/edit">Improve this answer</a><a href="#">Share</a></div>`;
    const html = `<div class="thread">${[post(1, 'raoul'), post(2, 'raoul'), post(3, 'bill'), post(4, 'raoul')].join('')}</div>`;
    const thread = body(html);
    expect(dropCardControls(thread, true)).toBe(8);
    expect(thread.textContent).toContain('raoul');
    expect(thread.textContent).not.toContain('Improve this answer');
    expect(thread.textContent).not.toContain('Share');
    // Elsewhere a link every card repeats to one page is a call to action.
    const page = body(html);
    expect(dropCardControls(page)).toBe(11);
    expect(page.textContent).not.toContain('raoul');
  });

  it('takes the brackets a removed control stood in with it, and leaves other brackets', () => {
    const root = body(
      grid(4, (i) => `<p>[<a href="/print/${i}">打印</a>] 【<a href="/mail/${i}">Email</a>】 (<b>sale</b>)</p>`),
    );
    expect(dropCardControls(root)).toBe(8);
    const text = root.textContent ?? '';
    expect(text).not.toMatch(/\[\s*\]|【\s*】/);
    expect(text).toContain('(sale)');
    expect(text).toContain('Product number 3');
  });

  it('needs the control on at least half of the cards', () => {
    const root = body(grid(8, (i) => (i < 3 ? '<button>Add to cart</button>' : '')));
    expect(dropCardControls(root)).toBe(0);
    expect(root.textContent).toContain('Add to cart');
  });

  it('keeps repeated plain-text values, field labels and controls with digits', () => {
    const root = body(
      grid(4, (i) => `<p>Full-Time</p><label>Weight:</label><span>${i} lbs</span><a href="/r${i}">Read 12 reviews</a>`),
    );
    expect(dropCardControls(root)).toBe(0);
    const text = root.textContent ?? '';
    expect(text).toContain('Full-Time');
    expect(text).toContain('Weight:');
    expect(text).toContain('Read 12 reviews');
  });

  it('leaves a page without a list of items alone', () => {
    const root = body('<p>Intro <a href="/a">More</a></p><p>Body <a href="/b">More</a></p>');
    expect(dropCardControls(root)).toBe(0);
  });
});
