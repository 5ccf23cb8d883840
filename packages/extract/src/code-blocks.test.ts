import { describe, expect, it } from '@jest/globals';
import { JSDOM } from 'jsdom';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { flattenCodeLines } from './code-blocks.js';
import { extractHtml } from './extract-html.js';
import { contentMarkdown } from './markdown.js';

const DOMS = {
  linkedom: (html: string) => parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document,
  jsdom: (html: string) => new JSDOM(`<html><body>${html}</body></html>`).window.document,
};

/** The markdown of `html` as the content of a page. */
const markdownOf = (html: string): string =>
  contentMarkdown(
    parseHTML(`<html><body><div id="c">${html}</div></body></html>`).document.getElementById('c') as unknown as Element,
  );

/** The body after flattenCodeLines, and how many blocks it rewrote. */
function flattened(html: string, dom: keyof typeof DOMS): { body: string; rewritten: number } {
  const doc = DOMS[dom](html);
  const rewritten = flattenCodeLines(Array.from(doc.body.querySelectorAll('*')));
  return { body: doc.body.innerHTML, rewritten };
}

// Docusaurus (prism-react-renderer): each line a <div class="token-line"> ending in <br>.
const TOKEN_LINES =
  '<pre class="prism-code language-python"><code class="codeBlockLines">' +
  '<div class="token-line"><span class="token keyword">def</span><span> f(x):</span><br></div>' +
  '<div class="token-line"><span>    </span><span class="token keyword">return</span><span> x</span><br></div>' +
  '<div class="token-line"><br></div>' +
  '<div class="token-line"><span>f(1)</span></div></code></pre>';

describe.each(['linkedom', 'jsdom'] as const)('flattenCodeLines (%s)', (dom) => {
  it('writes a block of line <div>s as its lines, with their indentation and empty lines, in its <code>', () => {
    const { body, rewritten } = flattened(TOKEN_LINES, dom);
    expect(rewritten).toBe(1);
    expect(body).toBe(
      '<pre class="prism-code language-python"><code class="codeBlockLines">def f(x):\n    return x\n\nf(1)</code></pre>',
    );
  });

  it('breaks a line at the edge of a block, not twice after a <br> that ends one', () => {
    // SQLAlchemy's docs: a <div> of logged SQL inside the <pre>, after text that ends its line.
    const { body } = flattened('<pre>&gt;&gt;&gt; run()\n<div class="show_sql">BEGIN\n  COMMIT</div>done</pre>', dom);
    expect(body).toBe('<pre>&gt;&gt;&gt; run()\nBEGIN\n  COMMIT\ndone</pre>');
  });

  it('leaves out controls, hidden lines and gutters, the blank lines they leave at the ends, and spaces ending a line', () => {
    const html =
      '<pre class="playground"><div class="buttons"><button>Copy</button></div><code class="language-rust">' +
      '<div class="line" hidden>#![allow(unused)]</div><div>fn main() {&nbsp;&nbsp;</div>' +
      '<div class="nes-gutter-indicator"><span class="line-num">2</span></div>' +
      '<div>    run();</div><div>}</div><div> </div></code></pre>';
    expect(flattened(html, dom).body).toBe('<pre class="playground">fn main() {\n    run();\n}</pre>');
  });

  it('reads the list of a line-numbered block (code-prettify) as lines', () => {
    const html =
      '<pre class="prettyprint linenums"><ol class="linenums"><li class="L0">if x:</li><li class="L1">  y()</li></ol></pre>';
    expect(flattened(html, dom).body).toBe('<pre class="prettyprint linenums">if x:\n  y()</pre>');
  });

  it('leaves a <pre> of text and inline markup, and one that holds a table, as they are', () => {
    for (const html of [
      '<pre><code><span class="line">a</span>\n<span class="line">  b</span></code></pre>',
      '<pre><table><tbody><tr><td>1</td><td><div>x</div></td></tr></tbody></table></pre>',
    ]) {
      expect(flattened(html, dom)).toEqual({ body: html, rewritten: 0 });
    }
  });
});

