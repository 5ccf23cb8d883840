import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { mendCodeLines } from './code-line-breaks.js';
import { extractHtml } from './extract-html.js';

const mended = (html: string) => {
  const root = parseHTML(`<html><body>${html}</body></html>`).document.body;
  const count = mendCodeLines(Array.from(root.querySelectorAll('*')));
  return { count, text: root.textContent };
};

describe('mendCodeLines', () => {
  it('breaks the line after a highlighted line that its highlighter left without a newline', () => {
    // Gatsby's prism highlighter on legacy.reactjs.org: each highlighted line a block without its newline.
    const html =
      '<pre><code>function Example() {\n<span class="gatsby-highlight-code-line">  // Declare a state variable</span>' +
      '<span class="gatsby-highlight-code-line">  const [count, setCount] = useState(0);</span>  return count;\n}</code></pre>';
    expect(mended(html)).toEqual({
      count: 2,
      text: 'function Example() {\n  // Declare a state variable\n  const [count, setCount] = useState(0);\n  return count;\n}',
    });
  });

  it('adds no newline where a line has one, ends the block, or is not a line of code', () => {
    // Shiki: lines with a newline between them.
    expect(mended('<pre><code><span class="line">a</span>\n<span class="line">b</span></code></pre>')).toEqual({
      count: 0,
      text: 'a\nb',
    });
    expect(mended('<pre><span class="token-line">a<br></span><span class="token-line">b</span></pre>').count).toBe(0);
    // A line number is no line; a line outside a code block is a sentence's part.
    expect(mended('<pre><span class="line-number">1</span><span>a</span></pre>').count).toBe(0);
    expect(mended('<p><span class="line">one</span><span class="line">two</span></p>').count).toBe(0);
  });

  it('removes the lines mdBook hides until its reader asks for them', () => {
    const html =
      '<pre><code class="language-rust"><span class="boring">fn main() {\n</span>let s = 3.to_string();\n<span class="boring">}</span></code></pre>';
    expect(mended(html)).toEqual({ count: 2, text: 'let s = 3.to_string();\n' });
  });
});

describe('extractHtml', () => {
  const para = '<p>Hooks let you use state and other React features without writing a class at all. </p>'.repeat(5);
  const page = (code: string) =>
    `<html><head><title>Hooks</title></head><body><article><h1>Hooks</h1>${para}<pre><code class="language-js">${code}</code></pre>${para}</article></body></html>`;

  it('keeps each highlighted line of a code block on its own line, in the text and the markdown', () => {
    const got = extractHtml(
      page(
        '<span class="gatsby-highlight-code-line">const a = 1;</span><span class="gatsby-highlight-code-line">const b = 2;</span>',
      ),
      { url: 'https://docs.example.org/hooks', dom: 'linkedom' },
    );
    expect(got.body_text).toContain('const a = 1;\nconst b = 2;');
    expect(got.body_markdown).toContain('```js\nconst a = 1;\nconst b = 2;\n```');
  });
});
