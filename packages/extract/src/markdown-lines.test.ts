import { describe, expect, it } from '@jest/globals';
import { fencedLines, trimBlockEndBreaks } from './markdown-lines.js';

/** Each line's mark: `x` inside a fenced code block, `.` outside. */
const marks = (lines: readonly string[]): string =>
  fencedLines(lines)
    .map((fenced) => (fenced ? 'x' : '.'))
    .join('');

describe('fencedLines', () => {
  it('marks the lines of fenced code blocks, fences included, also in quotes and list items', () => {
    const lines = ['a', '```js', 'x', '~~~', '```', 'b', '> ~~~~', '> y', '> ~~~~', '  ```', '  z', '  ```', 'c'];
    expect(marks(lines)).toBe('.xxxx.xxxxxx.');
  });

  it('leaves a block open to the end when its fence is never closed, and needs a fence as long to close', () => {
    expect(marks(['````', '```', 'x'])).toBe('xxx');
  });
});

describe('trimBlockEndBreaks', () => {
  it("drops a break at a block's end and empties lines of spaces, but keeps a break inside a block", () => {
    expect(trimBlockEndBreaks('A  \n  \nB  ')).toBe('A\n\nB');
    expect(trimBlockEndBreaks('1. Item  \n   more  \n\n- x \t\n')).toBe('1. Item  \n   more\n\n- x\n');
  });

  it('leaves code blocks and text without such spaces as they are', () => {
    const code = '```\nx  \n  \n```';
    expect(trimBlockEndBreaks(code)).toBe(code);
    expect(trimBlockEndBreaks('a\n\nb')).toBe('a\n\nb');
  });
});