/** A documentation page: a heading, a paragraph, the code block, another paragraph. */
const docPage = (title: string, code: string): string =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`The ${title.toLowerCase()} of this guide are shown below with the code that makes them work. `.repeat(6)}</p>` +
  code +
  `<p>${'Running the code above does what the paragraph before it says, as shown in the guide. '.repeat(6)}</p>` +
  '</main></body></html>';

describe('extractHtml with code lines in blocks', () => {
  const page = docPage('Functions', TOKEN_LINES);

  it.each(['linkedom', 'jsdom'] as const)(
    'keeps the lines and their indentation in the text and the markdown (%s)',
    (dom) => {
      const got = extractHtml(page, { url: 'https://docs.example.org/functions', dom });
      expect(got.body_text).toContain('\n\ndef f(x):\n    return x\n\nf(1)\n\n');
      expect(got.body_markdown).toContain('```python\ndef f(x):\n    return x\n\nf(1)\n```');
    },
  );
});

// Hugo's Chroma: each line a flex <span>, its indentation and line break in spans of their own.
const CHROMA_YAML =
  '<pre tabindex="0"><code class="language-yaml" data-lang="yaml">' +
  ['apiVersion: v1', 'metadata:', '  name: nginx', 'spec:', '  containers:', '  - name: nginx']
    .map((line) => {
      const [, indent = '', rest = ''] = /^( *)(.*)$/.exec(line) ?? [];
      const [key, value] = rest.split(':');
      return (
        `<span style="display:flex"><span><span style="color:#bbb">${indent}</span>` +
        `<span style="color:green">${key}</span>:${value ? `<span style="color:#bbb"> </span>${value.trim()}` : ''}` +
        '<span style="color:#bbb">\n</span></span></span>'
      );
    })
    .join('') +
  '</code></pre>';

describe('extractHtml with a highlighter that writes spaces in spans', () => {
  const page = docPage('Pods', CHROMA_YAML);

  it.each(['linkedom', 'jsdom'] as const)('keeps the lines and their indentation in the markdown (%s)', (dom) => {
    const got = extractHtml(page, { url: 'https://docs.example.org/pods', dom });
    expect(got.body_markdown).toContain(
      '```yaml\napiVersion: v1\nmetadata:\n  name: nginx\nspec:\n  containers:\n  - name: nginx\n```',
    );
    expect(got.body_text).toContain('apiVersion: v1\nmetadata:\n  name: nginx\nspec:');
  });
});

// GitHub's rendering of a README's fences: the grammar's TextMate scope in the class, `<pre>` of spans.
const githubBlock = (scope: string, code: string): string =>
  `<div class="highlight highlight-${scope} notranslate position-relative overflow-auto" dir="auto">` +
  `<pre><span class="pl-k">${code}</span></pre></div>`;

describe('the language of a block GitHub highlights', () => {
  it.each([
    ['source-rust', 'rust'],
    ['source-js', 'js'],
    ['source-shell', 'shell'],
    ['source-c++', 'c++'],
    ['text-html-basic', 'html'],
    ['text-md', 'markdown'],
    ['source-js-jsx', 'jsx'],
  ])('names the language of the scope %s, %s', (scope, language) => {
    expect(markdownOf(githubBlock(scope, 'x = 1'))).toBe(`\`\`\`${language}\nx = 1\n\`\`\``);
  });

  it('leaves the names of other highlighters as they are, and a scope of plain text unnamed', () => {
    expect(markdownOf('<div class="highlight-shell-session"><pre>$ ls</pre></div>')).toBe(
      '```shell-session\n$ ls\n```',
    );
    expect(markdownOf(githubBlock('text-plain', 'x'))).toBe('```\nx\n```');
  });

  it('survives extraction, where Readability removes the classes', () => {
    const got = extractHtml(docPage('Install', githubBlock('source-rust', 'fn main() {}')), {
      url: 'https://github.com/example/frob',
    });
    expect(got.body_markdown).toContain('```rust\nfn main() {}\n```');
  });
});

