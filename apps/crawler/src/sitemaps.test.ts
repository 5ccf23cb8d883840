import { describe, expect, it } from '@jest/globals';
import { followUps, parseSeed } from './seeds.js';
import { sitemapTasks } from './sitemaps.js';

describe('sitemapTasks', () => {
  const seed = parseSeed('https://a.org/docs/ depth=2 pages=5 scope=prefix');

  it("marks the tasks as sitemaps, outside the seed's page scope and budget", () => {
    const [task] = sitemapTasks(['https://a.org/sitemap.xml'], seed, 1, 'https://a.org/robots.txt');
    expect(task).toMatchObject({
      url: 'https://a.org/sitemap.xml',
      depth: 1,
      meta: { sitemapFrom: 'https://a.org/robots.txt', maxPages: '5', scope: 'prefix' },
    });
    // /sitemap.xml is outside this seed's pages, and sitemaps count against a budget of their own.
    expect(followUps(['https://a.org/sitemap.xml'], seed, 1)).toEqual([]);
    expect(task?.scope).not.toBe(followUps(['https://a.org/docs/x'], seed, 1)[0]?.scope);
  });

  it("queues nothing deeper than the seed's depth limit, nor what is not an http(s) URL", () => {
    expect(sitemapTasks(['https://a.org/sitemap.xml'], seed, 3, 'https://a.org/robots.txt')).toEqual([]);
    expect(sitemapTasks(['ftp://a.org/sitemap.xml'], seed, 1, 'https://a.org/robots.txt')).toEqual([]);
  });
});
