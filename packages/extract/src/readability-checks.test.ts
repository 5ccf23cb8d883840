import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Readability } from '@mozilla/readability';
import { parseDocument } from './dom.js';
import { type ReadabilityChecks, withCheapChecksFirst } from './readability-checks.js';
import { withCountedGetter } from './testing/getter-reads.js';

const DIR = join(import.meta.dirname, '../../../../shared/testdata/readability-pages');

/** Readability's own methods (the prototype's) and the cheaper ones, on one document. */
function pair(doc: Document): { own: ReadabilityChecks; cheap: ReadabilityChecks } {
  const own = new Readability(doc) as unknown as ReadabilityChecks;
  const cheap = new Readability(doc) as unknown as ReadabilityChecks;
  withCheapChecksFirst(cheap);
  return { own, cheap };
}

/** Every answer of the four tests on every element of `doc` that differs between the two. */
function differences(doc: Document): string[] {
  const { own, cheap } = pair(doc);
  const found: string[] = [];
  const elements = Array.from(doc.querySelectorAll('*'));
  for (const el of elements) {
    const match = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
    const where = `<${el.localName} class="${el.getAttribute('class') ?? ''}">`;
    if (!own._isValidByline(el, match) !== !cheap._isValidByline(el, match)) found.push(`byline ${where}`);
    if (!own._isElementWithoutContent(el) !== !cheap._isElementWithoutContent(el)) found.push(`empty ${where}`);
    // Readability's own answer can be a falsy class name rather than `false`: compared as booleans.
    // The one difference on purpose: `display: none !important` hides (linkedom's `style.display`
    // reads `none !important`, which Readability's `== "none"` takes for visible).
    const important = /(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*!important/i.test(
      el.getAttribute('style') ?? '',
    );
    if (!own._isProbablyVisible(el) !== !cheap._isProbablyVisible(el) && !important) found.push(`visible ${where}`);
  }
  for (const tags of [['a'], ['h1', 'h2'], ['p'], ['img', 'picture', 'figure'], ['br'], ['script', 'noscript']]) {
    for (const root of [doc.body, ...elements.filter((el) => el.localName === 'div').slice(0, 20)]) {
      const a = Array.from(own._getAllNodesWithTag(root, tags));
      const b = Array.from(cheap._getAllNodesWithTag(root, tags));
      if (a.length !== b.length || a.some((el, i) => el !== b[i])) found.push(`tags ${tags.join(',')}`);
    }
  }
  return found;
}

const EDGES = `<!DOCTYPE html><html><head><title>t</title></head><body>
  <div id="brs"><br><br></div><div id="hr"> <hr> </div><div id="blank">&nbsp; \u2003 </div>
  <div id="nested-br"><span><br></span><br></div><div id="text-and-br">x<br></div><section></section>
  <div id="tpl"><template><p>hidden <br> text</p></template></div><div><template><div><br></div></template></div>
  <p class="byline">By Jane Doe</p><a rel="author" href="/j">Jane</a><span itemprop="author">J</span>
  <div class="author-bio">${'A long biography of the author. '.repeat(5)}</div><span class="author"> </span>
  <div style="display:none">x</div><div style="visibility: hidden">y</div><div style="color:red">z</div>
  <div style="color: red; display: none !important">i</div>
  <div hidden>h</div><div aria-hidden="true">a</div><img aria-hidden="true" class="mwe-math-fallback-image-inline">
  <div aria-hidden="false">f</div><svg><g><text>svg text</text></g></svg><h1>One</h1><h2>Two</h2>
  <p>Para <a href="#x">link</a></p><noscript><img src="a.png"></noscript><script>var x = 1;</script>
</body></html>`;

interface Parsed {
  html: string;
  reads: number;
}

/** The HTML of the article Readability finds in `doc`, with or without the cheaper checks. */
function articleHtml(doc: Document, cheap: boolean): string {
  const reader = new Readability<Node>(doc, { serializer: (node) => node });
  if (cheap) withCheapChecksFirst(reader);
  const content = reader.parse()?.content as unknown as Element | undefined;
  return content?.innerHTML ?? '';
}

/** {@link articleHtml} of `html` parsed by linkedom, and the `textContent` reads it made. */
function parseCounted(html: string, cheap: boolean): Parsed {
  const doc = parseDocument(html, 'http://fakehost/test/page.html', 'linkedom').document;
  const { result, reads } = withCountedGetter(
    doc.body,
    'textContent',
    () => true,
    () => articleHtml(doc, cheap),
  );
  return { html: result, reads };
}

describe('withCheapChecksFirst', () => {
  it('answers as Readability does on edge cases, with linkedom', () => {
    const doc = parseDocument(EDGES, 'https://example.com/', 'linkedom').document;
    expect(differences(doc)).toEqual([]);
    // The cases are live: each test meets both of its answers among them.
    const { cheap } = pair(doc);
    const byId = (id: string) => doc.getElementById(id)!;
    expect(['brs', 'hr', 'blank', 'nested-br'].map((id) => cheap._isElementWithoutContent(byId(id)))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['text-and-br', 'tpl'].map((id) => cheap._isElementWithoutContent(byId(id)))).toEqual([false, false]);
    const hidden = Array.from(doc.body.children).filter((el) => !cheap._isProbablyVisible(el));
    expect(hidden.map((el) => el.textContent)).toEqual(['x', 'y', 'i', 'h', 'a']);
    const bylines = Array.from(doc.body.querySelectorAll('*')).filter((el) =>
      cheap._isValidByline(el, `${el.getAttribute('class') ?? ''} ${el.id}`),
    );
    expect(bylines.map((el) => el.textContent)).toEqual(['By Jane Doe', 'Jane', 'J']);
    // A template's content is not searched, as a selector does not search it.
    expect(Array.from(cheap._getAllNodesWithTag(doc.body, ['p'])).map((el) => el.textContent)).toEqual([
      'By Jane Doe',
      'Para link',
    ]);
  });

  it('answers as Readability does on edge cases, with jsdom', () => {
    let doc: Document;
    try {
      doc = parseDocument(EDGES, 'https://example.com/', 'jsdom').document;
    } catch {
      console.warn('jsdom comparison skipped: jsdom cannot load in this test runtime');
      return;
    }
    expect(differences(doc)).toEqual([]);
  });

  (existsSync(DIR) ? it : it.skip)('answers as Readability does on every element of real pages', () => {
    const pages = readdirSync(DIR).filter((_, i) => i % 4 === 0);
    expect(pages.length).toBeGreaterThan(10);
    for (const name of pages) {
      const html = readFileSync(join(DIR, name, 'source.html'), 'utf8');
      const doc = parseDocument(html, 'http://fakehost/test/page.html', 'linkedom').document;
      expect({ name, differences: differences(doc) }).toEqual({ name, differences: [] });
    }
  });

  it("skips parse's debug serialization of the article it grabbed, and no later one", () => {
    const html =
      '<html><body><nav><a href="/">Home</a></nav><article><h1>Tides</h1>' +
      `${'<p>The moon pulls the sea, and the sea follows it around the earth twice a day.</p>'.repeat(12)}` +
      '</article></body></html>';
    const reads: string[] = [];
    for (const cheap of [false, true]) {
      const doc = parseDocument(html, 'https://example.org/tides', 'linkedom').document;
      const reader = new Readability<Node>(doc, { serializer: (node) => node, debug: true });
      if (cheap) withCheapChecksFirst(reader);
      // Readability 0.6 logs through console.log when debugging.
      const log = console.log;
      console.log = (...args: unknown[]) => {
        const line = args.map(String).join(' ');
        if (line.includes('Grabbed:')) reads.push(line);
      };
      let content: Element;
      try {
        content = reader.parse()?.content as unknown as Element;
      } finally {
        console.log = log;
      }
      expect(content.innerHTML).toContain('<p>The moon pulls the sea');
    }
    expect(reads).toHaveLength(2);
    expect(reads[0]).toContain('<p>The moon pulls the sea');
    expect(reads[1]).not.toContain('<p>');
  });

  it("reads a long list's children once while testing it, and removes what Readability removes", () => {
    // Items a script fills (an icon each): a list with no text, which Readability removes.
    const items = '<li><i class="icon"></i></li>'.repeat(300);
    const html =
      '<html><body><article><h1>Tides</h1>' +
      `${'<p>The moon pulls the sea, and the sea follows it around the earth twice a day.</p>'.repeat(12)}` +
      `<ul id="all">${items}</ul></article></body></html>`;
    const results: Array<{ html: string; reads: number }> = [];
    for (const cheap of [false, true]) {
      const doc = parseDocument(html, 'https://example.org/tides', 'linkedom').document;
      const list = doc.getElementById('all') as Element;
      // The prototype's getter, counted for the list alone.
      const { result, reads } = withCountedGetter(
        list,
        'children',
        (el) => el === list,
        () => articleHtml(doc, cheap),
      );
      results.push({ html: result, reads });
    }
    const [own, cheap] = results as [{ html: string; reads: number }, { html: string; reads: number }];
    // Readability removes the list from the article, with and without the copy.
    expect(own.html).toContain('The moon pulls the sea');
    expect(own.html).not.toContain('<li>');
    expect(cheap.html).toBe(own.html);
    // Readability's test read the list's children once per item (twice, in fact), the copy once.
    expect(own.reads).toBeGreaterThan(300);
    expect(cheap.reads).toBeLessThan(5);
  });

  it('marks the same tables as data or layout tables as Readability does', () => {
    const cell = (n: number) => '<td>x</td>'.repeat(n);
    const rows = (r: number, c: number) => `<tr>${cell(c)}</tr>`.repeat(r);
    const tables = [
      `<table role="presentation">${rows(12, 6)}</table>`,
      `<table datatable="0">${rows(12, 6)}</table>`,
      `<table summary="Prices">${rows(1, 1)}</table>`,
      `<table><caption>Prices</caption>${rows(1, 1)}</table>`,
      `<table><caption></caption>${rows(1, 1)}</table>`,
      `<table><thead><tr><th>a</th></tr></thead>${rows(1, 1)}</table>`,
      `<table><colgroup><col></colgroup>${rows(2, 2)}</table>`,
      `<table>${rows(3, 3)}<tr><td><table>${rows(12, 6)}</table></td></tr></table>`,
      `<table>${rows(1, 8)}</table>`,
      `<table>${rows(10, 2)}</table>`,
      `<table>${rows(3, 5)}</table>`,
      `<table>${rows(3, 4)}</table>`,
      `<table>${rows(2, 3)}</table>`,
      `<table><tr><td colspan="4">x</td><td rowspan="3">y</td></tr>${rows(2, 2)}</table>`,
      // A caption in a nested table is the outer table's first caption too.
      `<table><tr><td><table><caption>Inner</caption>${rows(1, 1)}</table></td></tr></table>`,
    ];
    const html = `<html><body>${tables.map((t) => `<div>${t}</div>`).join('')}</body></html>`;
    const marks = (cheap: boolean, dom: 'linkedom' | 'jsdom', source = html) => {
      const doc = parseDocument(source, 'https://example.com/', dom).document;
      const reader = new Readability(doc) as unknown as ReadabilityChecks;
      if (cheap) withCheapChecksFirst(reader);
      reader._markDataTables(doc.documentElement);
      return Array.from(
        doc.getElementsByTagName('table'),
        (t) => (t as { _readabilityDataTable?: boolean })._readabilityDataTable,
      );
    };
    const own = marks(false, 'linkedom');
    expect(marks(true, 'linkedom')).toEqual(own);
    // The cases are live: both marks, and each rule, are met.
    expect(own).toEqual([
      false,
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      false,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
    ]);
    let withJsdom: [unknown[], unknown[]] | null = null;
    try {
      withJsdom = [marks(true, 'jsdom'), marks(false, 'jsdom')];
    } catch {
      console.warn('jsdom comparison skipped: jsdom cannot load in this test runtime');
    }
    if (withJsdom) expect(withJsdom[0]).toEqual(withJsdom[1]);
    if (!existsSync(DIR)) return;
    for (const name of readdirSync(DIR)) {
      const page = readFileSync(join(DIR, name, 'source.html'), 'utf8');
      expect({ name, marks: marks(true, 'linkedom', page) }).toEqual({ name, marks: marks(false, 'linkedom', page) });
    }
  });

  it("reads each element's text once per cleaning pass over nested blocks, and keeps what Readability keeps", () => {
    // Blocks nested 60 deep around 300 short ones: each nested block's density reads all below it
    // (a block with ten commas is kept untested, so the text has none).
    const depth = 60;
    const blocks = 300;
    const html =
      '<html><body><article><h1>Layers</h1>' +
      `${'<div>'.repeat(depth)}${'<div>A layer of sediment and under it another and older one.</div>'.repeat(blocks)}` +
      `${'</div>'.repeat(depth)}</article></body></html>`;
    const runs = [false, true].map((cheap) => parseCounted(html, cheap));
    const [own, cheap] = runs as [Parsed, Parsed];
    expect(own.html).toContain('older one');
    expect(cheap.html).toBe(own.html);
    // Readability read the text of every block below for each nested block it tested.
    expect(own.reads).toBeGreaterThan(depth * blocks);
    expect(cheap.reads).toBeLessThan(own.reads / 10);
  });

  (existsSync(DIR) ? it : it.skip)('keeps what Readability keeps on real pages', () => {
    const pages = readdirSync(DIR).filter((_, i) => i % 3 === 1);
    expect(pages.length).toBeGreaterThan(10);
    for (const name of pages) {
      const html = readFileSync(join(DIR, name, 'source.html'), 'utf8');
      const [own, cheap] = [false, true].map((c) => parseCounted(html, c).html);
      expect({ name, same: cheap === own }).toEqual({ name, same: true });
    }
  });

  it("leaves _grabArticle as it is where parse logs no article's HTML", () => {
    const doc = parseDocument('<html><body><p>Text.</p></body></html>', 'https://example.org/', 'linkedom').document;
    const reader = new Readability<Node>(doc) as unknown as ReadabilityChecks & { parse: () => unknown };
    const own = reader._grabArticle;
    reader.parse = () => null;
    withCheapChecksFirst(reader);
    expect(reader._grabArticle).toBe(own);
  });

  it('leaves an object without those methods as it is', () => {
    const other = { _isValidByline: 1 };
    withCheapChecksFirst(other);
    expect(other).toEqual({ _isValidByline: 1 });
  });
});
