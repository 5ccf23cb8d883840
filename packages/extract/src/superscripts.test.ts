import { describe, expect, it } from '@jest/globals';
import { parseDocument } from './dom.js';
import { extractHtml } from './extract-html.js';
import { raiseSuperscripts } from './superscripts.js';

describe.each(['linkedom', 'jsdom'] as const)('raiseSuperscripts (%s)', (dom) => {
  const raise = (body: string): { text: string; raised: number } => {
    const parsed = parseDocument(`<html><body><p id="p">${body}</p></body></html>`, 'https://x.example/', dom);
    try {
      const p = parsed.document.getElementById('p') as Element;
      const raised = raiseSuperscripts(Array.from(p.querySelectorAll('*')));
      return { text: p.textContent ?? '', raised };
    } finally {
      parsed.close();
    }
  };

  it('raises powers, charges and the numbers of notes, which read as other numbers or words inline', () => {
    expect(raise('a 10<sup>15</sup> scale, E = mc<sup>2</sup>, Ca<sup>2+</sup>, 10<sup>−6</sup> m')).toEqual({
      text: 'a 10¹⁵ scale, E = mc², Ca²⁺, 10⁻⁶ m',
      raised: 4,
    });
    expect(raise('Dual Degree<sup>1</sup> – $330, <em>x</em><sup>(2)</sup>').text).toBe('Dual Degree¹ – $330, x⁽²⁾');
  });

  it("writes a price's raised cents after a point", () => {
    expect(raise('Now $549<sup>00</sup>, was €1,299<sup>99</sup>').text).toBe('Now $549.00, was €1,299.99');
  });

  it('leaves ordinals, marks, linked notes and a superscript opening its block as they are', () => {
    const kept = 'the 1<sup>st</sup>, Acme<sup>TM</sup>, a note<sup><a href="#fn1">1</a></sup>';
    // (The parse writes a linked note's number in brackets, footnotes.ts.)
    expect(raise(kept)).toEqual({ text: 'the 1st, AcmeTM, a note[1]', raised: 0 });
    expect(raise('<sup>2</sup> of them').raised).toBe(0);
  });
});

describe('extractHtml with superscripts', () => {
  it.each(['linkedom', 'jsdom'] as const)('shows them raised in the text and the markdown (%s)', (dom) => {
    const para =
      'The sensor resolves 10<sup>6</sup> points a second over an area of 4 m<sup>2</sup>, and the lab notes it. ';
    const html = `<html lang="en"><head><title>Sensors</title></head><body><article><h1>Sensors</h1><p>${para.repeat(6)}</p></article></body></html>`;
    const page = extractHtml(html, { url: 'https://lab.example/sensors', dom });
    expect(page.body_text).toContain('resolves 10⁶ points a second over an area of 4 m²,');
    expect(page.body_markdown).toContain('resolves 10⁶ points a second over an area of 4 m²,');
  });
});
