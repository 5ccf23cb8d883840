import { describe, expect, it } from '@jest/globals';
import {
  directoryIndexParent,
  hostMatchesSite,
  isPathologicalPath,
  normalizeSite,
  normalizeUrl,
  pageIdForUrl,
  siteLabels,
  siteWithin,
  urlMatchesSite,
} from './url.js';

describe('normalizeUrl', () => {
  it('lower-cases scheme and host, drops default port, fragment and tracking params, sorts query', () => {
    expect(normalizeUrl('HTTP://Example.COM:80/a?b=2&a=1&utm_source=x#top')).toBe('http://example.com/a?a=1&b=2');
  });
  it('drops session parameters, which make every link of a cookieless visit new', () => {
    const phpbb = 'https://forum.example.org/viewtopic.php?t=42&sid=5f2b9c0e7d1a4b3c8e6f0a1b2c3d4e5f';
    expect(normalizeUrl(phpbb)).toBe('https://forum.example.org/viewtopic.php?t=42');
    expect(normalizeUrl('https://shop.example.com/item.jsp;jsessionid=0A1B2C3D4E5F?id=4')).toBe(
      'https://shop.example.com/item.jsp?id=4',
    );
    expect(normalizeUrl('https://example.com/p?PHPSESSID=abc&ASPSESSIONIDQQGDRBAD=x&osCsid=y&page=2')).toBe(
      'https://example.com/p?page=2',
    );
    expect(normalizeUrl('https://forum.example.org/showthread.php?s=0123456789abcdef0123456789abcdef&t=7')).toBe(
      'https://forum.example.org/showthread.php?t=7',
    );
  });
  it('keeps the same names when they hold a value of the page, not a token', () => {
    expect(normalizeUrl('https://example.com/station?sid=5')).toBe('https://example.com/station?sid=5');
    expect(normalizeUrl('https://conf.example.org/talk?session_id=12')).toBe(
      'https://conf.example.org/talk?session_id=12',
    );
    expect(normalizeUrl('https://example.com/search?s=internationalization')).toBe(
      'https://example.com/search?s=internationalization',
    );
    expect(normalizeUrl('https://example.com/a;b=1/c')).toBe('https://example.com/a;b=1/c');
  });
  it('keeps each query pair as the page wrote it: no character escaped, decoded or added', () => {
    // A robots.txt rule for `Special:` or `price,desc` must still match the URL fetched.
    expect(normalizeUrl('http://w.example/index.php?title=Special:Random')).toBe(
      'http://w.example/index.php?title=Special:Random',
    );
    expect(normalizeUrl('http://a.example/c?sort=price,desc&q=a+b%20c')).toBe(
      'http://a.example/c?q=a+b%20c&sort=price,desc',
    );
    // Escapes of Latin-1 or Shift_JIS bytes are other queries, not U+FFFD.
    expect(normalizeUrl('http://a.example/search?q=%E9t%E9')).toBe('http://a.example/search?q=%E9t%E9');
    expect(pageIdForUrl('http://a.example/s?q=%E9%E9')).not.toBe(pageIdForUrl('http://a.example/s?q=%E8%E8'));
    expect(normalizeUrl('http://a.example/page?print')).toBe('http://a.example/page?print');
    // Only the case of an escape changes; empty pairs and an empty query go.
    expect(normalizeUrl('http://a.example/%7ejoe/?q=%c3%a9&&')).toBe('http://a.example/%7Ejoe/?q=%C3%A9');
    expect(normalizeUrl('http://a.example/?')).toBe('http://a.example/');
    expect(normalizeUrl('http://a.example/p?q=é')).toBe('http://a.example/p?q=%C3%A9');
  });
  it('keeps path case and a non-default port', () => {
    expect(normalizeUrl('https://example.com:8443/Path')).toBe('https://example.com:8443/Path');
  });
  it('rejects non-http schemes', () => {
    expect(() => normalizeUrl('ftp://example.com/')).toThrow(TypeError);
    expect(() => normalizeUrl('javascript:alert(1)')).toThrow(TypeError);
  });
});

describe('pageIdForUrl', () => {
  it('is stable across equivalent URLs and URL-safe', () => {
    const a = pageIdForUrl('https://example.com/a?x=1&y=2');
    expect(a).toBe(pageIdForUrl('https://EXAMPLE.com/a?y=2&x=1#frag'));
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toBe(pageIdForUrl('https://example.com/b'));
  });
});

