import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { extractHtml } from './extract-html.js';
import { contentMarkdown } from './markdown.js';
import { mendLineEscapes } from './markdown-escapes.js';

/** The markdown of `html` as the content of a page. */
const markdownOf = (html: string): string =>
  contentMarkdown(
    parseHTML(`<html><body><div id="c">${html}</div></body></html>`).document.getElementById('c') as unknown as Element,
  );

/** The text a CommonMark renderer shows for `markdown`. */
const shown = (markdown: string): string =>
  (
    parseHTML(`<html><body>${marked.parse(markdown, { async: false })}</body></html>`).document.body.textContent ?? ''
  ).trim();

describe('mendLineEscapes', () => {
  it('drops a line-start escape inside a line and keeps it where the line’s content starts', () => {
    expect(mendLineEscapes('DNS\\-related')).toBe('DNS-related');
    expect(mendLineEscapes('- \\- not a sub-list')).toBe('- \\- not a sub-list');
    expect(mendLineEscapes('> 1. 2024\\. Microsoft')).toBe('> 1. 2024\\. Microsoft');
    expect(mendLineEscapes('> 1. In 2024\\. Microsoft')).toBe('> 1. In 2024. Microsoft');
    expect(mendLineEscapes('balance\\_transaction')).toBe('balance_transaction');
  });

  it('escapes a line that is only a marker, after its own list and quote markers', () => {
    expect(mendLineEscapes('1.')).toBe('1\\.');
    expect(mendLineEscapes('- > +')).toBe('- > \\+');
    expect(mendLineEscapes('  #')).toBe('  \\#');
    expect(mendLineEscapes('1. Step')).toBe('1. Step');
  });

  // Written `(?:\s*marker\s+)*\s*`, the blanks between two markers could be split between two
  // quantifiers in exponentially many ways: these forty markers took hours (twenty-two, a tenth of a second).
  it('reads a line of many markers with wide gaps in one pass', () => {
    const markers = '1)  '.repeat(40);
    expect(mendLineEscapes(`${markers}x\\-y`)).toBe(`${markers}x-y`);
    expect(mendLineEscapes(`${markers}*z`)).toBe(`${markers}*z`);
    expect(mendLineEscapes(`${'-\t\t'.repeat(40)}1)`)).toBe(`${'-\t\t'.repeat(40)}1\\)`);
  });

  it('leaves fenced code as it is', () => {
    expect(mendLineEscapes('```\nDNS\\-related\n1.\n```')).toBe('```\nDNS\\-related\n1.\n```');
  });
});

describe('the escape of a text’s characters', () => {
  it('escapes a `<` that would start a tag, a comment or an autolink, and a `&` that would start a reference', () => {
    const cases = [
      ['<p>Google "&lt;noun&gt;.js"</p>', 'Google "\\<noun>.js"', 'Google "<noun>.js"'],
      ['<p>a pair &lt;lambda, priority&gt;</p>', 'a pair \\<lambda, priority>', 'a pair <lambda, priority>'],
      [
        '<p>close with &lt;/tag&gt; or &lt;!-- x --&gt;</p>',
        'close with \\</tag> or \\<!-- x -->',
        'close with </tag> or <!-- x -->',
      ],
      [
        '<p>write &amp;lt;tag&amp;gt; and &amp;#39;</p>',
        'write \\&lt;tag\\&gt; and \\&#39;',
        'write &lt;tag&gt; and &#39;',
      ],
      ['<p>see &lt;https://example.com&gt;</p>', 'see \\<https://example.com>', 'see <https://example.com>'],
    ];
    for (const [html, markdown, text] of cases) {
      expect(markdownOf(html as string)).toBe(markdown);
      expect(shown(markdown as string)).toBe(text);
    }
  });

  it('leaves a `<` or `&` that starts nothing, and code, as they are', () => {
    expect(markdownOf('<p>if a &lt; b &amp;&amp; c &lt;= 3 &lt;3 AT&amp;T</p>')).toBe('if a < b && c <= 3 <3 AT&T');
    expect(markdownOf('<p>the <code>&lt;div&gt;</code> element</p>')).toBe('the `<div>` element');
    expect(markdownOf('<pre><code>&lt;b&gt;&amp;amp;</code></pre>')).toBe('```\n<b>&amp;\n```');
  });

  it('escapes a `<` at a text’s end, which the next element’s letters would make a tag', () => {
    const markdown = markdownOf('<p>x&lt;<span>div</span>&gt; y</p>');
    expect(shown(markdown)).toBe('x<div> y');
  });

  const page = join(import.meta.dirname, '../../../../shared/testdata/readability-pages/001/source.html');
  (existsSync(page) ? it : it.skip)('keeps the words in angle brackets of a real page, its text unchanged', () => {
    const got = extractHtml(readFileSync(page, 'utf8'), { url: 'http://fakehost/test/page.html' });
    expect(got.body_markdown).toContain('> (2) Google "\\<noun>.js"');
    expect(shown(got.body_markdown)).toContain('Google "<noun>.js"');
    expect(got.body_text).toContain('(2) Google "<noun>.js"');
  });
});
