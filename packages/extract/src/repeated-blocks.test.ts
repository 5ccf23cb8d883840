import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropItemFilters, findRepeatedItems } from './repeated-blocks.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;

const cards = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `<div class="card card-${i}"><a href="/p${i}">Product number ${i}</a><span>$${i}9.99</span></div>`,
  ).join('');
const facets = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<li><label><input type="checkbox"><span>Brand ${i}</span></label></li>`).join(
    '',
  );

describe('findRepeatedItems', () => {
  it('finds the siblings of one kind (class words without digits) that hold links and the most text', () => {
    const root = body(`<ul><li><a href="/a">A</a></li></ul><div class="grid">${cards(4)}</div>`);
    const found = findRepeatedItems(root);
    expect(found?.container.getAttribute('class')).toBe('grid');
    expect(found?.items).toHaveLength(4);
  });

  it('needs at least three items with a link', () => {
    expect(findRepeatedItems(body(`<div>${cards(2)}</div>`))).toBeNull();
    expect(
      findRepeatedItems(body('<div><p>One paragraph</p><p>Two paragraph</p><p>Three paragraph</p></div>')),
    ).toBeNull();
  });
});

describe('dropItemFilters', () => {
  it('removes a block of check boxes with short labels beside the items, keeps the items', () => {
    const root = body(
      `<h1>Shoes</h1><div class="side"><h3>Brand</h3><ul>${facets(5)}</ul></div><div class="grid">${cards(4)}</div>`,
    );
    expect(dropItemFilters(root)).toBe(true);
    expect(root.textContent).not.toContain('Brand 3');
    expect(root.textContent).toContain('Product number 3');
    expect(root.textContent).toContain('Shoes');
  });

  it('leaves a page without items, or with fewer than three inputs, alone', () => {
    const form = body(`<form><ul>${facets(5)}</ul></form><p>Some text of the page.</p>`);
    expect(dropItemFilters(form)).toBe(false);
    expect(form.textContent).toContain('Brand 4');
    const few = body(`<ul>${facets(2)}</ul><div class="grid">${cards(4)}</div>`);
    expect(dropItemFilters(few)).toBe(false);
  });

  it('keeps inputs that are part of the items (compare boxes on each card)', () => {
    const withBoxes = Array.from(
      { length: 4 },
      (_, i) => `<div class="card"><a href="/p${i}">Product number ${i}</a><input type="checkbox"> Compare</div>`,
    ).join('');
    const root = body(`<div class="grid">${withBoxes}</div>`);
    dropItemFilters(root);
    expect(root.textContent).toContain('Compare');
    expect(root.textContent).toContain('Product number 3');
  });
});
