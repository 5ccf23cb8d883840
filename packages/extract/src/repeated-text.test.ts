import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropRepeatedBlocks } from './repeated-text.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;
const long = (word: string): string => `${word} is a block long enough to count as shown twice on the page. `.repeat(3);

describe('dropRepeatedBlocks', () => {
  it('removes the second copy of a block shown exactly twice', () => {
    const root = body(
      `<div class="mobile"><p>${long('Intro')}</p></div><div class="desktop"><p>${long('Intro')}</p><p>Rest</p></div>`,
    );
    expect(dropRepeatedBlocks(root)).toBe(1);
    expect(root.textContent?.split('Intro is a block').length).toBe(4);
    expect(root.textContent).toContain('Rest');
  });

  it('keeps text shown three times or more, short text, and a wrapper with its own block', () => {
    const thrice = body(`<p>${long('Caption')}</p><p>${long('Caption')}</p><p>${long('Caption')}</p>`);
    expect(dropRepeatedBlocks(thrice)).toBe(0);
    const short = body('<p>Read more about this</p><p>Read more about this</p>');
    expect(dropRepeatedBlocks(short)).toBe(0);
    const wrapped = body(`<div><section><p>${long('Only')}</p></section></div>`);
    expect(dropRepeatedBlocks(wrapped)).toBe(0);
    expect(wrapped.textContent).toContain('Only');
  });
});
