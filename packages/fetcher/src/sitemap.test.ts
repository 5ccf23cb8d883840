import { describe, expect, it } from '@jest/globals';
import { parseSitemap } from './sitemap.js';

describe('parseSitemap', () => {
  it('reads a urlset with namespaces and entities', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://a.org/1?x=1&amp;y=2</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> https://a.org/2 </loc><image:image><image:loc>https://a.org/i.png</image:loc></image:image></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>`;
    expect(parseSitemap(xml, 'https://a.org/sitemap.xml')).toEqual({
      urls: ['https://a.org/1?x=1&y=2', 'https://a.org/2'],
      sitemaps: [],
    });
  });

  it('reads a sitemap index', () => {
    const xml =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.org/s1.xml</loc></sitemap><sitemap><loc>https://a.org/s2.xml.gz</loc></sitemap></sitemapindex>';
    expect(parseSitemap(xml, 'https://a.org/')).toEqual({
      urls: [],
      sitemaps: ['https://a.org/s1.xml', 'https://a.org/s2.xml.gz'],
    });
  });

  it('reads plain-text sitemaps, keeping absolute http(s) URLs only', () => {
    expect(
      parseSitemap('https://a.org/1\r\n\n/relative\nftp://a.org/f\nhttp://a.org/2\n', 'https://a.org/s.txt').urls,
    ).toEqual(['https://a.org/1', 'http://a.org/2']);
  });

  it('returns what it can from broken XML', () => {
    const broken =
      '<urlset><url><loc>https://a.org/1</loc></url><url><loc>https://a.org/2</loc><url><loc>https://a.org/3';
    expect(parseSitemap(broken, 'https://a.org/').urls).toEqual(
      expect.arrayContaining(['https://a.org/1', 'https://a.org/2']),
    );
  });

  it('never expands DTD entities', () => {
    const xml =
      '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><urlset><url><loc>https://a.org/&b;</loc></url></urlset>';
    const { urls } = parseSitemap(xml, 'https://a.org/');
    expect(urls.join('')).not.toContain('aaaaaaaaaa');
  });
});
