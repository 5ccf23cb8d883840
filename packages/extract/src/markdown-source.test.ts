import { describe, expect, it } from '@jest/globals';
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
});
