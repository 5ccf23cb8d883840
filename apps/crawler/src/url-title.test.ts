import { describe, expect, it } from '@jest/globals';
import { textFileTitle, titleFromUrl } from './page-handler.js';

describe('a title named from the URL', () => {
  it('is the file name without its extension, its separators as spaces', () => {
    expect(titleFromUrl('https://example.org/files/annual-report_2024.pdf')).toBe('annual report 2024');
    expect(titleFromUrl('https://example.org/docs/Minutes%20March.DOCX')).toBe('Minutes March');
    expect(titleFromUrl('https://example.org/a/b/index.html')).toBe('index');
    expect(titleFromUrl('https://example.org/wiki/Caf%C3%A9_society')).toBe('Café society');
  });

  it('keeps dots that are no file extension of a page or document', () => {
    expect(titleFromUrl('https://example.org/projects/node.js')).toBe('node.js');
    expect(titleFromUrl('https://example.org/release/v1.2')).toBe('v1.2');
  });

  it('is the host when the path names nothing, or holds a malformed escape', () => {
    expect(titleFromUrl('https://example.org/')).toBe('example.org');
    expect(titleFromUrl('https://example.org/--/_.pdf')).toBe('example.org');
    expect(titleFromUrl('https://example.org/100%25-bad%E0%A4')).toBe('100%25 bad%E0%A4');
  });
});

describe("a plain text file's title", () => {
  it('is its first line, without the marks of a heading that open it', () => {
    expect(textFileTitle('\n# Kubernetes guide\n\n> A guide.\n', 'https://example.org/k8s.txt')).toBe(
      'Kubernetes guide',
    );
    expect(textFileTitle('## Notes on mooring\nTie twice.', 'https://example.org/n.txt')).toBe('Notes on mooring');
    expect(textFileTitle('#hashtag weekly\n', 'https://example.org/n.txt')).toBe('#hashtag weekly');
    expect(textFileTitle('Plain first line\n', 'https://example.org/n.txt')).toBe('Plain first line');
  });

  it('is named from the URL when the file holds no words, or only the marks', () => {
    expect(textFileTitle('\n\n', 'https://example.org/release-notes.txt')).toBe('release notes');
    expect(textFileTitle('# \n', 'https://example.org/release-notes.txt')).toBe('release notes');
  });
});
