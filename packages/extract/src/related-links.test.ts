import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { dropRelatedLinks } from './related-links.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;
const text = (el: Element): string => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Paragraphs of an article's own running text. */
const prose = (n: number, topic = 'coffee'): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} about ${topic}: the beans are roasted slowly, ground just before brewing and weighed, so that every cup tastes the way the roaster meant it to taste.</p>`,
  ).join('');
const links = (titles: readonly string[]): string =>
  `<ul>${titles.map((t, i) => `<li><a href="https://example.org/post-${i}">${t}</a></li>`).join('')}</ul>`;
const HEADLINES = ['Fun Facts About Coffee', 'Types of Coffee Drinks to Order in a Cafe', 'How to Store Your Coffee'];

describe('dropRelatedLinks', () => {
  it('removes a labelled list of other pages at the end of the content, label and all', () => {
    for (const label of [
      '<h2>Related Posts:</h2>',
      '<p><strong>YOU MIGHT ALSO LIKE:</strong></p>',
      '<h3 class="wp-block-heading">Read more:</h3>',
      '<h2>More from SewCanShe:</h2>',
      '<div class="title-wrap"><h4>Recommended for you</h4></div>',
      '<h3>相关阅读</h3>',
    ]) {
      const root = body(`<article>${prose(4)}${label}${links(HEADLINES)}</article>`);
      expect(dropRelatedLinks(root)).toBe(1);
      const left = text(root);
      expect(left).toContain('Paragraph 4 about coffee');
      expect(left).not.toContain('Fun Facts About Coffee');
      expect(left).not.toMatch(/related|also like|read more|more from|recommended|相关阅读/i);
    }
  });

  it('takes a picture between the label and its list along, and a share line after it may stay', () => {
    const root = body(
      `<div>${prose(4)}<h2>More from SewCanShe:</h2><figure><img src="x.jpg" alt="Sewing room"><figcaption>Image Credit: Shutterstock</figcaption></figure>${links(HEADLINES)}<p>Share this post</p></div>`,
    );
    expect(dropRelatedLinks(root)).toBe(1);
    expect(root.querySelector('figure')).toBeNull();
    expect(text(root)).toContain('Share this post');
    expect(text(root)).not.toContain('How to Store Your Coffee');
  });

  it('leaves a list that the article goes on after: the writer put it between sections', () => {
    const html = `<article>${prose(3)}<p>Suggested reading:</p>${links(HEADLINES)}${prose(3, 'tea')}</article>`;
    const root = body(html);
    expect(dropRelatedLinks(root)).toBe(0);
    expect(text(root)).toContain('How to Store Your Coffee');
  });

  it("leaves the article's own lists: sources, references, further reading, see also", () => {
    for (const label of ['Sources', 'References', 'Further reading', 'See also', 'Downloads', 'Latest posts']) {
      const root = body(`<article>${prose(4)}<h2>${label}</h2>${links(HEADLINES)}</article>`);
      expect(dropRelatedLinks(root)).toBe(0);
      expect(text(root)).toContain(label);
    }
  });

  it('leaves a list that is most of the content, a list of one link, a label that is a sentence or a link', () => {
    const cases = [
      // An index of pages, whatever its heading.
      `<div><p>Short intro.</p><h2>Related articles</h2>${links(HEADLINES)}</div>`,
      `<article>${prose(4)}<h2>Related articles</h2>${links(HEADLINES.slice(0, 1))}</article>`,
      `<article>${prose(4)}<p>Related posts are the ones we wrote last year about roasting at home:</p>${links(HEADLINES)}</article>`,
      `<article>${prose(4)}<h2><a href="/related">Related posts</a></h2>${links(HEADLINES)}</article>`,
      // Prose after the label: not a list of other pages.
      `<article>${prose(4)}<h2>Read more</h2>${prose(1, 'grinders')}</article>`,
    ];
    for (const html of cases) {
      const root = body(html);
      expect(dropRelatedLinks(root)).toBe(0);
      expect(text(root)).toBe(text(body(html)));
    }
  });

  it('removes each of two lists at the end, the later one first', () => {
    const root = body(
      `<article>${prose(6)}<h3>Related posts</h3>${links(HEADLINES)}<h3>You may also like</h3>${links(['Tea Basics', 'Cold Brew at Home'])}</article>`,
    );
    expect(dropRelatedLinks(root)).toBe(2);
    expect(text(root)).not.toMatch(/Related posts|Fun Facts|Cold Brew/);
  });
});

describe('extractHtml and related links', () => {
  it("leaves a blog post's closing list of other posts out of its text and markdown", () => {
    const html = `<!DOCTYPE html><html><head><title>Brewing Better Coffee</title></head><body>
      <nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
      <article><h1>Brewing Better Coffee</h1>${prose(8)}
        <p><strong>Related Posts:</strong></p>${links(HEADLINES)}</article>
      <footer>© 2026 Example Roasters</footer></body></html>`;
    const got = extractHtml(html, { url: 'https://example.org/blog/brewing', dom: 'linkedom' });
    expect(got.body_text).toContain('Paragraph 8 about coffee');
    expect(got.body_text).not.toMatch(/Related Posts|Fun Facts About Coffee/);
    expect(got.body_markdown).toContain('Paragraph 8 about coffee');
    expect(got.body_markdown).not.toMatch(/Related Posts|Fun Facts About Coffee/);
  });
});
