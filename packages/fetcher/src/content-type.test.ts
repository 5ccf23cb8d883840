import { describe, expect, it } from '@jest/globals';
import { computedMime, parseContentType } from './content-type.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const BOM = '\ufeff';

describe('parseContentType', () => {
  it('reads the type and charset leniently, and gives an empty type for a missing or broken header', () => {
    expect(parseContentType('Text/HTML; Charset="GBK"')).toEqual({ mime: 'text/html', charset: 'gbk' });
    expect(parseContentType(undefined)).toEqual({ mime: '', charset: undefined });
    expect(parseContentType('html')).toEqual({ mime: '', charset: undefined });
  });
});

describe('computedMime', () => {
  it('sniffs HTML from the first tag of a body with no usable type, as browsers do', () => {
    const page = '<!DOCTYPE html><html><head><title>No type served</title></head><body><p>notypeserved</p>';
    expect(computedMime('', bytes(page))).toBe('text/html');
    expect(computedMime('', bytes(`${BOM}\r\n\t <HTML lang="en">`))).toBe('text/html');
    expect(computedMime('', bytes('<html\n  lang="en">'))).toBe('text/html');
    for (const start of [
      '<head>',
      '<body class=x>',
      '<script>',
      '<title>',
      '<div>',
      '<p>',
      '<a href=/>',
      '<!-- x -->',
    ]) {
      expect([start, computedMime('', bytes(start))]).toEqual([start, 'text/html']);
    }
    expect(computedMime('unknown/unknown', bytes('<html>'))).toBe('text/html');
    expect(computedMime('application/unknown', bytes('<html>'))).toBe('text/html');
  });

  it('leaves a body of no usable type alone when it does not start with an HTML tag', () => {
    expect(computedMime('', bytes('plain words, then <html>'))).toBe('');
    // The tag must end where the signature does: <pre> and <abbr> are not <p> and <a>.
    expect(computedMime('', bytes('<pre>'))).toBe('');
    expect(computedMime('', bytes('<abbr>'))).toBe('');
    expect(computedMime('', bytes('<?xml version="1.0"?><rss>'))).toBe('');
    expect(computedMime('', bytes('<html'))).toBe('');
    expect(computedMime('', Buffer.from('%PDF-1.7\n', 'latin1'))).toBe('');
    expect(computedMime('', Buffer.alloc(0))).toBe('');
  });

  it('takes a body served as text that starts as a PDF for a PDF', () => {
    expect(computedMime('text/html', Buffer.from('%PDF-1.4\n%\xe2\xe3\n', 'latin1'))).toBe('application/pdf');
    expect(computedMime('text/plain', Buffer.from('%PDF-1.7\n', 'latin1'))).toBe('application/pdf');
    // Only at the very start: a page about the format quotes its header.
    expect(computedMime('text/html', bytes('<p>Every file starts with %PDF-1.7</p>'))).toBe('text/html');
  });

  it('takes a body served as text that starts as an Office container for a binary file, not text', () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(computedMime('text/plain', ole)).toBe('application/octet-stream');
    expect(computedMime('text/html', Buffer.from('PK\u0003\u0004\u0014\u0000', 'latin1'))).toBe(
      'application/octet-stream',
    );
    // Declared binary types are left as they are; text mentioning the bytes stays text.
    expect(computedMime('application/msword', ole)).toBe('application/msword');
    expect(computedMime('text/plain', bytes('PK is how a zip starts'))).toBe('text/plain');
  });

  it('takes text/plain that starts a whole HTML document for HTML', () => {
    const page = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain served</title>';
    expect(computedMime('text/plain', bytes(page))).toBe('text/html');
    expect(computedMime('text/plain', bytes(`${BOM}\n  <!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">`))).toBe(
      'text/html',
    );
    expect(computedMime('text/plain', bytes('<HTML>\n<BODY>'))).toBe('text/html');
  });

  it('keeps text/plain that only contains or starts with a fragment of markup', () => {
    expect(computedMime('text/plain', bytes('<p>a paragraph tag, as a note shows it</p>'))).toBe('text/plain');
    expect(computedMime('text/plain', bytes('<!-- a comment --><html>'))).toBe('text/plain');
    expect(computedMime('text/plain', bytes('Use <!doctype html> at the top of a page.'))).toBe('text/plain');
    expect(computedMime('text/plain', bytes('# Notes\n\n<html> is the root element.'))).toBe('text/plain');
  });

  it('trusts every other declared type', () => {
    for (const mime of ['text/html', 'application/xhtml+xml', 'application/json', 'application/octet-stream']) {
      expect([mime, computedMime(mime, bytes('<!doctype html><html>'))]).toEqual([mime, mime]);
    }
    expect(computedMime('text/markdown', bytes('<html>'))).toBe('text/markdown');
  });
});
