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

  it('reads the items of RSS 2.0, RSS 1.0 and Atom feeds, as the sitemap protocol accepts them', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>https://a.org/</link>
<item><title>One</title><link>https://a.org/news/1?a=1&amp;b=2</link></item>
<item><title>Two</title><link><![CDATA[/news/2]]></link><guid isPermaLink="false">x</guid></item>
<item><title>No link</title></item></channel></rss>`;
    expect(parseSitemap(rss, 'https://a.org/feed.xml')).toEqual({
      urls: ['https://a.org/news/1?a=1&b=2', 'https://a.org/news/2'],
      sitemaps: [],
    });
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="https://a.org/"><link>https://a.org/</link></channel>
<item rdf:about="https://a.org/r/1"><link>https://a.org/r/1</link></item></rdf:RDF>`;
    expect(parseSitemap(rdf, 'https://a.org/rss').urls).toEqual(['https://a.org/r/1']);
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><link rel="self" href="https://a.org/atom"/>
<entry><link rel="edit" href="https://a.org/edit/1"/><link rel="alternate" href="/posts/1"/></entry>
<entry><link href="https://a.org/posts/2"/></entry></feed>`;
    expect(parseSitemap(atom, 'https://a.org/atom').urls).toEqual(['https://a.org/posts/1', 'https://a.org/posts/2']);
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

  it('reads the <loc> of broken XML followed by 64,000 <url> tags without one', () => {
    const broken = `<urlset<url><loc>https://a.org/1</loc></url>${'<url>'.repeat(64_000)}`;
    expect(parseSitemap(broken, 'https://a.org/')).toEqual({ urls: ['https://a.org/1'], sitemaps: [] });
  });

  it('never expands DTD entities', () => {
    const xml =
      '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><urlset><url><loc>https://a.org/&b;</loc></url></urlset>';
    const { urls } = parseSitemap(xml, 'https://a.org/');
    expect(urls.join('')).not.toContain('aaaaaaaaaa');
  });

  it('reads a large urlset or index in one pass over its tags, as the parser reads a small one', () => {
    // Entries of every shape the parser takes: entities, CDATA, a prefixed namespace, pictures
    // (whose own <image:loc> is no page), lastmod and such, a loc that is no http(s) URL.
    const entry = (i: number) =>
      [
        `<url><loc>https://a.org/p/${i}?x=1&amp;y=2</loc><lastmod>2026-01-01</lastmod><priority>0.5</priority></url>`,
        `<url><loc><![CDATA[https://a.org/c/${i}]]></loc><image:image><image:loc>https://a.org/i/${i}.png</image:loc><image:title>Picture ${i}</image:title></image:image></url>`,
        `<sm:url><sm:loc> https://a.org/n/${i} </sm:loc></sm:url>`,
        `<url><loc>mailto:x${i}@a.org</loc></url>`,
      ].join('\n');
    const urlset = (n: number) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- generated -->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${Array.from({ length: n }, (_, i) => entry(i)).join('\n')}\n</urlset>`;
    const expected = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        `https://a.org/p/${i}?x=1&y=2`,
        `https://a.org/c/${i}`,
        `https://a.org/n/${i}`,
      ]).flat();
    const small = urlset(50);
    expect(parseSitemap(small, 'https://a.org/sitemap.xml')).toEqual({ urls: expected(50), sitemaps: [] });
    const large = urlset(12_000);
    expect(large.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(parseSitemap(large, 'https://a.org/sitemap.xml')).toEqual({ urls: expected(12_000), sitemaps: [] });

    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
      { length: 40_000 },
      (_, i) => `<sitemap><loc>https://a.org/s/${i}.xml.gz</loc><lastmod>2026-01-01T00:00:00+00:00</lastmod></sitemap>`,
    ).join('')}</sitemapindex>`;
    expect(index.length).toBeGreaterThan(2 * 1024 * 1024);
    const read = parseSitemap(index, 'https://a.org/sitemap.xml');
    expect(read.urls).toEqual([]);
    expect(read.sitemaps).toHaveLength(40_000);
    expect(read.sitemaps[39_999]).toBe('https://a.org/s/39999.xml.gz');
  });
});
