import { describe, expect, it } from '@jest/globals';
import { JSDOM } from 'jsdom';
import { parseHTML } from 'linkedom';
import { isPlaceholderSource, loadLazyImages, widestCandidate } from './image-sources.js';
import { contentMarkdown } from './markdown.js';

const DOMS = {
  linkedom: (inner: string): Element =>
    parseHTML(`<html><body><div id="c">${inner}</div></body></html>`).document.getElementById(
      'c',
    ) as unknown as Element,
  jsdom: (inner: string): Element =>
    new JSDOM(`<html><body><div id="c">${inner}</div></body></html>`).window.document.getElementById('c') as Element,
};

describe('isPlaceholderSource', () => {
  it('takes no source, a data: URI and a named pixel, spacer or placeholder file for a stand-in', () => {
    for (const src of [
      null,
      ' ',
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      'https://images-na.ssl-images-amazon.com/images/G/01/x-locale/common/grey-pixel.gif',
      '/wp-content/plugins/lazy-load/images/1x1.trans.gif',
      'https://fast-images.static-thomann.de/pics/images/misc/placeholder.svg',
      '/img/loading.svg?v=2',
      '/common/images/blank.gif',
      // A grey card in a photo's format, named a placeholder.
      '/themes/mit/src/img/placeholder/placeholder--frontpage--featured-news.jpg',
      '../theme/luxoft/assets/images/lazy-image-placeholder.jpg',
      '/img/placeholder.webp?v=3',
    ]) {
      expect([src, isPlaceholderSource(src)]).toEqual([src, true]);
    }
  });

  it('takes a picture for itself, even one named like a stand-in in another format or folder', () => {
    for (const src of [
      'https://www.allbirds.com/cdn/shop/files/WoolRunner_Desktop_1x1_478b0929.jpg?width=1024',
      'https://example.com/placeholder/photo.png',
      'https://example.com/images/pixelated-art.png',
      '/a/lazy-river.jpg',
      '/reviews/pixel-7-blank-screen.jpg',
      '/img/placeholders/team-photo.jpg',
    ]) {
      expect([src, isPlaceholderSource(src)]).toEqual([src, false]);
    }
  });
});

describe('widestCandidate', () => {
  it('takes the widest candidate, else the first, and never a data: URI', () => {
    expect(widestCandidate('/a-210x300.jpg 210w, /a.jpg 700w, /a-683x1024.jpg 683w')).toBe('/a.jpg');
    expect(widestCandidate('/x.jpg, /y.jpg 2x')).toBe('/y.jpg');
    expect(widestCandidate('/only.jpg')).toBe('/only.jpg');
    expect(widestCandidate('data:image/png;base64,AAA 1w')).toBeNull();
    expect(widestCandidate('https://cdn.example/i.jpg?crop=0,0,970,600 970w')).toBe(
      'https://cdn.example/i.jpg?crop=0,0,970,600',
    );
  });
});

describe.each(['linkedom', 'jsdom'] as const)('loadLazyImages (%s)', (dom) => {
  const element = DOMS[dom];

  it("gives a stand-in the picture its lazy-loading attributes hold, in their order, and leaves a real picture's source", () => {
    const root = element(
      '<img id="a" src="/grey-pixel.gif" data-src="/real.jpg" data-original="/other.jpg">' +
        '<img id="b" src="data:image/gif;base64,R0lG" data-lazy-src="/lazy.jpg">' +
        '<img id="k" src="/1x1.trans.gif" srcset="/s-210.jpg 210w, /s.jpg 700w">' +
        '<img id="d" src="/blank.gif" data-src-pc="//cdn.example/pc.jpg">' +
        '<img id="e" src="/photo.jpg" data-src="/other.jpg">' +
        '<img id="f" src="/placeholder.svg" data-src="">' +
        '<img id="g" data-src="/no-src.webp">',
    );
    expect(loadLazyImages(root)).toBe(5);
    // The grey card a news site's template shows until its script loads `data-src` (`class="ondemand"`,
    // which Readability's own lazy-image fix does not know).
    const card = element(
      '<img id="h" loading="lazy" class="ondemand" src="/img/placeholder/placeholder--frontpage--featured-news.jpg" data-src="/files/news-photo.jpg?itok=PCK">',
    );
    expect(loadLazyImages(card)).toBe(1);
    expect(card.querySelector('#h')?.getAttribute('src')).toBe('/files/news-photo.jpg?itok=PCK');
    const src = (id: string) => root.querySelector(`#${id}`)?.getAttribute('src');
    expect([src('a'), src('b'), src('k'), src('d'), src('e'), src('f'), src('g')]).toEqual([
      '/real.jpg',
      '/lazy.jpg',
      '/s.jpg',
      '//cdn.example/pc.jpg',
      '/photo.jpg',
      '/placeholder.svg',
      '/no-src.webp',
    ]);
  });

  it('shows a lazily loaded picture in the markdown, which left out its data: stand-in, alt text and all', () => {
    const html =
      '<p>Before.</p><p><img alt="The river" src="data:image/svg+xml;base64,PHN2Zz4=" data-src="/river.jpg"></p>' +
      '<p><img alt="Earbuds" src="/x-locale/common/grey-pixel.gif" data-src="https://m.media-amazon.com/i/earbuds.jpg"></p>';
    expect(contentMarkdown(element(html), 'https://example.com/post')).toBe(
      'Before.\n\n![The river](https://example.com/river.jpg)\n\n![Earbuds](https://m.media-amazon.com/i/earbuds.jpg)',
    );
  });
});