describe('sites', () => {
  it('normalizes what users type', () => {
    expect(normalizeSite('https://Docs.Example.com/')).toBe('docs.example.com');
    expect(normalizeSite('https://Docs.Example.com:8080/Path/To/?q=1#x')).toBe('docs.example.com:8080/path/to');
    expect(normalizeSite('example.com//a///b')).toBe('example.com/a/b');
    expect(normalizeSite('example.com/a/b/c/d/e/f/g')).toBe('example.com/a/b/c/d/e');
    expect(normalizeSite('example.com/ü/~x')).toBe('example.com/%c3%bc/~x');
    expect(normalizeSite('/docs')).toBeNull();
    expect(normalizeSite('.example.com')).toBe('example.com');
    expect(normalizeSite('*.Example.com/Docs')).toBe('example.com/docs');
    expect(normalizeSite('*.gov')).toBe('gov');
    expect(normalizeSite('a*.example.com')).toBeNull();
    expect(normalizeSite('exa mple.com')).toBeNull();
    expect(normalizeSite('"); DROP')).toBeNull();
    // A label neither starts nor ends with a hyphen; one inside is fine.
    for (const bad of ['-', 'a.-', '-a.example.com', 'example-.com']) expect(normalizeSite(bad)).toBeNull();
    expect(normalizeSite('my-site.example.com')).toBe('my-site.example.com');
    expect(normalizeSite('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });
  it('normalizes an IPv6 address, bare or bracketed, to the bracketed form a URL gives its host', () => {
    expect(normalizeSite('2001:DB8:0:0:0:0:0:1')).toBe('[2001:db8::1]');
    expect(normalizeSite('[2001:db8::1]')).toBe('[2001:db8::1]');
    expect(normalizeSite('http://[2001:db8::1]:8080/Docs/a?x=1')).toBe('[2001:db8::1]:8080/docs/a');
    expect(normalizeSite('[::1]#x')).toBe('[::1]');
    expect(normalizeSite('::ffff:10.0.0.1')).toBe('[::ffff:a00:1]');
    for (const bad of ['[2001:db8::1', '[nope]', '[::1]x', '1:2:3:4:5:6:7:8:9']) expect(normalizeSite(bad)).toBeNull();
    // One colon is a host and a port, not an address.
    // A port names one of the sites a host serves; the web's own ports name the host.
    expect(normalizeSite('example.com:8080')).toBe('example.com:8080');
    expect(normalizeSite('127.0.0.1:8901')).toBe('127.0.0.1:8901');
    expect(normalizeSite('example.com:80')).toBe('example.com');
    expect(normalizeSite('https://example.com:443/docs')).toBe('example.com/docs');
    expect(normalizeSite('example.com:0')).toBeNull();
    expect(normalizeSite('example.com:65536')).toBeNull();
    expect(normalizeSite('example.com:')).toBeNull();
    expect(normalizeSite('[::1]:99999')).toBeNull();
  });
  it('trims dots of any run, and answers null for a value over 2,048 characters before reading it', () => {
    // Took seconds with patterns that were tried again from every dot or slash.
    expect(normalizeSite(`a${'.'.repeat(50_000)}.a`)).toBeNull();
    expect(normalizeSite(`a${'/'.repeat(50_000)}\nb`)).toBeNull();
    expect(normalizeSite(`a${'.'.repeat(2000)}.a`)).toBeNull();
    expect(normalizeSite(`${'.'.repeat(1000)}Example.com${'.'.repeat(1000)}`)).toBe('example.com');
    expect(normalizeSite('example.com/a\nb')).toBeNull();
    expect(normalizeSite(`https://example.com/${'p'.repeat(2048)}`)).toBeNull();
  });
  it('matches a host and its subdomains only', () => {
    expect(hostMatchesSite('a.example.com', 'example.com')).toBe(true);
    expect(hostMatchesSite('example.com', 'example.com')).toBe(true);
    expect(hostMatchesSite('badexample.com', 'example.com')).toBe(false);
  });
  it('takes a site with a port as that host on that port alone, one without on every port', () => {
    expect(hostMatchesSite('example.com:8080', 'example.com')).toBe(true);
    expect(hostMatchesSite('a.example.com:8080', 'example.com')).toBe(true);
    expect(hostMatchesSite('example.com:8080', 'example.com:8080')).toBe(true);
    expect(hostMatchesSite('example.com', 'example.com:8080')).toBe(false);
    expect(hostMatchesSite('example.com:8081', 'example.com:8080')).toBe(false);
    expect(siteWithin('example.com:8080/docs', 'example.com:8080')).toBe(true);
    expect(siteWithin('example.com:8080/docs', 'example.com/docs')).toBe(true);
    expect(siteWithin('example.com/docs', 'example.com:8080')).toBe(false);
    expect(urlMatchesSite('http://127.0.0.1:8901/a', '127.0.0.1:8901')).toBe(true);
    expect(urlMatchesSite('http://127.0.0.1:8902/a', '127.0.0.1:8901')).toBe(false);
    expect(urlMatchesSite('http://127.0.0.1:8902/a', '127.0.0.1')).toBe(true);
  });
  it("labels a page with its host, the host's parents, and each of those but the last with its path's start", () => {
    expect(siteLabels('https://Docs.Example.com/Guide/intro.html?x=1')).toEqual([
      'docs.example.com',
      'example.com',
      'com',
      'docs.example.com/guide',
      'docs.example.com/guide/intro.html',
      'example.com/guide',
      'example.com/guide/intro.html',
    ]);
    expect(siteLabels('https://example.com/')).toEqual(['example.com', 'com']);
    expect(siteLabels('http://127.0.0.1:8080/a/b')).toEqual([
      '127.0.0.1',
      '127.0.0.1:8080',
      '127.0.0.1/a',
      '127.0.0.1/a/b',
      '127.0.0.1:8080/a',
      '127.0.0.1:8080/a/b',
    ]);
    expect(siteLabels('http://docs.example.com:8080/x')).toEqual([
      'docs.example.com',
      'example.com',
      'com',
      'docs.example.com:8080',
      'docs.example.com/x',
      'example.com/x',
      'docs.example.com:8080/x',
    ]);
    // The scheme's own port is no port of the URL's.
    expect(siteLabels('https://example.com:443/x')).toEqual(['example.com', 'com', 'example.com/x']);
    expect(siteLabels('http://[2001:DB8::1]/a')).toEqual(['[2001:db8::1]', '[2001:db8::1]/a']);
    expect(urlMatchesSite('http://[2001:db8::1]/a/b', '[2001:db8::1]/a')).toBe(true);
    // A bare address before a path reads like a prefix length (`2001:db8::/32`): brackets say which.
    expect(normalizeSite('2001:db8::1/a')).toBeNull();
    expect(siteLabels('https://a.test/1/2/3/4/5/6/7')).toContain('a.test/1/2/3/4/5');
    expect(siteLabels('https://a.test/1/2/3/4/5/6/7')).not.toContain('a.test/1/2/3/4/5/6');
  });
  it('tells whether a page is within a site value, path segments whole', () => {
    expect(urlMatchesSite('https://docs.example.com/Guide/x', 'example.com/guide')).toBe(true);
    expect(urlMatchesSite('https://docs.example.com/guidebook/x', 'example.com/guide')).toBe(false);
    expect(urlMatchesSite('https://badexample.com/guide', 'example.com')).toBe(false);
    expect(urlMatchesSite('not a url', 'example.com')).toBe(false);
    expect(siteWithin('docs.example.com/api/v2', 'example.com/api')).toBe(true);
    expect(siteWithin('docs.example.com', 'example.com')).toBe(true);
    expect(siteWithin('example.com', 'example.com/api')).toBe(false);
    expect(siteWithin('example.com/blog', 'example.com/api')).toBe(false);
  });
});

describe('directoryIndexParent', () => {
  it('names the directory of an index file', () => {
    expect(directoryIndexParent('http://a.test/index.html')).toBe('http://a.test/');
    expect(directoryIndexParent('http://a.test/docs/INDEX.HTM#top')).toBe('http://a.test/docs/');
    expect(directoryIndexParent('https://a.test/blog/index.php')).toBe('https://a.test/blog/');
    expect(directoryIndexParent('http://a.test/Default.aspx')).toBe('http://a.test/');
  });
  it('leaves other URLs, and index files with a query, alone', () => {
    expect(directoryIndexParent('http://a.test/')).toBeNull();
    expect(directoryIndexParent('http://a.test/myindex.html')).toBeNull();
    expect(directoryIndexParent('http://a.test/index.html/more')).toBeNull();
    expect(directoryIndexParent('http://a.test/w/index.php?title=Main')).toBeNull();
  });
});

describe('isPathologicalPath', () => {
  it('finds a segment or a run of segments repeated three times in a row', () => {
    expect(isPathologicalPath('https://example.com/en/en/en/about')).toBe(true);
    expect(isPathologicalPath('https://example.com/docs/a/b/a/b/a/b/')).toBe(true);
    expect(isPathologicalPath('https://example.com/x/a/b/c/a/b/c/a/b/c')).toBe(true);
  });
  it('leaves twice, repeats apart and the query alone', () => {
    expect(isPathologicalPath('https://example.com/news/2024/news/2024/')).toBe(false);
    expect(isPathologicalPath('https://example.com/a/b/a/c/a/d')).toBe(false);
    expect(isPathologicalPath('https://example.com/p?x=a/a/a/a')).toBe(false);
    expect(isPathologicalPath('https://example.com/')).toBe(false);
  });
});
