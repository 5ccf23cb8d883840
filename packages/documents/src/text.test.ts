import { describe, expect, it } from '@jest/globals';
import { tidyMarkdown, tidyText } from './text.js';

describe('tidyText', () => {
  it('collapses blanks, keeps paragraph breaks, drops control characters', () => {
    expect(tidyText('  a\t\t b\r\n\r\n\r\n\r\nc\u0000d \n e\u000c', 100)).toBe('a b\n\ncd\ne');
  });

  it('cuts long text at a word boundary within the limit', () => {
    const text = tidyText('alpha beta gamma delta', 13);
    expect(text).toBe('alpha beta');
    expect(text.length).toBeLessThanOrEqual(13);
  });

  it('never splits a surrogate pair', () => {
    const text = tidyText('😀'.repeat(10), 5);
    expect(text.length).toBeLessThanOrEqual(5);
    expect(text).toBe('😀😀');
  });
});

describe('tidyMarkdown', () => {
  it('drops trailing blanks, keeps leading ones and at most one blank line', () => {
    expect(tidyMarkdown('# T \t\r\n\r\n\r\n- a\u00a0\n  - b  \n\n    code\t\n', 100)).toBe(
      '# T\n\n- a\n  - b\n\n    code',
    );
  });

  it('keeps a long run of blanks inside a line', () => {
    // 200,000 spaces before a `b` took 38 s when each of them started a new try at a line's end.
    const spaces = ' '.repeat(200_000);
    expect(tidyMarkdown(`a${spaces}b \n  c${spaces}\nd`, 1_000_000)).toBe(`a${spaces}b\n  c\nd`);
  });
});
