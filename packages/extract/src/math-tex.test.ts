import { describe, expect, it } from '@jest/globals';
import { type DomImpl, parseDocument } from './dom.js';
import { extractHtml } from './extract-html.js';

const PARA = 'Matrices of this kind turn up in quantum mechanics, where they describe what can be measured. ';

const article = (body: string): string =>
  `<html><head><title>Matrices</title></head><body><article><h1>Matrices</h1><p>${PARA.repeat(3)}</p>${body}<p>${PARA.repeat(3)}</p></article></body></html>`;

// As KaTeX writes a formula: MathML with its TeX for assistive technology, then the drawn HTML,
// hidden from it.
const katex = (tex: string, mathml: string): string =>
  `<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow>${mathml}</mrow>` +
  `<annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span>` +
  '<span class="katex-html" aria-hidden="true"><span class="mord">x</span><span class="msupsub">2</span></span></span>';

// As MediaWiki writes one: the MathML hidden, beside an SVG drawing whose alt is the source.
const mediawiki = (tex: string, display: 'inline' | 'block'): string =>
  `<span class="mwe-math-element"><span class="mwe-math-mathml-${display} mwe-math-mathml-a11y" style="display: none;">` +
  `<math xmlns="http://www.w3.org/1998/Math/MathML"${display === 'block' ? ' display="block"' : ''} alttext="{\\displaystyle ${tex}}">` +
  `<semantics><mrow><mi>A</mi></mrow><annotation encoding="application/x-tex">{\\displaystyle ${tex}}</annotation></semantics></math></span>` +
  `<img src="https://example.com/math.svg" class="mwe-math-fallback-image-${display}" aria-hidden="true" alt="{\\displaystyle ${tex}}"></span>`;

describe.each<DomImpl>(['linkedom', 'jsdom'])('formulas as TeX (%s)', (dom) => {
  const run = (body: string) => extractHtml(article(body), { url: 'https://example.com/matrices', dom });

  it('reads a KaTeX formula as its TeX, once, and writes it between $ in the markdown', () => {
    const page = run(
      `<p>The entry ${katex('a_{ij}^2+1', '<msubsup><mi>a</mi><mi>ij</mi><mn>2</mn></msubsup><mo>+</mo><mn>1</mn>')} is real.</p>`,
    );
    expect(page.body_text).toContain('The entry a_{ij}^2+1 is real.');
    expect(page.body_markdown).toContain('The entry $a_{ij}^2+1$ is real.');
  });

  it("reads MediaWiki's hidden formula instead of its drawing, displayed ones as $$ blocks", () => {
    const page = run(
      `<p>A matrix ${mediawiki('A', 'inline')} is Hermitian when</p><dl><dd>${mediawiki('a_{ij}={\\overline {a_{ji}}}', 'block')}</dd></dl>`,
    );
    expect(page.body_text).toContain('A matrix A is Hermitian when');
    expect(page.body_text).toContain('a_{ij}={\\overline {a_{ji}}}');
    expect(page.body_markdown).toContain('A matrix $A$ is Hermitian when');
    expect(page.body_markdown).toMatch(/(^|\n)\$\$a_\{ij\}=\{\\overline \{a_\{ji\}\}\}\$\$(\n|$)/);
    expect(page.body_markdown).not.toContain('math.svg');
  });

  it('takes a hidden wrapper with the formula only when the wrapper holds nothing else', () => {
    const doc = parseDocument(
      '<html><body><div id="panel" style="display: none"><p>Panel text <math alttext="x^2"><mi>x</mi></math></p></div></body></html>',
      'https://example.com/',
      dom,
    ).document;
    expect(doc.getElementById('panel')?.textContent).toBe('Panel text x^2');
  });

  it('keeps a formula that carries no TeX as its MathML text', () => {
    const page = run('<p>Its trace <math><mrow><mi>t</mi><mo>=</mo><mn>7</mn></mrow></math> is known.</p>');
    expect(page.body_text).toContain('Its trace t=7 is known.');
  });
});
