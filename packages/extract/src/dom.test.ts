import { describe, expect, it } from '@jest/globals';
import { stripInert } from './dom.js';

describe('stripInert', () => {
  it('removes scripts, styles, comments and inline SVG, keeps JSON-LD', () => {
    const html =
      '<p>a</p><script>x("</p>")</script><STYLE>p{}</STYLE><!-- c --><svg><text>t</text></svg>' +
      '<script type="application/ld+json">{"a":"<!-- not a comment -->"}</script><p>b</p>';
    expect(stripInert(html)).toBe(
      '<p>a</p><script type="application/ld+json">{"a":"<!-- not a comment -->"}</script><p>b</p>',
    );
  });

  it('lets an unclosed script or comment run to the end, and keeps an unclosed svg', () => {
    expect(stripInert('<p>a</p><script>never closed <p>b</p>')).toBe('<p>a</p>');
    expect(stripInert('<p>a</p><!-- open <p>b</p>')).toBe('<p>a</p>');
    expect(stripInert('<svg><p>a</p>')).toBe('<svg><p>a</p>');
  });

  it('stays linear on hostile input', () => {
    const hostile = '<script '.repeat(100_000) + '<svg>'.repeat(100_000);
    const started = performance.now();
    stripInert(hostile);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
