import { describe, expect, it } from '@jest/globals';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';

const PARA = '<p>Cargo builds Rust packages, fetches their dependencies and runs their tests in one go. </p>';
const page = (body: string): string =>
  `<html><head><title>Cargo</title></head><body><article><h1>Cargo</h1>${PARA.repeat(3)}${body}</article></body></html>`;

describe.each<DomImpl>(['linkedom', 'jsdom'])('footnotes (%s)', (dom) => {
  const run = (body: string) => extractHtml(page(body), { url: 'https://example.com/cargo', dom });

  it('reads a reference as [1] and writes its note as a markdown footnote, without the link back (kramdown, Hugo)', () => {
    const got = run(
      '<p>Cargo was released in 2014.<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup> It is stable.</p>' +
        '<div class="footnotes" role="doc-endnotes"><ol><li id="fn:1"><p>See the announcement.&nbsp;<a href="#fnref:1" class="reversefootnote" role="doc-backlink">↩︎</a></p></li></ol></div>',
    );
    expect(got.body_text).toContain('Cargo was released in 2014.[1] It is stable.');
    expect(got.body_text).not.toContain('↩');
    expect(got.body_markdown).toContain('Cargo was released in 2014.[^1] It is stable.');
    expect(got.body_markdown).toMatch(/^\[\^1\]: See the announcement\.$/m);
  });

  it("reads Pandoc's reference, its number raised inside the link", () => {
    const got = run(
      '<p>Crates come from a registry.<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a></p>' +
        '<section class="footnotes"><ol><li id="fn1"><p>crates.io by default.<a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol></section>',
    );
    expect(got.body_text).toContain('Crates come from a registry.[1]');
    expect(got.body_markdown).toContain('Crates come from a registry.[^1]');
    expect(got.body_markdown).toMatch(/^\[\^1\]: crates\.io by default\.$/m);
  });

  it("drops MediaWiki's links back, the arrow and the letters, from its notes", () => {
    const got = run(
      '<p>Cargo shipped with Rust 1.0.<sup id="cite_ref-a_1-0" class="reference"><a href="#cite_note-a-1">[1]</a></sup> Again.<sup id="cite_ref-a_1-1" class="reference"><a href="#cite_note-a-1">[1]</a></sup></p>' +
        '<ol class="references"><li id="cite_note-a-1"><span class="mw-cite-backlink">^ <a href="#cite_ref-a_1-0"><sup><i><b>a</b></i></sup></a> <a href="#cite_ref-a_1-1"><sup><i><b>b</b></i></sup></a></span> <span class="reference-text">The release notes.</span></li></ol>',
    );
    expect(got.body_text).toContain('Cargo shipped with Rust 1.0.[1] Again.[1]');
    expect(got.body_markdown).toContain('Cargo shipped with Rust 1.0.[^1] Again.[^1]');
    expect(got.body_markdown).toMatch(/^\[\^1\]: The release notes\.$/m);
  });

  it("keeps a note's own number that links back, as text", () => {
    const got = run(
      '<p>Alerts should be rare.<sup><a data-type="noteref" id="n22-marker" href="#n22">22</a></sup></p>' +
        '<div data-type="footnotes"><p data-type="footnote" id="n22"><sup><a href="#n22-marker">22</a></sup> Known as alert spam.</p></div>',
    );
    expect(got.body_text).toContain('Alerts should be rare.[22]');
    expect(got.body_text).toMatch(/(^|\n)22 Known as alert spam\./);
  });

  it('drops a link back known only by its arrow', () => {
    const got = run(
      '<p><a name="back1"></a>Builds are cached.<sup><a href="#note1">1</a></sup></p><ol><li id="note1">Under target/. <a href="#back1">↩</a></li></ol>',
    );
    expect(got.body_markdown).toMatch(/^\[\^1\]: Under target\/\.$/m);
  });

  it('leaves other raised text and other in-page links alone', () => {
    const got = run(
      '<p>It grows as n<sup>2</sup>, see <sup><a href="/notes">3</a></sup> and <a href="#usage">the usage</a>.</p>',
    );
    // (A power is raised by superscripts.ts, not read as a note.)
    expect(got.body_text).toContain('It grows as n², see 3 and the usage.');
  });
});
