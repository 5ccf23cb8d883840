import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropPopups } from './popups.js';

const PARA = '<p>Ownership is a set of rules that govern how a Rust program manages memory at run time. </p>';
const remaining = (html: string) => {
  const root = parseHTML(`<html><body>${html}</body></html>`).document.body;
  const count = dropPopups(Array.from(root.querySelectorAll('*')));
  return { count, text: (root.textContent ?? '').replace(/\s+/g, ' ').trim() };
};

describe('dropPopups', () => {
  it("removes a popup standing apart from the page's parts: mdBook's keyboard help, a dialog", () => {
    const help =
      '<div id="mdbook-help-container"><div id="mdbook-help-popup"><h2>Keyboard shortcuts</h2>' +
      '<p>Press <kbd>?</kbd> to show this help</p></div></div>';
    expect(remaining(`${help}<main>${PARA.repeat(4)}</main>`)).toMatchObject({ count: 1 });
    expect(remaining(`${help}<main>${PARA.repeat(4)}</main>`).text).not.toContain('Keyboard');
    expect(
      remaining(`<main>${PARA.repeat(4)}</main><div><div role="dialog">Sign up for our newsletter</div></div>`).count,
    ).toBe(1);
    expect(remaining(`<main>${PARA.repeat(4)}</main><dialog>Choose your region</dialog>`).count).toBe(1);
  });

  it('removes a block a script shows only while a popup is open, and keeps one shown otherwise', () => {
    const shown = (condition: string) =>
      remaining(
        `<main>${PARA.repeat(4)}</main><div ${condition}><h3>Notify me when back in stock</h3><p>We will email you.</p></div>`,
      );
    for (const condition of [
      'v-if="isNotifyModalOpen"',
      'v-show="isModalOpen(\'size-guide\')"',
      'x-show="popupVisible"',
      'ng-if="dialogOpen"',
    ]) {
      expect(shown(condition).count).toBe(1);
      expect(shown(condition).text).not.toContain('Notify me');
    }
    for (const condition of [
      'v-if="!isModalOpen"',
      'v-show="isSizeSelected"',
      'x-show="open"',
      'data-if="modalOpen"',
    ]) {
      expect(shown(condition).count).toBe(0);
    }
  });

  it("keeps a popup inside a part of the page, the page's own, a link naming one, and a large one", () => {
    // A note opening over a paragraph: the part is weighed with it.
    expect(remaining(`<main>${PARA.repeat(4)}<div class="term-modal">Coverage while offline</div></main>`).count).toBe(
      0,
    );
    // Drupal's wrapper of the whole page, a popup holding the headline.
    expect(remaining(`<div class="dialog-off-canvas-main-canvas">${PARA.repeat(4)}</div>`).count).toBe(0);
    expect(remaining(`<div class="modal"><h1>Photo</h1>A caption</div><main>${PARA.repeat(4)}</main>`).count).toBe(0);
    expect(
      remaining(`<a class="external-popup" href="https://irs.gov">IRS</a><main>${PARA.repeat(4)}</main>`).count,
    ).toBe(0);
    expect(remaining(`<div class="modal-open">${PARA}</div><main>${PARA.repeat(4)}</main>`).count).toBe(0);
    // More than a sixth of the page's text is the page shown in a dialog.
    expect(remaining(`<div class="lightbox">${PARA.repeat(2)}</div><main>${PARA.repeat(4)}</main>`).count).toBe(0);
  });
});
