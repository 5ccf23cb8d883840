import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { contentMarkdown } from './markdown.js';

const element = (inner: string): Element =>
  parseHTML(`<html><body><div id="c">${inner}</div></body></html>`).document.getElementById('c') as unknown as Element;

describe('contentMarkdown', () => {
  it('keeps headings, paragraphs, lists, links, code, tables and image alt text', () => {
    const md = contentMarkdown(
      element(
        '<h2>Setup</h2><p>Read <a href="https://example.com/doc">the docs</a> first.</p>' +
          '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>' +
          '<pre><code class="language-js">const x = 1;\nconsole.log(x);</code></pre>' +
          '<table><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>' +
          '<p><img src="https://example.com/cat.png" alt="A cat"></p>',
      ),
    );
    expect(md).toContain('## Setup');
    expect(md).toContain('[the docs](https://example.com/doc)');
    expect(md).toMatch(/^- one$/m);
    expect(md).toMatch(/^1\. first$/m);
    expect(md).toContain('```js\nconst x = 1;\nconsole.log(x);\n```');
    expect(md).toMatch(/\| Name \| Size \|\n\| -+ \| -+ \|\n\| a +\| 1 +\|/);
    expect(md).toContain('![A cat](https://example.com/cat.png)');
    expect(md).not.toMatch(/\n{3,}/);
  });

  it('fences every <pre>, with or without a <code>, in the language its markup names', () => {
    const md = contentMarkdown(
      element(
        // Sphinx and Pygments: spans in a bare <pre>, the language on a wrapper's class.
        '<p>Run:</p><div class="highlight-python notranslate"><div class="highlight"><pre><span></span>' +
          '<span class="kn">def</span> f():\n    <span class="k">return</span> 1\n\n\n</pre></div></div>' +
          // A man page's <pre>, and a <code> among blank text.
          '<pre>grep [OPTION...] PATTERNS</pre><pre data-lang="console">\n<code>$ ls</code>\n</pre>' +
          '<div class="highlight-default"><pre>x = 1</pre></div><pre>   </pre>',
      ),
    );
    expect(md).toContain('```python\ndef f():\n    return 1\n```');
    expect(md).toContain('```\ngrep [OPTION...] PATTERNS\n```');
    expect(md).toContain('```console\n$ ls\n```');
    // `default` names no language.
    expect(md).toContain('```\nx = 1\n```');
    expect(md.match(/```/g)).toHaveLength(8);
  });

  it('takes a code block out of the table that numbers its lines', () => {
    const md = contentMarkdown(
      element(
        '<table class="highlighttable"><tr><td class="linenos"><pre>1\n2</pre></td>' +
          '<td class="code"><div class="highlight"><pre><span>a = 1</span>\nb = 2\n</pre></div></td></tr></table>' +
          '<table><tr><td><pre>1</pre></td><td><pre>2</pre></td></tr><tr><td>3</td><td>4</td></tr></table>',
      ),
    );
    expect(md).toMatch(/^```\na = 1\nb = 2\n```$/m);
    // A table of two rows is data, whatever its cells hold.
    expect(md).toMatch(/^\| 1 +\| 2 +\|$/m);
  });

  it('resolves links and images against the base URL; a script link keeps its text only', () => {
    const md = contentMarkdown(
      element(
        '<p>See <a href="/docs/start?x=1">the guide</a>, <a href="#setup">setup</a>, ' +
          '<a href="javascript:void(0)">menu</a> and <a href="https://other.org/a">elsewhere</a>.</p>' +
          '<p><img src="img/cat.png" alt="A cat"></p>',
      ),
      'https://example.com/blog/post',
    );
    expect(md).toContain('[the guide](https://example.com/docs/start?x=1)');
    expect(md).toContain('[setup](https://example.com/blog/post#setup)');
    expect(md).toContain('[elsewhere](https://other.org/a)');
    expect(md).toContain('![A cat](https://example.com/blog/img/cat.png)');
    expect(md).toContain(' menu ');
    expect(md).not.toContain('javascript');
  });

  it("sets a picture's marked caption in emphasis", () => {
    const root = element(
      '<p>Text before.</p><figure><img src="https://example.com/t.jpg" alt="Tent">' +
        '<figcaption data-quarry-caption="">Our camp. <em>Credit</em>: Chris</figcaption></figure>',
    );
    const md = contentMarkdown(root);
    expect(md).toContain('_Our camp. Credit: Chris_');
  });

  it('turns layout tables (nested or role=presentation) into plain blocks and keeps data tables', () => {
    const md = contentMarkdown(
      element(
        '<table role="presentation"><tr><td><p>Layout text.</p></td></tr></table>' +
          '<table><tr><td><table><tr><th>K</th></tr><tr><td>V</td></tr></table></td></tr></table>',
      ),
    );
    expect(md).toContain('Layout text.');
    expect(md).not.toMatch(/\|\s*Layout text/);
    expect(md).toContain('V');
  });

  it("turns a table that lays an article out into its paragraphs, and keeps a data table's short paragraphs", () => {
    const paragraph = (i: number) => `<p>Paragraph ${i} of the story, ${'told at some length '.repeat(12)}</p>`;
    const article = `<table><tr><td></td><td>${[1, 2, 3].map(paragraph).join('')}</td></tr></table>`;
    const md = contentMarkdown(element(article));
    expect(md).toMatch(/^Paragraph 1 of the story/);
    expect(md).toContain('\n\nParagraph 2 of the story');
    expect(md).not.toContain('|');
    // Two short lines in a cell (an address) are data.
    const data = contentMarkdown(
      element(
        '<table><tr><th>Shop</th><th>Address</th></tr><tr><td>North</td><td>1 Main St<br>Springfield</td></tr></table>',
      ),
    );
    expect(data).toMatch(/\| North \|/);
  });

  it('converts big content piece by piece, in order and in bounded time', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>r${i}</td><td>${'x '.repeat(40)}</td></tr>`).join('');
    const section = (i: number) =>
      `<section><h3>Part ${i}</h3><table><tr><td><table>${rows}</table></td></tr></table><p>End of part ${i}.</p></section>`;
    const big = element(`<div>${Array.from({ length: 30 }, (_, i) => section(i)).join('')}</div>`);
    const started = performance.now();
    const md = contentMarkdown(big);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(md.indexOf('### Part 0')).toBeLessThan(md.indexOf('### Part 29'));
    expect(md).toContain('End of part 29.');
  });

  it('is empty for no element or an empty one', () => {
    expect(contentMarkdown(null)).toBe('');
    expect(contentMarkdown(element('  '))).toBe('');
  });
});
