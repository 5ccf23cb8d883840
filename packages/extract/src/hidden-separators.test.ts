import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { spaceHiddenSeparators } from './hidden-separators.js';

const body = (html: string) => parseHTML(`<html><body>${html}</body></html>`).document.body;
const spaced = (html: string) => {
  const root = body(html);
  const count = spaceHiddenSeparators(Array.from(root.querySelectorAll('*')));
  for (const hidden of Array.from(root.querySelectorAll('[aria-hidden="true"]'))) hidden.remove();
  return { count, text: root.textContent };
};

describe('spaceHiddenSeparators', () => {
  it('leaves a space where a hidden separator stood between two words', () => {
    expect(
      spaced('<p><span>Nov 7, 2025</span><span aria-hidden="true"><span>·</span></span><span>11 min read</span></p>'),
    ).toEqual({ count: 1, text: 'Nov 7, 2025 11 min read' });
    expect(spaced('<p>1d ago<span aria-hidden="true">|</span>3 min read</p>').text).toBe('1d ago 3 min read');
  });

  it('adds none beside a space or a block edge, nor for a hidden word', () => {
    expect(spaced('<p>Nov 7 <span aria-hidden="true">·</span> 11 min</p>')).toMatchObject({ count: 0 });
    expect(spaced('<p><span aria-hidden="true">★</span>Rated</p>')).toMatchObject({ count: 0 });
    expect(spaced('<p>Rated</p><span aria-hidden="true">★</span><p>Five</p>')).toMatchObject({ count: 0 });
    // A hidden copy of words (an animated headline's) is not a separator.
    expect(spaced('<p>Hello<span aria-hidden="true">Hello</span>world</p>')).toMatchObject({ count: 0 });
  });
});

describe('extractHtml', () => {
  it("keeps the words on either side of a post's hidden separators apart", () => {
    const para = '<p>Static sites are fast to serve and simple to host on any web server you like. </p>'.repeat(6);
    const html =
      '<html><head><title>Static sites</title></head><body><article><h1>Static sites</h1>' +
      '<div><span>Nov 7, 2025</span><span aria-hidden="true"><span> · </span></span><span>11 min read</span></div>' +
      `${para}</article></body></html>`;
    const got = extractHtml(html, { url: 'https://blog.example.org/static', dom: 'linkedom' });
    expect(got.body_text).toContain('Nov 7, 2025 11 min read');
    expect(got.body_text).not.toContain('202511');
  });
});