describe('fenceAroundFences', () => {
  it('fences a block that shows a fence with a longer one, so that it is read whole', () => {
    const code = 'Fence it:\n```js\nlet x = 1;\n```\nDone.';
    const md = markdownOf(`<pre><code class="language-markdown">${code}</code></pre><p>After the block.</p>`);
    expect(md).toBe(`\`\`\`\`markdown\n${code}\n\`\`\`\`\n\nAfter the block.`);
    const tokens = marked.lexer(md);
    expect(tokens.map((t) => t.type)).toEqual(['code', 'space', 'paragraph']);
    expect(tokens[0]).toMatchObject({ type: 'code', text: code });
  });

  it('goes one past the longest run, and leaves a block without one at three', () => {
    expect(markdownOf('<pre><code>`````\nx\n`` y</code></pre>')).toBe('``````\n`````\nx\n`` y\n``````');
    expect(markdownOf('<pre><code>a `b` c</code></pre>')).toBe('```\na `b` c\n```');
    expect(markdownOf('<pre><code>```\nx\n````</code></pre>')).toBe('`````\n```\nx\n````\n`````');
  });
});

describe('plainCodeSpans', () => {
  const codes = (md: string): string[] =>
    Array.from(marked.parse(md, { async: false }).matchAll(/<code>([^<]*)<\/code>/g), (m) => m[1] as string);

  it('writes the text of inline code without the marks of the bold, italics or code in it', () => {
    // nginx's `<code><strong>break</strong>;</code>`, ArchWiki's `<code>-H <i>user</i>@<i>host</i></code>`.
    const md = markdownOf(
      '<p>Use <code><strong>break</strong>;</code> or <code>-H <i>user</i>@<i>host</i></code>, ' +
        'and <code><b>if</b> (<code><i>condition</i></code>) {<br>…}</code>.</p>',
    );
    expect(md).toBe('Use `break;` or `-H user@host`, and `if (condition) { …}`.');
    expect(codes(md)).toEqual(['break;', '-H user@host', 'if (condition) { …}']);
  });

  it('takes a link out of inline code, around the code of its own text', () => {
    // A Gentoo package's flags, rustdoc's `From<T> for U`.
    const md = markdownOf(
      '<p>Flags: <code><a href="https://packages.gentoo.org/useflags/+ipc">+ipc</a></code>; ' +
        'the <code><a href="https://doc.rust-lang.org/std/convert/trait.From.html" title="trait From">From</a>&lt;T&gt; for U</code> impl.</p>',
    );
    expect(md).toBe(
      'Flags: [`+ipc`](https://packages.gentoo.org/useflags/+ipc); the [`From`](https://doc.rust-lang.org/std/convert/trait.From.html "trait From")`<T> for U` impl.',
    );
    const html = marked.parse(md, { async: false });
    expect(html).toContain('<a href="https://packages.gentoo.org/useflags/+ipc"><code>+ipc</code></a>');
    expect(html).toContain(
      '<a href="https://doc.rust-lang.org/std/convert/trait.From.html" title="trait From"><code>From</code></a><code>&lt;T&gt; for U</code>',
    );
  });

  it('writes keys and a program’s output as code, nested keys as one span', () => {
    // Super User's `<kbd>Win</kbd><strong>+</strong><kbd>Space</kbd>` came out `Win**+**Space`.
    const md = markdownOf(
      '<p>Press <kbd>Win</kbd><strong>+</strong><kbd>Space</kbd>, or <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd>; it prints <samp>ok *done*</samp>.</p>',
    );
    expect(md).toBe('Press `Win`**+**`Space`, or `Ctrl+C`; it prints `ok *done*`.');
    expect(codes(md)).toEqual(['Win', 'Space', 'Ctrl+C', 'ok *done*']);
    expect(marked.parse(md, { async: false })).toContain('<code>Win</code><strong>+</strong><code>Space</code>');
  });

  it('writes a link’s code as code, in a table cell too, and leaves code blocks as they are', () => {
    const md = markdownOf(
      '<p>See <a href="https://docs.python.org/3/library/exceptions.html#ValueError"><code>ValueError</code></a>.</p>' +
        '<table><tr><th>Type</th></tr><tr><td><a href="https://x.test/t"><code>a|b</code></a></td></tr></table>' +
        '<pre><code>x = <b>1</b></code></pre>',
    );
    expect(md).toContain('See [`ValueError`](https://docs.python.org/3/library/exceptions.html#ValueError).');
    expect(md).toContain('| [`a\\|b`](https://x.test/t) |');
    expect(md).toContain('```\nx = 1\n```');
    expect(codes(md)).toEqual(['ValueError', 'a|b', 'x = 1\n']);
  });
});
