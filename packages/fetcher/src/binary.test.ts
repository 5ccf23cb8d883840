import { describe, expect, it } from '@jest/globals';
import { isProbablyBinary } from './binary.js';

describe('isProbablyBinary', () => {
  it('flags common binary formats and control-byte noise', () => {
    expect(isProbablyBinary(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'))).toBe(true);
    expect(isProbablyBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(isProbablyBinary(Buffer.from([0x1f, 0x8b, 0x08, 0x00]))).toBe(true);
    expect(isProbablyBinary(Buffer.from('<html>\u0000\u0000\u0000\u0000</html>'))).toBe(true);
    // Text without a byte order mark in UTF-16: a NUL every other byte.
    expect(isProbablyBinary(Buffer.from('<html><p>hello there</p></html>', 'utf16le'))).toBe(true);
    const noise = Buffer.alloc(2000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 256 || 1;
    expect(isProbablyBinary(noise)).toBe(true);
  });

  it('accepts text in any encoding', () => {
    expect(isProbablyBinary(Buffer.from('<!doctype html><title>Hi</title>\f'))).toBe(false);
    expect(isProbablyBinary(Buffer.from('<p>中文网页，测试。</p>', 'utf8'))).toBe(false);
    expect(isProbablyBinary(Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x3c, 0x70, 0x3e]))).toBe(false); // GBK
    expect(isProbablyBinary(Buffer.from('\ufeff<p>hi</p>', 'utf16le'))).toBe(false);
    expect(isProbablyBinary(Buffer.alloc(0))).toBe(false);
  });

  it('accepts UTF-16 without a byte order mark when the Content-Type declares it, but not a file signature', () => {
    const page = Buffer.from('<html><p>hello there</p></html>', 'utf16le');
    expect(isProbablyBinary(page, 'utf-16le')).toBe(false);
    expect(isProbablyBinary(page, 'UTF-16')).toBe(false);
    expect(isProbablyBinary(page, 'utf-8')).toBe(true);
    expect(isProbablyBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'utf-16')).toBe(true);
  });

  it('accepts a page holding a stray NUL (a title from a database field), as browsers show it', () => {
    const page = `<!doctype html><title>Quarterly report\u0000</title><p>${'Revenue grew in every region. '.repeat(20)}</p>`;
    expect(isProbablyBinary(Buffer.from(page))).toBe(false);
  });
});
