import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { CAPTION_ATTRIBUTE, markPictureCaptions } from './captions.js';
import { blockText } from './text.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;
const all = (root: Element): Element[] => Array.from(root.querySelectorAll('*'));

describe('markPictureCaptions', () => {
  it("marks a photo's caption, which the plain text then leaves out", () => {
    const root = body(
      '<p>The trail climbs for two days.</p><figure><img src="a.jpg" alt="A tent by a lake">' +
        '<figcaption>The family that backpacks together. <span>Credit: Chris McNamara</span></figcaption></figure>',
    );
    expect(markPictureCaptions(all(root))).toBe(1);
    expect(root.querySelector('figcaption')?.hasAttribute(CAPTION_ATTRIBUTE)).toBe(true);
    expect(blockText(root)).toBe('The trail climbs for two days.');
  });

  it("marks WordPress's caption of an image outside <figure>", () => {
    const root = body(
      '<div class="wp-caption alignleft"><img src="b.jpg" alt=""><p class="wp-caption-text">Photo: the summit</p></div><p>Text</p>',
    );
    expect(markPictureCaptions(all(root))).toBe(1);
    expect(blockText(root)).toBe('Text');
  });

  it('leaves the caption of a table, code or a quotation, and text merely named like a caption', () => {
    const root = body(
      '<figure><table><tr><td>3</td></tr></table><figcaption>Table 2: runs per day</figcaption></figure>' +
        '<figure><pre><code>npm start</code></pre><figcaption>Listing 1: starting it</figcaption></figure>' +
        '<figure><blockquote>Imagination is the discovering faculty.</blockquote><figcaption>Ada Lovelace</figcaption></figure>' +
        '<p class="wp-caption-texts">Not a caption</p>',
    );
    expect(markPictureCaptions(all(root))).toBe(0);
    for (const kept of ['Table 2', 'Listing 1', 'Ada Lovelace', 'Not a caption'])
      expect(blockText(root)).toContain(kept);
  });
});
