import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { extractHtml } from './extract-html.js';
import { dropEditSections, dropHeadingAnchors } from './heading-anchors.js';

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

describe('dropEditSections', () => {
  const dropEdits = (root: Element): number => dropEditSections(Array.from(root.querySelectorAll('*')));
  const headings = (root: Element) => Array.from(root.querySelectorAll('h2, h3')).map((h) => h.textContent?.trim());

  it("removes MediaWiki's [edit] beside each heading, inside it or in its wrapper", () => {
    const root = body(
      // MediaWiki before 1.42: the control inside the heading.
      '<h2><span class="mw-headline" id="History">History</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span>' +
        '<a href="/w/index.php?title=Mozilla&amp;action=edit&amp;section=1" title="Edit section: History">edit</a>' +
        '<span class="mw-editsection-bracket">]</span></span></h2>' +
        // 1.42 and later: beside it, in the heading's wrapper.
        '<div class="mw-heading mw-heading3"><h3 id="Pledge">Pledge</h3><span class="mw-editsection"><span class="mw-editsection-bracket">[</span>' +
        '<a href="/w/index.php?title=Mozilla&amp;action=edit&amp;section=4">编辑</a><span class="mw-editsection-bracket">]</span></span></div>' +
        '<p>Text.</p>',
    );
    expect(dropEdits(root)).toBe(2);
    expect(headings(root)).toEqual(['History', 'Pledge']);
    expect(root.textContent).not.toMatch(/edit|编辑|\[/);
  });

  it('removes a section-edit link and its brackets from a heading without the class (VisualEditor, other skins)', () => {
    const root = body(
      '<h2>Geschichte<span> [<a href="/w/index.php?title=X&amp;veaction=edit&amp;section=1">Bearbeiten</a> | ' +
        '<a href="/w/index.php?title=X&amp;action=edit&amp;section=1">Quelltext bearbeiten</a>]</span></h2>',
    );
    expect(dropEdits(root)).toBe(2);
    expect(headings(root)).toEqual(['Geschichte']);
  });

  it("keeps a heading that is only such a link, a long link's words, and other links", () => {
    const root = body(
      '<h2><a href="/profile?action=edit">Edit your profile</a></h2>' +
        '<h2>Settings <a href="/settings?action=edit">a long explanation of how to change these settings</a></h2>' +
        '<h3>Docs <a href="/docs?action=editor-guide">guide</a></h3><p><a href="/p?action=edit">edit</a></p>',
    );
    expect(dropEdits(root)).toBe(0);
    expect(root.querySelectorAll('a')).toHaveLength(4);
  });
});

describe('a wiki page extracted', () => {
  it.each(['linkedom', 'jsdom'] as const)('has its headings without their [edit] in text and markdown (%s)', (dom) => {
    const para = 'The museum opened in 1901 and has kept the town records since then, in the old mill. ';
    const edit = (n: number, name: string) =>
      `<span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Museum&amp;action=edit&amp;section=${n}" title="Edit section: ${name}">edit</a><span class="mw-editsection-bracket">]</span></span>`;
    const html =
      '<html><head><title>Museum - Wiki</title></head><body><div id="content"><h1>Museum</h1>' +
      `<div id="mw-content-text"><p>${para.repeat(3)}</p>` +
      `<h2><span class="mw-headline" id="History">History</span>${edit(1, 'History')}</h2><p>${para.repeat(3)}</p>` +
      `<div class="mw-heading mw-heading2"><h2 id="Collections">Collections</h2>${edit(2, 'Collections')}</div><p>${para.repeat(3)}</p>` +
      '</div></div></body></html>';
    const page = extractHtml(html, { url: 'https://wiki.example.org/wiki/Museum', dom });
    expect(page.body_text).toMatch(/^History$/m);
    expect(page.body_text).toMatch(/^Collections$/m);
    expect(page.body_text).not.toMatch(/edit|\[/);
    expect(page.body_markdown).toMatch(/^## History$/m);
    expect(page.body_markdown).toMatch(/^## Collections$/m);
  });
});
