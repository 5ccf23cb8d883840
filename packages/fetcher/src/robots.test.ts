import { describe, expect, it } from '@jest/globals';
import { normalizeRobotsTxt, parseRobotsTxt, productToken, robotsAllows } from './robots.js';

const UA = 'QuarryBot/0.1 (+https://github.com/quarry-search/quarry)';

describe('robotsAllows', () => {
  const robots = [
    'User-agent: *',
    'Disallow: /private',
    '',
    'User-agent: quarrybot',
    'Disallow: /no-quarry',
    'Allow: /no-quarry/open',
    'Crawl-delay: 2.5',
  ].join('\n');

  it('picks our group by product token, case-insensitively, and ignores the * group then', () => {
    expect(robotsAllows(robots, UA, 'https://a.org/no-quarry/x')).toBe(false);
    expect(robotsAllows(robots, UA, 'https://a.org/no-quarry/open/1')).toBe(true);
    expect(robotsAllows(robots, UA, 'https://a.org/private')).toBe(true);
  });

  it('falls back to the * group for other agents', () => {
    expect(robotsAllows(robots, 'OtherBot/2.0', 'https://a.org/private/x')).toBe(false);
    expect(robotsAllows(robots, 'OtherBot/2.0', 'https://a.org/no-quarry')).toBe(true);
  });

  it('treats the empty file and paths given without a host', () => {
    expect(robotsAllows('', UA, 'https://a.org/anything')).toBe(true);
    expect(robotsAllows('User-agent: *\nDisallow: /', UA, '')).toBe(false);
    expect(robotsAllows('User-agent: *\nDisallow: /x', UA, '/x/y')).toBe(false);
  });
});

describe('parseRobotsTxt', () => {
  it('returns crawl-delay of our group and absolute sitemaps', () => {
    const parsed = parseRobotsTxt(
      'https://a.org/robots.txt',
      'Sitemap: https://a.org/s.xml\nsitemap: /relative.xml\nUser-agent: QuarryBot\nCrawl-delay: 3\nDisallow: /x\nUser-agent: *\nCrawl-delay: 10',
    );
    expect(parsed.crawlDelaySecs(UA)).toBe(3);
    expect(parsed.crawlDelaySecs('Other')).toBe(10);
    expect(parsed.sitemaps).toEqual(['https://a.org/s.xml']);
    expect(parsed.isAllowed('https://a.org/x', UA)).toBe(false);
    expect(parsed.isAllowed('https://other.org/x', UA)).toBe(true);
  });
});

describe('normalizeRobotsTxt and productToken', () => {
  it('reduces agents to product tokens and tolerates sloppy lines', () => {
    expect(productToken(UA)).toBe('QuarryBot');
    expect(productToken('* extra')).toBe('*');
    expect(productToken('Foo Bar')).toBe('Foo');
    expect(
      normalizeRobotsTxt('\uFEFFUser-Agent: FOO BAR # hi\ndisallow /x\nuseragent: baz\nAllow: /d/index.html'),
    ).toBe('user-agent: FOO\ndisallow: /x\nuser-agent: baz\nallow: /d/index.html\nallow: /d/$');
  });
});

describe('normalizeRobotsTxt on hostile lines', () => {
  it('keeps a line of 16,663 spaces (no colon) as it is and reads the rules after it', () => {
    const spaces = ' '.repeat(16_663);
    const text = `${spaces}\nUser-agent: *\nDisallow: /private`;
    expect(normalizeRobotsTxt(text)).toBe(`${spaces}\nuser-agent: *\ndisallow: /private`);
    expect(robotsAllows(text, UA, 'https://a.org/private/x')).toBe(false);
  });

  it('drops a comment of 16,660 "#" up to a U+2028 as a comment', () => {
    const text = `${'#'.repeat(16_660)}\u2028x\nUser-agent: *\nDisallow: /private`;
    expect(normalizeRobotsTxt(text)).toBe('\nuser-agent: *\ndisallow: /private');
  });
});
