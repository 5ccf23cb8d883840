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

// As MathJax 2 leaves a formula once it has drawn it (CommonHTML, HTML-CSS and SVG output alike): an
// empty preview, the drawing (its characters, and an assistive MathML copy without the TeX), then
// the script holding the TeX. A displayed formula's drawing sits in a display box.
const mathjax2 = (n: number, tex: string, display: boolean, preview = ''): string => {
  const drawing =
    `<span id="MathJax-Element-${n}-Frame" class="mjx-chtml MathJax_CHTML" tabindex="0" role="presentation">` +
    '<span class="mjx-math" aria-hidden="true"><span class="mjx-mi"><span class="mjx-char">a</span></span>' +
    '<span class="mjx-sup"><span class="mjx-char">2</span></span></span>' +
    '<span class="MJX_Assistive_MathML" role="presentation"><math xmlns="http://www.w3.org/1998/Math/MathML">' +
    '<msup><mi>a</mi><mn>2</mn></msup></math></span></span>';
  return (
    `<span class="MathJax_Preview" style="color: inherit;">${preview}</span>` +
    (display ? `<div class="MathJax_Display" style="text-align: center;">${drawing}</div>` : drawing) +
    `<script type="math/tex${display ? '; mode=display' : ''}" id="MathJax-Element-${n}">${tex}</script>`
  );
};

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

  it("reads MathJax 2's TeX instead of its drawing, and leaves no preview", () => {
    const page = run(
      `<p>The entry ${mathjax2(1, 'a_{ij}^2 < 1', false)} is real, and</p>${mathjax2(2, '\\sum_{k=1}^n k = \\frac{n(n+1)}{2}', true, 'Drawing the formula')}<p>holds.</p>`,
    );
    expect(page.body_text).toContain('The entry a_{ij}^2 < 1 is real, and');
    expect(page.body_text).toContain('\\sum_{k=1}^n k = \\frac{n(n+1)}{2}');
    expect(page.body_text).not.toMatch(/a2|aij|Drawing/);
    expect(page.body_markdown).toContain('The entry $a_{ij}^2 < 1$ is real, and');
    expect(page.body_markdown).toMatch(/(^|\n)\$\$\\sum_\{k=1\}\^n k = \\frac\{n\(n\+1\)\}\{2\}\$\$(\n|$)/);
  });

  it("reads MathJax 2's TeX on a page saved before MathJax drew it, without its preview", () => {
    const page = run(
      '<p>The entry <span class="MathJax_Preview">a_ij^2</span><script type="math/tex">a_{ij}^2</script> is real.</p>',
    );
    expect(page.body_text).toContain('The entry a_{ij}^2 is real.');
  });

  it('keeps other scripts out of the text', () => {
    const page = run(
      '<p>The entry <script type="math/asciimath">sum_(k=1)^n</script><script>var x = 1;</script>is real.</p>',
    );
    expect(page.body_text).toContain('The entry is real.');
  });

  it('keeps a formula that carries no TeX as its MathML text', () => {
    const page = run('<p>Its trace <math><mrow><mi>t</mi><mo>=</mo><mn>7</mn></mrow></math> is known.</p>');
    expect(page.body_text).toContain('Its trace t=7 is known.');
  });
});
