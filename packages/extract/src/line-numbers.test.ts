import { describe, expect, it } from '@jest/globals';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';

const PARA = '<p>Rust programs are built with cargo, which fetches crates and compiles them in order. </p>';
const page = (block: string): string =>
  `<html><head><title>Building</title></head><body><article><h1>Building</h1>${PARA.repeat(3)}${block}${PARA.repeat(3)}</article></body></html>`;

// Each as its highlighter writes it (trimmed of styles).
const HIGHLIGHTED: Record<string, string> = {
  'Pygments, numbers in a table':
    '<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2</span></pre></div></td>' +
    '<td class="code"><div><pre><span></span><span class="kn">import</span> os\nprint(os.getcwd())\n</pre></div></td></tr></table></div>',
  'MkDocs, numbers as links':
    '<div class="language-python highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre><span></span><span class="normal"><a href="#__codelineno-0-1">1</a></span>\n<span class="normal"><a href="#__codelineno-0-2">2</a></span></pre></div></td>' +
    '<td class="code"><div><pre><span></span><code><a id="__codelineno-0-1" name="__codelineno-0-1"></a><span class="kn">import</span> os\n<a id="__codelineno-0-2" name="__codelineno-0-2"></a>print(os.getcwd())\n</code></pre></div></td></tr></table></div>',
  'Chroma (Hugo), numbers in a table':
    '<div class="highlight"><div class="chroma"><table class="lntable"><tr><td class="lntd"><pre tabindex="0" class="chroma"><code><span class="lnt" id="hl-0-1"><a class="lnlinks" href="#hl-0-1">1</a>\n</span><span class="lnt" id="hl-0-2"><a class="lnlinks" href="#hl-0-2">2</a>\n</span></code></pre></td>' +
    '<td class="lntd"><pre tabindex="0" class="chroma"><code class="language-python" data-lang="python"><span class="line"><span class="cl"><span class="kn">import</span> os\n</span></span><span class="line"><span class="cl">print(os.getcwd())\n</span></span></code></pre></td></tr></table></div></div>',
  'Rouge (Jekyll), numbers in a table':
    '<div class="highlight"><pre class="highlight"><code><table class="rouge-table"><tbody><tr><td class="gutter gl"><pre class="lineno">1\n2\n</pre></td><td class="code"><pre><span class="kn">import</span> os\nprint(os.getcwd())\n</pre></td></tr></tbody></table></code></pre></div>',
  'SyntaxHighlighter (WordPress), lines as blocks':
    '<div class="syntaxhighlighter python"><table border="0" cellpadding="0" cellspacing="0"><tbody><tr><td class="gutter"><div class="line number1 index0 alt2">1</div><div class="line number2 index1 alt1">2</div></td>' +
    '<td class="code"><div class="container"><div class="line number1 index0 alt2"><code class="python keyword">import</code> <code class="python plain">os</code></div><div class="line number2 index1 alt1"><code class="python plain">print(os.getcwd())</code></div></div></td></tr></tbody></table></div>',
  'Pygments, numbers inline':
    '<div class="highlight"><pre><span></span><span class="linenos">1</span><span class="kn">import</span> os\n<span class="linenos">2</span>print(os.getcwd())\n</pre></div>',
  "Twilio's Paste, rows of a number and a line (hashed classes, a <style> beside the first of each)":
    '<pre data-lang="python"><div style="min-width:fit-content"><div class="css-roynbj"><style>.css-519pyc{user-select:none}</style><span class="css-519pyc">1</span><style>.css-luzz01{display:inline-block}</style>' +
    '<div class="css-luzz01"><div><span style="color:#FFA657">import</span> <span>os</span> </div></div></div>' +
    '<div class="css-roynbj"><span class="css-519pyc">2</span><div class="css-luzz01"><div><span>print(os.getcwd())</span></div></div></div></div></pre>',
  'Chroma, numbers inline':
    '<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-python" data-lang="python"><span class="line"><span class="ln">1</span><span class="cl"><span class="kn">import</span> os\n</span></span><span class="line"><span class="ln">2</span><span class="cl">print(os.getcwd())\n</span></span></code></pre></div>',
};

describe.each<DomImpl>(['linkedom', 'jsdom'])('line numbers beside code (%s)', (dom) => {
  const run = (block: string) => extractHtml(page(block), { url: 'https://example.com/building', dom });

  it.each(Object.entries(HIGHLIGHTED))('%s: the code without its numbers, one fenced block', (_, block) => {
    const got = run(block);
    expect(got.body_text).toContain('import os\nprint(os.getcwd())');
    expect(got.body_text).not.toMatch(/(^|\n)\d+\s*(\n|import|print)/);
    expect(got.body_markdown).toMatch(/```\w*\nimport os\nprint\(os\.getcwd\(\)\)\n```/);
    expect(got.body_markdown).not.toContain('|');
  });

  it('keeps a table whose first cell is not a count of the lines beside it', () => {
    const step = run(
      '<table><tr><td>2</td><td>Run <code>cargo build</code> in the project, then its tests.</td></tr></table>',
    );
    expect(step.body_markdown).toMatch(/\|\s*2\s*\|\s*Run `?cargo build`? in the project/);
    const skipped = run('<table><tr><td>1\n3</td><td><pre>first\nsecond</pre></td></tr></table>');
    expect(skipped.body_text).toMatch(/1\s+3/);
    const step1 = run('<table><tr><td>1</td><td><pre>cargo new app\ncd app</pre></td></tr></table>');
    expect(step1.body_markdown).toMatch(/\|\s*1\s*\|/);
    // A table of two rows is data, whatever its cells hold.
    const data = run('<table><tr><td><pre>1</pre></td><td><pre>2</pre></td></tr><tr><td>3</td><td>4</td></tr></table>');
    expect(data.body_markdown).toMatch(/^\| `?1`? +\| `?2`? +\|$/m);
    const prose = run('<table><tr><td>1</td><td><div>Install the toolchain first.</div></td></tr></table>');
    expect(prose.body_markdown).toMatch(/\|\s*1\s*\|\s*Install the toolchain first/);
  });

  it('keeps numbers that are part of the code', () => {
    const got = run(
      '<pre><code><span class="mi">1</span> + <span class="mi">2</span>\n<span class="mi">3</span>\n</code></pre>',
    );
    expect(got.body_text).toContain('1 + 2\n3');
    const marked = run(
      '<pre><span class="linenos">+</span>added line\n<span class="linenos">-</span>removed line\n</pre>',
    );
    expect(marked.body_text).toContain('+added line\n-removed line');
    // Lines laid out as rows, each opening with a number token: data, not a gutter.
    const data = run(
      '<pre><div><span class="mi">1</span><span class="p">,</span></div><div><span class="mi">2</span><span class="p">,</span></div></pre>',
    );
    expect(data.body_text).toContain('1,\n2,');
    const prose = run('<pre><div><span>1</span> first</div><div><span>2</span> second</div></pre>');
    expect(prose.body_text).toContain('1 first\n2 second');
    const skipped = run('<pre><div><span>1</span><div>one</div></div><div><span>3</span><div>three</div></div></pre>');
    expect(skipped.body_text).toContain('1\none\n3\nthree');
  });
});
