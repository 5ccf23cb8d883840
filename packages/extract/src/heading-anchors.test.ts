import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropHeadingAnchors } from './heading-anchors.js';

const body = (inner: string): Element =>
  parseHTML(`<html><body>${inner}</body></html>`).document.body as unknown as Element;
const drop = (root: Element): number => dropHeadingAnchors(Array.from(root.querySelectorAll('*')));

describe('dropHeadingAnchors', () => {
  it("removes a heading's permalink glyph, however it is written", () => {
    const root = body(
      '<section id="setup"><h2>Setup<a class="headerlink" href="#setup" title="Permalink to this heading">¶</a></h2></section>' +
        '<h3 id="gatsby">Gatsby<a href="https://docs.example.org/docs#gatsby" class="hash-link">\u200b</a></h3>' +
        '<h2 id="data">Data types <a href="#data"><svg></svg></a></h2>' +
        '<h2>Preferring real estate<a href="#section2">#section2</a></h2>' +
        // Starlight: the permalink after the heading, named for screen readers.
        '<div><h3 id="why">Why Tauri?</h3><a href="#why"><svg></svg><span>Section titled “Why Tauri?”</span></a></div>',
    );
    expect(drop(root)).toBe(5);
    expect(Array.from(root.querySelectorAll('h2, h3')).map((h) => h.textContent?.trim())).toEqual([
      'Setup',
      'Gatsby',
      'Data types',
      'Preferring real estate',
      'Why Tauri?',
    ]);
    expect(root.querySelector('a')).toBeNull();
  });

  it("unwraps a heading's words from a link to its own anchor, and leaves other links", () => {
    const root = body(
      '<h2 id="making_a_request"><a href="https://developer.mozilla.org/en-US/docs/Web/API#making_a_request">Making a request</a></h2>' +
        '<a id="intro"></a><h2><a href="#intro">Intro</a></h2>' +
        // Sphinx: the words lead back to the table of contents, the glyph to the heading.
        '<h2 id="introduction"><a class="toc-backref" href="#id3" role="doc-backlink">Introduction</a><a class="headerlink" href="#introduction">¶</a></h2>' +
        '<h2>See <a href="#id9">the setup</a> first</h2><h4><a href="#panel1" data-toggle="collapse">Menu</a></h4>' +
        '<nav><a id="id3" href="#introduction">Introduction</a><a id="id9" href="#setup">Setup</a></nav><div id="panel1"></div>' +
        '<h3><a href="https://example.com/other">Another page</a></h3><p><a href="#x">¶</a></p>',
    );
    expect(drop(root)).toBe(4);
    expect(Array.from(root.querySelectorAll('h2')).map((h) => h.textContent)).toEqual([
      'Making a request',
      'Intro',
      'Introduction',
      'See the setup first',
    ]);
    // A link to another part of the page among other words or to what is not a link (an
    // accordion's toggle), to another page, or outside a heading stays.
    expect(Array.from(root.querySelectorAll('a[href]')).map((a) => a.getAttribute('href'))).toEqual([
      '#id9',
      '#panel1',
      '#introduction',
      '#setup',
      'https://example.com/other',
      '#x',
    ]);
  });
});
