import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { dropSearchFilters } from './search-filters.js';

const CARD = (name: string, price: string) =>
  `<li class="product-card"><a href="/p/${name.toLowerCase().replace(/\s+/g, '-')}">${name} 16GB GDDR6 graphics card</a><span>${price}</span></li>`;
const ITEMS = `<ul class="product-grid">${[
  CARD('Radeon RX 9060 XT', '$459.99'),
  CARD('Radeon RX 9070 XT', '$729.99'),
  CARD('GeForce RTX 5070', '$549.99'),
  CARD('GeForce RTX 5080', '$999.99'),
  CARD('Arc B580', '$249.99'),
].join('')}</ul>`;
const BRANDS = ['ASUS', 'MSI', 'GIGABYTE', 'ASRock', 'ZOTAC', 'Sapphire Tech', 'PowerColor', 'XFX'];
const facet = (cls: string) =>
  `<div class="${cls}"><h3>Brands</h3><ul>${BRANDS.map((b) => `<li><a href="?brand=${b}">${b}</a></li>`).join('')}</ul></div>`;

const remaining = (html: string) => {
  const body = parseHTML(`<html><body>${html}</body></html>`).document.body;
  const count = dropSearchFilters(Array.from(body.querySelectorAll('*')));
  return { count, text: (body.textContent ?? '').replace(/\s+/g, ' ').trim() };
};

describe('dropSearchFilters', () => {
  it.each([
    'filters',
    'facets-container',
    'refinement-bar col-sm-12',
    'browse-filters',
    'search-bar__filter',
    'filter-box is-active',
    'plp_filter',
  ])('removes a block of filters named %s, with no inputs', (cls) => {
    const { count, text } = remaining(`<h1>Graphics cards</h1>${facet(cls)}${ITEMS}`);
    expect(count).toBe(1);
    expect(text).not.toContain('PowerColor');
    expect(text).toContain('GeForce RTX 5080');
  });

  it("reads a theme's own element as a box, and no other element", () => {
    const { count, text } = remaining(
      `<h1>Graphics cards</h1><facet-filters-form class="facets">${facet('')}</facet-filters-form>${ITEMS}`,
    );
    expect(count).toBe(1);
    expect(text).not.toContain('PowerColor');
    expect(remaining(`<h1>Graphics cards</h1><span class="facets">${facet('')}</span>${ITEMS}`).count).toBe(0);
  });

  it('reads the id as well as the class', () => {
    expect(remaining(`<aside id="search-facets">${facet('')}</aside>${ITEMS}`).count).toBe(1);
  });

  it("keeps a style's name, a page's state, a block of sentences, chrome's own and a block holding the page", () => {
    // A lone `filter` class is a CSS utility; `backdrop-filter` and `has-filters` are not the filters.
    expect(remaining(`${facet('filter')}${ITEMS}`).count).toBe(0);
    expect(remaining(`${facet('backdrop-filter')}${ITEMS}`).count).toBe(0);
    expect(remaining(`<div class="page has-filters">${facet('')}${ITEMS}</div>`).count).toBe(0);
    // A section about a product's filters explains them in sentences.
    const prose =
      '<div class="features-filters"><h2>Filters just for you</h2>' +
      '<p>Bring your pictures to life with your own personalized filters, made for the places you love.</p>' +
      '<p>Choose a frame, add a caption and share it with the friends who were there.</p>' +
      '<a href="/a">Try it</a><a href="/b">Learn more</a><a href="/c">Examples</a></div>';
    expect(remaining(`${prose}${ITEMS}`).count).toBe(0);
    // Inside a menu, the menu goes with them in every reading.
    expect(remaining(`<nav>${facet('filters')}</nav>${ITEMS}`).count).toBe(0);
    // The headline inside: the block is the page.
    expect(remaining(`<div class="filters"><h1>Cards</h1>${facet('')}</div>${ITEMS}`).count).toBe(0);
    // A block so named holding most of the page is its list.
    expect(remaining(`<div class="search-filters-results">${ITEMS}</div>`).count).toBe(0);
  });

  it("leaves a shop's filters out of its category page's text", () => {
    // Options as buttons with counts: not links, so not a menu by its link density.
    const buttons = `<div class="facets-container"><h3>Brands</h3><ul>${BRANDS.map((b, i) => `<li><button>${b}</button> <span>(${i * 7 + 3})</span></li>`).join('')}</ul></div>`;
    const html =
      '<!DOCTYPE html><html lang="en"><head><title>Graphics cards | Example Shop</title></head><body>' +
      `<main><h1>Graphics cards</h1><div class="row"><div class="col-3">${buttons}</div>` +
      `<div class="col-9"><p>Page 1 of 20. Every card ships free and can be returned within thirty days.</p>${ITEMS}</div></div></main>` +
      '</body></html>';
    const { body_text } = extractHtml(html, { url: 'https://shop.example/gpus/', dom: 'linkedom' });
    expect(body_text).toContain('GeForce RTX 5080');
    // Readability drops the buttons themselves; their heading and counts went with them before.
    expect(body_text).not.toContain('Brands');
    expect(body_text).not.toContain('(17)');
  });
});
