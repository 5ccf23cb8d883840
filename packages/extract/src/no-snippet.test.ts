import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { dropNoSnippetBlocks } from './no-snippet.js';

const PARA = '<p>Every morning I open my laptop and go through a set of tasks that prepare the day of work. </p>';
const CARD =
  '<div class="display-card article-card" data-nosnippet><span class="label">Related</span>' +
  '<h5><a href="/automation-tools/">4 automation tools that save time</a></h5>' +
  '<p>Save time and streamline your workflow with these tools.</p></div>';

const remaining = (html: string) => {
  const root = parseHTML(`<html><body>${html}</body></html>`).document.body;
  const count = dropNoSnippetBlocks(Array.from(root.querySelectorAll('*')));
  return { count, text: (root.textContent ?? '').replace(/\s+/g, ' ').trim() };
};

describe('dropNoSnippetBlocks', () => {
  it('removes the blocks marked data-nosnippet: a related card, a banner, a marked span', () => {
    const got = remaining(`<main>${PARA.repeat(2)}${CARD}${PARA.repeat(2)}</main>`);
    expect(got.count).toBe(1);
    expect(got.text).not.toContain('automation tools');
    expect(got.text).toContain('Every morning');
    expect(
      remaining(`<div data-nosnippet="true">We value your privacy</div><main>${PARA.repeat(3)}</main>`).count,
    ).toBe(1);
    expect(remaining(`<main>${PARA.repeat(3)}<span data-nosnippet>Advertisement</span></main>`).count).toBe(1);
  });

  it('keeps a marked block that holds the page: most of its text, its headline or its main part', () => {
    // A paywalled article marked whole.
    expect(remaining(`<div data-nosnippet>${PARA.repeat(4)}</div><p>Subscribe.</p>`).count).toBe(0);
    expect(remaining(`<div data-nosnippet><h1>The headline</h1>${PARA}</div>${PARA.repeat(4)}`).count).toBe(0);
    expect(remaining(`<div data-nosnippet><main>${PARA}</main></div>${PARA.repeat(4)}`).count).toBe(0);
    expect(remaining(`<main>${PARA.repeat(3)}<div data-snippet>Kept</div></main>`).count).toBe(0);
  });
});

describe('extractHtml and data-nosnippet', () => {
  const page = `<!doctype html><html lang="en"><head><title>My morning script</title></head><body>
    <article><h1>My morning script</h1>${PARA.repeat(3)}${CARD}${PARA.repeat(3)}</article></body></html>`;

  it("leaves a related card marked data-nosnippet out of an article's text and markdown", () => {
    const got = extractHtml(page, { url: 'https://example.org/morning-script/' });
    expect(got.body_text).toContain('Every morning');
    expect(got.body_text).not.toContain('automation tools');
    expect(got.body_markdown).not.toContain('automation tools');
  });

  it("keeps it on a site's front page, whose changing lists of stories are marked so too", () => {
    const got = extractHtml(page, { url: 'https://example.org/' });
    expect(got.body_text).toContain('automation tools');
  });
});
