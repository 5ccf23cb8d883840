import { describe, expect, it } from '@jest/globals';
import { mendLineEscapes } from './markdown-escapes.js';

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
