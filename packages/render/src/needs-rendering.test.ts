import { describe, expect, it } from '@jest/globals';
import { needsRendering } from './needs-rendering.js';

const page = (body: string, head = ''): string =>
  `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
const article = `<article>${'<p>Plenty of server-rendered text about the subject at hand.</p>'.repeat(30)}</article>`;

describe('needsRendering', () => {
  it.each([
    ['an empty React root', page('<div id="root"></div><script src="/static/js/main.3f2a.js"></script>')],
    ['an empty Vue mount with a comment', page('<div id="app"><!-- app --></div>')],
    ['an empty Next.js root', page('<div id="__next"></div>')],
    ['an empty Angular root', page('<app-root></app-root><script src="runtime.js" type="module"></script>')],
    [
      'a noscript asking for JavaScript',
      page('<noscript>You need to enable JavaScript to run this app.</noscript><div class="shell"></div>'),
    ],
    ['only module scripts', page('<header>Acme</header><script type="module" src="/assets/index-4b1c.js"></script>')],
    ['a large inline app', page(`<div class="x">Loading…</div><script>${'var a=1;'.repeat(8_000)}</script>`)],
    [
      'an app whose scripts are preloaded by links (a Discourse topic as a browser gets it)',
      page(
        '<section id="d-splash"><div class="dots"></div></section>',
        '<link rel="preload" href="/assets/start-discourse-9f92.js" as="script">',
      ),
    ],
    [
      'a module preloaded by a link',
      page('<div class="shell"></div>', '<link rel="modulepreload" href="/assets/entry.js">'),
    ],
    [
      "the AJAX crawling scheme's fragment meta",
      page('<div class="shell"></div>', '<meta name="fragment" content="!">'),
    ],
  ])('says yes for %s with little text', (_, html) => {
    expect(needsRendering({ html, extractedTextLength: 12 })).toBe(true);
  });

  it('says no for a server-rendered article, even one using a framework', () => {
    const html = page(`<div id="root">${article}</div><script src="/main.js"></script>`);
    expect(needsRendering({ html, extractedTextLength: 1_800 })).toBe(false);
  });

  it('reads HTML given as a function only when the text is too short to decide', () => {
    const shell = page('<div id="root"></div>');
    let decoded = 0;
    const html = () => {
      decoded++;
      return shell;
    };
    expect(needsRendering({ html, extractedTextLength: 1_800 })).toBe(false);
    expect(decoded).toBe(0);
    expect(needsRendering({ html, extractedTextLength: 12 })).toBe(true);
    expect(decoded).toBe(1);
  });

  it('says no for a short static page without script signs', () => {
    const html = page(
      '<h1>Contact</h1><p>Write to us at hello@example.com.</p><script>gtag("js", new Date());</script>',
    );
    expect(needsRendering({ html, extractedTextLength: 45 })).toBe(false);
  });

  it('reads no sign inside a script, and no plain main.js as a bundle', () => {
    const inline = '<script>var s = "<noscript>Enable JavaScript</noscript><div id=\\"root\\"></div>";</script>';
    expect(needsRendering({ html: page(`<p>Short note.</p>${inline}`), extractedTextLength: 11 })).toBe(false);
    const plain = '<script src="/_resources/js/main.js"></script>';
    expect(needsRendering({ html: page(`<p>Short note.</p>${plain}`), extractedTextLength: 11 })).toBe(false);
    const hashed = '<script src="/_next/static/chunks/main-5f2a9c.js"></script>';
    expect(needsRendering({ html: page(`<p>Short note.</p>${hashed}`), extractedTextLength: 11 })).toBe(true);
  });

  it('decides on a hostile page of unclosed tags in one pass', () => {
    // Each of these took the earlier regular expressions from seconds to minutes (backtracking).
    for (const tag of ['<div id=app ', '<script ', '<noscript>', '<link ', '<app-root ']) {
      const html = (tag + 'a'.repeat(5_000)).repeat(300);
      expect(needsRendering({ html, extractedTextLength: 0 })).toBe(false);
    }
    const attributes = `${'<div id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id=id>'.repeat(20_000)}`;
    expect(needsRendering({ html: attributes, extractedTextLength: 0 })).toBe(false);
    expect(needsRendering({ html: "<section class='shell root'></section>", extractedTextLength: 0 })).toBe(true);
    const emptyRootAfter = `${'<div id=app '.repeat(50_000)}<div id="root"></div>`;
    expect(needsRendering({ html: emptyRootAfter, extractedTextLength: 0 })).toBe(true);
  });

  it('does not count a preloaded font or style as a script', () => {
    const head =
      '<link rel="preload" href="/f.woff2" as="font" crossorigin><link rel="preload" href="/s.css" as="style">';
    expect(
      needsRendering({ html: page('<h1>Contact</h1><p>hello@example.com</p>', head), extractedTextLength: 30 }),
    ).toBe(false);
  });

  it('wants two signs when there is some text', () => {
    const oneSign = page('<div id="app"></div><p>Some intro text.</p>');
    const twoSigns = page('<div id="app"></div><noscript>Please enable JavaScript.</noscript>');
    expect(needsRendering({ html: oneSign, extractedTextLength: 400 })).toBe(false);
    expect(needsRendering({ html: twoSigns, extractedTextLength: 400 })).toBe(true);
  });

  it('does not count a root element that has content', () => {
    const html = page('<div id="root"><p>Rendered on the server.</p></div>');
    expect(needsRendering({ html, extractedTextLength: 20 })).toBe(false);
  });
});
