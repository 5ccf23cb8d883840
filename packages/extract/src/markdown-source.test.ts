import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { marked, type Token } from 'marked';
import { extractMarkdown } from './markdown-source.js';
import { countWords } from './word-count.js';

const URL_OF_FILE = 'https://docs.example.org/guide/install.md';

describe('extractMarkdown', () => {
  it('reads the front matter, and the text as the rendering shows it', () => {
    const source = [
      '---',
      'title: "Install guide"',
      'authors:',
      '  - name: Ada Lovelace',
      '  - Grace Hopper',
      'date: 2025-03-01',
      'lang: de-CH',
      '---',
      '',
      '# Installing Quarry',
      '',
      'Quarry runs on **Node 20**. See [the docs](../docs/) and <span>inline</span> HTML.',
      '',
      '- Install with `npm install`',
      '- Start with `npm start`',
      '',
      '```sh',
      'npm install \\',
      '  && npm start',
      '```',
      '',
      '| Option | Default |',
      '| --- | --- |',
      '| PORT | 8080 |',
      '',
      '<script>alert("no")</script>',
      '',
      '> A quote &amp; more.',
    ].join('\n');
    const doc = extractMarkdown(source, URL_OF_FILE);
    expect(doc).toMatchObject({
      title: 'Install guide',
      author: 'Ada Lovelace, Grace Hopper',
      published_at: '2025-03-01T00:00:00Z',
      lang: 'de',
    });
    expect(doc.body_text).toBe(
      [
        'Installing Quarry',
        'Quarry runs on Node 20. See the docs and inline HTML.',
        'Install with npm install',
        'Start with npm start',
        'npm install \\\n  && npm start',
        'Option Default',
        'PORT 8080',
        'A quote & more.',
      ].join('\n\n'),
    );
    expect(doc.word_count).toBe(countWords(doc.body_text));
    // The markdown as written, without its front matter.
    expect(doc.body_markdown.startsWith('# Installing Quarry\n\nQuarry runs on **Node 20**.')).toBe(true);
    expect(doc.links).toEqual(['https://docs.example.org/docs/']);
  });

  it('takes the first heading as the title and detects the language without front matter', () => {
    const doc = extractMarkdown(
      'Intro line before any heading.\n\n## Der Kessel\n\nDer Kessel wird jeden Morgen gereinigt, bevor die Arbeit beginnt und die Kunden kommen.',
      URL_OF_FILE,
    );
    expect(doc.title).toBe('Der Kessel');
    expect(doc.lang).toBe('de');
    expect(doc.author).toBeNull();
    expect(doc.published_at).toBeNull();
  });

  it('reads a long file whole, a link defined at its end included', () => {
    const section = (i: number) => `## Part ${i}\n\nParagraph ${i} of the long file, with **some** words to read.\n`;
    const parts = Array.from({ length: 3_000 }, (_, i) => section(i));
    const source = `See [the index][idx].\n\n${parts.join('\n')}\n# Late title\n\n[idx]: https://docs.example.org/index\n`;
    expect(source.length).toBeGreaterThan(200_000);
    const doc = extractMarkdown(source, URL_OF_FILE);
    expect(doc.body_text.split('\n\n')).toHaveLength(2 * 3_000 + 2);
    expect(doc.body_text.startsWith('See the index.\n\nPart 0\n\nParagraph 0 of the long file')).toBe(true);
    expect(doc.body_text.endsWith('Paragraph 2999 of the long file, with some words to read.\n\nLate title')).toBe(
      true,
    );
    expect(doc.links).toEqual(['https://docs.example.org/index']);
    // A level-1 heading anywhere is the title before a first level-2 one.
    expect(doc.title).toBe('Late title');
  });

  it('ignores front matter it cannot read, and reads a file that is only text', () => {
    const broken = extractMarkdown('---\ntitle: [unclosed\n---\n\nPlain words here.', URL_OF_FILE);
    expect(broken).toMatchObject({ title: null, body_text: 'Plain words here.', body_markdown: 'Plain words here.' });
    const rule = extractMarkdown('Text\n\n---\n\nMore text', URL_OF_FILE);
    expect(rule.body_text).toBe('Text\n\nMore text');
  });

  it('resolves its relative links, images and definitions against its URL, as a page’s', () => {
    const source = [
      'Get the [mirror](/mirror/frob.tgz "Mirror") and ![logo](img/logo.png); read [the API](api.md),',
      '[the index][idx], [usage](#usage), [mail](mailto:ada@example.org) and [home](https://example.org/).',
      '',
      '> A quote: [up](../README.md) and [a badge ![ci](ci.svg)](<ci runs.md>)',
      '',
      '- In a list: [page](page(1).md), and `[code](span.md)`, \\[escaped](text.md)',
      '',
      '| Option | See |',
      '| --- | --- |',
      '| `a \\| b` | [flags](flags.md) |',
      '',
      '```md',
      '[in a block](block.md)',
      '```',
      '',
      '    [indented](block.md)',
      '',
      '[idx]: index.md "The index"',
    ].join('\r\n');
    const doc = extractMarkdown(source, URL_OF_FILE);
    expect(doc.body_markdown).toBe(
      [
        'Get the [mirror](https://docs.example.org/mirror/frob.tgz "Mirror") and ![logo](https://docs.example.org/guide/img/logo.png); read [the API](https://docs.example.org/guide/api.md),',
        '[the index][idx], [usage](#usage), [mail](mailto:ada@example.org) and [home](https://example.org/).',
        '',
        '> A quote: [up](https://docs.example.org/README.md) and [a badge ![ci](https://docs.example.org/guide/ci.svg)](<https://docs.example.org/guide/ci%20runs.md>)',
        '',
        '- In a list: [page](https://docs.example.org/guide/page\\(1\\).md), and `[code](span.md)`, \\[escaped](text.md)',
        '',
        '| Option | See |',
        '| --- | --- |',
        '| `a \\| b` | [flags](https://docs.example.org/guide/flags.md) |',
        '',
        '```md',
        '[in a block](block.md)',
        '```',
        '',
        '    [indented](block.md)',
        '',
        '[idx]: https://docs.example.org/guide/index.md "The index"',
      ].join('\n'),
    );
    // Read back, the same links, now absolute; the text as it was.
    expect(extractMarkdown(doc.body_markdown, URL_OF_FILE)).toMatchObject({
      body_text: doc.body_text,
      links: doc.links,
    });
  });

  const llmsFull = join(import.meta.dirname, '../../../../shared/testdata/llms-txt/files/115_rslib.rs_llms-full.txt');
  (existsSync(llmsFull) ? it : it.skip)(
    'resolves every relative target of a real llms-full.txt, its code as it was',
    () => {
      const source = readFileSync(llmsFull, 'utf8');
      const doc = extractMarkdown(source, 'https://rslib.rs/llms-full.txt');
      const read = (markdown: string) => {
        const targets: string[] = [];
        const code: string[] = [];
        marked.walkTokens(marked.lexer(markdown), (token: Token) => {
          if (token.type === 'link' || token.type === 'image' || token.type === 'def') targets.push(token.href);
          if (token.type === 'code' || token.type === 'codespan') code.push(token.text);
        });
        return { targets, code };
      };
      const before = read(source);
      const after = read(doc.body_markdown);
      expect(before.targets.filter((href) => href.startsWith('/')).length).toBeGreaterThan(100);
      expect(after.targets).toHaveLength(before.targets.length);
      expect(after.targets.filter((href) => !/^(?:https?:|mailto:|#)/.test(href))).toEqual([]);
      expect(after.code).toEqual(before.code);
    },
  );
});
