import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { feedUrlsOf, metaRefreshOf } from './links.js';

const PAGE = 'https://example.org/old/page.html';

function head(html: string): { metas: Element[]; links: Element[] } {
  const { document } = parseHTML(`<!doctype html><html><head>${html}</head><body></body></html>`);
  return { metas: [...document.querySelectorAll('meta')], links: [...document.querySelectorAll('link')] };
}

describe('metaRefreshOf', () => {
  it.each([
    ['0; url=/new', { url: 'https://example.org/new', delaySecs: 0 }],
    [`0;URL='next.html'`, { url: 'https://example.org/old/next.html', delaySecs: 0 }],
    ['5, https://other.example.com/x#top', { url: 'https://other.example.com/x', delaySecs: 5 }],
    ['1.5; url="/a b"', { url: 'https://example.org/a%20b', delaySecs: 1 }],
    ['0; /plain', { url: 'https://example.org/plain', delaySecs: 0 }],
  ])('reads %s', (content, expected) => {
    expect(
      metaRefreshOf(head(`<meta http-equiv="Refresh" content="${content.replace(/"/g, '&quot;')}">`).metas, PAGE, PAGE),
    ).toEqual(expected);
  });

  it.each([
    ['30', 'a reload of the page itself'],
    ['0; url=page.html', 'the page itself'],
    ['soon; url=/x', 'no delay'],
    ['0; url=javascript:alert(1)', 'not http(s)'],
  ])('ignores %s (%s)', (content) => {
    expect(metaRefreshOf(head(`<meta http-equiv="refresh" content="${content}">`).metas, PAGE, PAGE)).toBeNull();
  });

  it('reads a target up to the end of the value, line breaks included', () => {
    const content = `0,URL=${'\t'.repeat(4_000)}R&#10;`;
    expect(metaRefreshOf(head(`<meta http-equiv="refresh" content="${content}">`).metas, PAGE, PAGE)).toEqual({
      url: 'https://example.org/old/R',
      delaySecs: 0,
    });
  });

  it('ignores a value longer than 4,096 characters', () => {
    // 100,000 tabs before a line break took 12 s to reject when the target stopped at line breaks.
    const content = `0,URL=${'\t'.repeat(100_000)}R&#10;`;
    expect(metaRefreshOf(head(`<meta http-equiv="refresh" content="${content}">`).metas, PAGE, PAGE)).toBeNull();
  });
});

describe('feedUrlsOf', () => {
  it('reads the RSS and Atom feeds a page declares, and nothing else', () => {
    const { links } = head(
      [
        '<link rel="alternate" type="application/rss+xml" href="/feed.xml">',
        '<link rel="Alternate" type="application/atom+xml" href="https://example.org/atom">',
        '<link rel="alternate" type="application/rss+xml" href="/feed.xml">',
        '<link rel="alternate" hreflang="de" href="/de/">',
        '<link rel="stylesheet" type="text/css" href="/s.css">',
      ].join(''),
    );
    expect(feedUrlsOf(links, PAGE)).toEqual(['https://example.org/feed.xml', 'https://example.org/atom']);
  });
});
