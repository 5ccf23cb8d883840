import { describe, expect, it } from '@jest/globals';
import { parseDocument, stripInert } from './dom.js';
import { extractHtml } from './extract-html.js';

const DOMS = ['linkedom', 'jsdom'] as const;

function parse(body: string, dom: (typeof DOMS)[number]): Document {
  return parseDocument(stripInert(`<html><body>${body}</body></html>`), 'https://example.com/', dom).document;
}

/** The body's text as parsed. */
const parsedText = (body: string, dom: (typeof DOMS)[number]): string => parse(body, dom).body.textContent ?? '';

describe('flattenShadowRoots (through parseDocument)', () => {
  it.each(DOMS)('shows a shadow tree with its slots filled as a browser does (%s)', (dom) => {
    const card =
      '<x-card><template shadowrootmode="open"><style>h2{}</style><h2><slot name="title">Untitled</slot></h2>' +
      '<div class="body"><slot></slot></div><footer><slot name="foot">No footer</slot></footer></template>' +
      '<span slot="title">Tides</span> <p>The sea rises twice a day.</p><span slot="nowhere">Unshown</span></x-card>';
    // The named slot gets its child, the unnamed one the rest, the unfilled one keeps its fallback;
    // a child asking for a slot that does not exist is not shown.
    expect(parsedText(card, dom)).toBe('Tides The sea rises twice a day.No footer');
  });

  it.each(DOMS)('flattens components inside components, and the older shadowroot attribute (%s)', (dom) => {
    const inner = '<x-inner><template shadowroot="open"><em>Inner</em> <slot></slot></template>child</x-inner>';
    const outer = `<x-outer><template shadowrootmode="open"><p>Outer ${inner}</p><slot></slot></template><b>light</b></x-outer>`;
    expect(parsedText(outer, dom)).toBe('Outer Inner childlight');
  });

  it.each(DOMS)('leaves ordinary templates as they are (%s)', (dom) => {
    const doc = parse(
      '<div><template id="row"><p>Row template</p></template><p>Shown</p></div>' +
        '<x-a><template shadowrootmode="open"><slot></slot></template>Slotted</x-a>',
      dom,
    );
    expect(doc.querySelector('x-a')?.textContent).toBe('Slotted');
    expect(doc.getElementById('row')?.localName).toBe('template');
    expect(doc.querySelector('div > p')?.textContent).toBe('Shown');
    expect(doc.querySelectorAll('div > p')).toHaveLength(1);
  });

  it.each(DOMS)("extracts an article written inside a component's shadow tree (%s)", (dom) => {
    const paragraph = 'The lighthouse keeper logged every ship that passed the point in the long winter. ';
    const html =
      '<html><head><title>Keeper</title></head><body><main><h1>Keeper</h1><x-article>' +
      `<template shadowrootmode="open"><article><p>${paragraph.repeat(4)}</p><slot></slot></article></template>` +
      `<p>${paragraph.repeat(3)}Light words end it.</p></x-article></main></body></html>`;
    const page = extractHtml(html, { url: 'https://example.com/keeper', dom });
    expect(page.body_text.split('The lighthouse keeper').length - 1).toBe(7);
    expect(page.body_text).toContain('Light words end it.');
  });
});
