import { describe, expect, it } from '@jest/globals';
import { tidyText } from './text.js';

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
