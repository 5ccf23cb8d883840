import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropQuotedCopies, dropRepeatedBlocks } from './repeated-text.js';

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

describe('dropQuotedCopies', () => {
  const post = 'I upgraded the firmware last week and the camera no longer drops its connection at night.';

  it('removes a quote of a post shown earlier, keeping the post and the reply', () => {
    const root = body(
      `<div class="post"><p>${post}</p></div>` +
        `<div class="post"><blockquote><p>${post}</p></blockquote><p>Same here, thanks for posting this fix.</p></div>`,
    );
    expect(dropQuotedCopies(root)).toBe(1);
    expect(root.textContent?.split('I upgraded the firmware').length).toBe(2);
    expect(root.querySelector('blockquote')?.textContent).toBe('');
    expect(root.textContent).toContain('Same here');
  });

  it('keeps a quote of a post not on the page, a short quote, the first of two quotes and repeated code', () => {
    const elsewhere = body(`<blockquote><p>${post}</p></blockquote><p>Which firmware version was that?</p>`);
    expect(dropQuotedCopies(elsewhere)).toBe(0);
    const short = body('<p>Thanks, that worked!</p><blockquote><p>Thanks, that worked!</p></blockquote>');
    expect(dropQuotedCopies(short)).toBe(0);
    const twice = body(`<blockquote><p>${post}</p></blockquote><blockquote><p>${post}</p></blockquote>`);
    expect(dropQuotedCopies(twice)).toBe(1);
    expect(twice.textContent?.split('I upgraded the firmware').length).toBe(2);
    const code = 'const connection = await camera.connect({ retries: 3, timeoutMs: 5000 });';
    const listing = body(`<pre>${code}</pre><blockquote><pre>${code}</pre></blockquote>`);
    expect(dropQuotedCopies(listing)).toBe(0);
  });

  it('keeps a paragraph repeated outside quotes', () => {
    const root = body(`<p>${post}</p><div><p>${post}</p></div>`);
    expect(dropQuotedCopies(root)).toBe(0);
    expect(root.textContent?.split('I upgraded the firmware').length).toBe(3);
  });
});
