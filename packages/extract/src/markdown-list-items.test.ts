import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';

const PARA = '<p>Rust programs are built with cargo, which fetches crates and compiles them in order. </p>';
const page = (list: string): string =>
  `<html><head><title>Install</title></head><body><article><h1>Install</h1>${PARA.repeat(3)}${list}${PARA.repeat(3)}</article></body></html>`;

/** The markdown read back by a CommonMark parser (marked), as a DOM to ask what holds what. */
function readBack(markdown: string): Document {
  return parseHTML(`<html><body>${marked.parse(markdown, { async: false })}</body></html>`)
    .document as unknown as Document;
}

describe.each<DomImpl>(['linkedom', 'jsdom'])('code blocks in list items (%s)', (dom) => {
  const run = (list: string) => extractHtml(page(list), { url: 'https://example.com/install', dom }).body_markdown;

  it('keeps a step’s code block whole and inside its item, with what follows it', () => {
    const code = 'curl https://sh.rustup.rs | sh\n\nrustup default stable';
    const md = run(
      `<ol><li><p>Install the toolchain:</p><pre><code class="language-sh">${code}\n</code></pre><p>Then check it.</p></li><li>Build the project.</li></ol>`,
    );
    expect(md).toContain('1. Install the toolchain:\n');
    const doc = readBack(md);
    const items = Array.from(doc.querySelectorAll('ol > li'));
    expect(items).toHaveLength(2);
    const block = items[0]?.querySelector('pre > code');
    expect(block?.getAttribute('class')).toBe('language-sh');
    expect(block?.textContent).toBe(`${code}\n`);
    expect(items[0]?.textContent).toContain('Then check it.');
    expect(items[1]?.textContent?.trim()).toBe('Build the project.');
  });

  it('puts the code block of an item nested three deep in that item', () => {
    const doc = readBack(
      run(
        '<ul><li>A<ul><li>B<ul><li>C<ul><li>Inner:<pre><code>make\n</code></pre></li></ul></li></ul></li></ul></li><li>Second</li></ul>',
      ),
    );
    expect(doc.querySelector('ul > li > ul > li > ul > li > ul > li > pre > code')?.textContent).toBe('make\n');
  });

  it('puts a nested item’s code block in that item', () => {
    const doc = readBack(
      run('<ul><li>Top<ul><li>Inner:<pre><code>a\n  b\n</code></pre></li></ul></li><li>Second</li></ul>'),
    );
    const inner = doc.querySelector('ul > li > ul > li');
    expect(inner?.querySelector('pre > code')?.textContent).toBe('a\n  b\n');
    expect(doc.querySelectorAll('body > ul > li')).toHaveLength(2);
  });

  it('keeps a quoted example and its code in its item (Sphinx)', () => {
    const doc = readBack(
      run(
        '<ul><li><p><strong>status</strong>: List active nodes.</p><blockquote><div><div class="highlight-console"><pre>$ celery -A proj status\n</pre></div>' +
          '<p>It lists every node.</p></div></blockquote></li><li><p><strong>purge</strong>: Purge messages.</p></li></ul>',
      ),
    );
    const items = Array.from(doc.querySelectorAll('body > ul > li'));
    expect(items).toHaveLength(2);
    expect(items[0]?.querySelector('blockquote pre > code')?.textContent).toBe('$ celery -A proj status\n');
    expect(items[0]?.querySelector('blockquote')?.textContent).toContain('It lists every node.');
  });

  it('reads an item that opens with its code block', () => {
    const doc = readBack(run('<ul><li><pre><code>make\n</code></pre></li><li>Second</li></ul>'));
    expect(doc.querySelector('ul > li > pre > code')?.textContent).toBe('make\n');
    expect(doc.querySelectorAll('ul > li')).toHaveLength(2);
  });

  it("writes an item's second line at its content's column", () => {
    expect(run('<ul><li>One<br>two</li><li>Three</li></ul>')).toContain('- One  \n  two\n- Three');
    expect(run('<ol><li>One<br>two</li></ol>')).toContain('1. One  \n   two');
  });

  it("writes a nested item's lines at its own content column, not indented again by each item around it", () => {
    const nested = (tag: string, depth: number) =>
      `${`<${tag}><li>`.repeat(depth)}<p>para one</p><p>para two</p>${`</li></${tag}>`.repeat(depth)}`;
    expect(run(nested('ol', 4))).toContain('1. 1. 1. 1. para one  \n            para two');
    expect(run(nested('ul', 4))).toContain('- - - - para one  \n        para two');
    // A blank line (a paragraph opening with <br>) keeps the lines after it in the item.
    expect(run('<ol><li><div>Cover</div><p><br>Book title</p></li></ol>')).toMatch(
      /^1\. Cover *\n *\n {3}Book title$/m,
    );
    expect(run('<ul><li>Shelf<ul><li><div>Cover</div><p><br>Book title</p></li></ul></li></ul>')).toMatch(
      /^ {2}- Cover *\n *\n {4}Book title$/m,
    );
  });

  it('lays out flat the lists nested deeper than sixteen items, and the quotes deeper than sixteen', () => {
    // Each level indents all it holds: 250 levels of 20,000 paragraphs asked for more than a string holds.
    const lists = run(`${'<ul><li>level '.repeat(20)}<p>deepest</p>${'</li></ul>'.repeat(20)}`);
    expect(lists).toContain('deepest');
    expect(lists.match(/^ *- /gm)).toHaveLength(16);
    const quotes = extractHtml(page(`${'<blockquote><p>said</p>'.repeat(20)}${'</blockquote>'.repeat(20)}`), {
      url: 'https://example.com/install',
      dom,
    }).body_markdown;
    expect(quotes.match(/said/g)).toHaveLength(20);
    expect(Math.max(...(quotes.match(/^[> ]+/gm) ?? []).map((marks) => marks.replace(/ /g, '').length))).toBe(16);
  });

  it('nests a list in an ordered item at that item’s content column, three spaces past `1.`', () => {
    // node-html-markdown indented every level by two spaces: under `1. ` a CommonMark reader ended
    // the ordered list there and read the sub-items as a list of their own.
    const md = run(
      '<ol><li>Open the settings<ul><li>General</li><li>Advanced<ol><li>Reset</li></ol></li></ul></li><li>Save</li></ol>',
    );
    expect(md).toContain('1. Open the settings\n   - General\n   - Advanced\n     1. Reset\n2. Save');
    const doc = readBack(md);
    expect(doc.querySelectorAll('body > ol > li')).toHaveLength(2);
    expect(doc.querySelector('body > ol > li > ul > li > ol > li')?.textContent).toBe('Reset');
  });

  it('numbers an ordered list from its start, past nine digits or not a number from 1', () => {
    expect(run('<ol start="3"><li>Three</li><li>Four</li></ol>')).toContain('3. Three\n4. Four');
    expect(run('<ol start="0"><li>Zero</li></ol>')).toContain('0. Zero');
    for (const start of ['-2', 'x', '9999999999']) {
      expect(run(`<ol start="${start}"><li>One</li><li>Two</li></ol>`)).toContain('1. One\n2. Two');
    }
    expect(readBack(run('<ol start="7"><li>Seven</li></ol>')).querySelector('ol')?.getAttribute('start')).toBe('7');
  });

  it('parts an item from the ordered list under it that starts past 1, which cannot interrupt its text', () => {
    // CommonMark read `   3. alpha` on as the text of `Step one`: only a list starting at 1 may
    // interrupt a paragraph.
    const md = run('<ol><li>Step one<ol start="3"><li>alpha</li><li>beta</li></ol></li><li>Step two</li></ol>');
    expect(md).toContain('1. Step one\n\n   3. alpha\n   4. beta\n2. Step two');
    const doc = readBack(md);
    expect(Array.from(doc.querySelectorAll('body > ol > li > ol > li'), (li) => li.textContent)).toEqual([
      'alpha',
      'beta',
    ]);
    expect(doc.querySelector('body > ol > li > ol')?.getAttribute('start')).toBe('3');
    // However long the item's line (the line is read in one pass, not backtracked over).
    const long = `Step ${'word '.repeat(4_000)}end`;
    expect(run(`<ol><li>${long}<ol start="3"><li>alpha</li></ol></li></ol>`)).toContain(`end\n\n   3. alpha`);
    // A sub-list from 1, and the items of one list, stay as they were.
    expect(run('<ul><li>Item<ol><li>one</li><li>two</li></ol></li></ul>')).toContain('- Item\n  1. one\n  2. two');
    expect(run('<ul><li>Item<ol start="2"><li>two</li></ol></li></ul>')).toContain('- Item\n\n  2. two');
    // After a nested item's code block no paragraph is open: the next item follows as it did.
    expect(
      run(
        '<ol><li>Install:<ol><li>Init:<pre><code>go mod init</code></pre></li><li>Get:<pre><code>go get</code></pre></li></ol></li></ol>',
      ),
    ).toContain('      go mod init\n      ```\n   2. Get:');
  });

  it('keeps in its item a paragraph in emphasis, or one starting with a dash, a plus or a star', () => {
    // A line starting `*`, `-` or `+` was kept from the join as if it opened a nested item: it
    // stood at the left edge and ended the list, and the item's lines after it read as code.
    const doc = readBack(
      run(
        '<ul><li><h4>Re: Rust</h4><div><p><em>The problems are well known.</em></p><p>+1 for this.</p><p>In most cases, I agree.</p></div>' +
          '<ul><li>A reply.</li></ul></li><li>Second</li></ul>',
      ),
    );
    const items = doc.querySelectorAll('body > ul > li');
    expect(items).toHaveLength(2);
    expect(items[0]?.querySelector('em')?.textContent).toBe('The problems are well known.');
    expect(items[0]?.textContent).toContain('+1 for this.');
    expect(items[0]?.textContent).toContain('In most cases, I agree.');
    expect(items[0]?.querySelector('ul > li')?.textContent?.trim()).toBe('A reply.');
    expect(doc.querySelector('pre')).toBeNull();
  });

  it('keeps a table in its item, between blank lines, and a rule under the item’s text', () => {
    const md = run(
      '<ol><li><p>Compare:</p><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>$10</td></tr></table><p>Then pick one.</p><hr><p>After the rule.</p></li>' +
        '<li><table><tr><th>Size</th></tr><tr><td>XL</td></tr></table></li></ol>',
    );
    expect(md).toContain('1. Compare:\n\n   | Plan | Price |\n');
    const doc = readBack(md);
    const items = doc.querySelectorAll('body > ol > li');
    expect(items).toHaveLength(2);
    expect(Array.from(items[0]?.querySelectorAll('table td') ?? [], (td) => td.textContent)).toEqual(['Pro', '$10']);
    // Not one more row of the table.
    expect(items[0]?.querySelector('table')?.textContent).not.toContain('Then pick one.');
    expect(items[0]?.querySelector('p:last-child')?.textContent).toBe('After the rule.');
    expect(items[0]?.querySelector('hr')).not.toBeNull();
    // The rule did not make the text above it a heading.
    expect(doc.querySelector('h2')).toBeNull();
    expect(items[1]?.querySelector('table th')?.textContent).toBe('Size');
  });

  it('parts the item’s text after a nested list from the nested list’s last item', () => {
    // Joined by a line break, it read as more of the last nested item's text.
    const doc = readBack(
      run(
        '<ul><li>Materials<ul><li>Oak</li><li>Steel</li></ul><p><strong>Dimensions</strong></p>120 cm wide</li></ul>',
      ),
    );
    expect(Array.from(doc.querySelectorAll('body > ul > li > ul > li'), (li) => li.textContent)).toEqual([
      'Oak',
      'Steel',
    ]);
    expect(doc.querySelector('body > ul > li > p:last-child')?.textContent).toBe('Dimensions120 cm wide');
  });
});
