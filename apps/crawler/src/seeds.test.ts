import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@quarry/core';
import { followUps, parseSeed, parseSeedsText, type SeedsError, scopeOf } from './seeds.js';

describe('seeds', () => {
  it('parses settings and defaults', () => {
    const seed = parseSeed('https://Example.com/docs/ depth=2 pages=50 render=always scope=prefix');
    expect(seed).toEqual({
      url: 'https://example.com/docs/',
      maxDepth: 2,
      maxPages: 50,
      render: 'always',
      scope: 'prefix',
    });
    expect(parseSeed('http://a.org').maxDepth).toBe(3);
  });
  it('refuses a seed URL longer than the crawler queues, saying so', () => {
    const long = `https://a.org/${'a'.repeat(2100)}`;
    expect(() => parseSeed(long)).toThrow(`URL longer than 2048 characters (${long.length})`);
    expect(parseSeed(`https://a.org/${'a'.repeat(2000)}`).url).toHaveLength(2014);
  });
  it('refuses a host name DNS cannot hold, and takes the ones it can', () => {
    expect(() => parseSeed('https://exa_mple..com/')).toThrow(
      'host name "exa_mple..com" has an empty label (two dots in a row, or a leading dot)',
    );
    expect(() => parseSeed('http://.example.com/')).toThrow('empty label');
    expect(() => parseSeed(`https://${'a'.repeat(64)}.com/`)).toThrow('has a label longer than 63 characters');
    expect(() => parseSeed(`https://${'abcdefghi.'.repeat(26)}com/`)).toThrow(
      'host name longer than 253 characters (263)',
    );
    for (const ok of [
      'https://my_site.example.com/',
      `https://${'a'.repeat(63)}.com/`,
      'http://[::1]:8080/',
      'http://127.0.0.1/',
    ]) {
      expect(parseSeed(ok).url).toContain(new URL(ok).host);
    }
  });
  it('refuses a seed URL with a user name or password, and says a space cut a URL', () => {
    expect(() => parseSeed('https://user:pw@example.com/')).toThrow(
      'a seed URL holds no user name or password (example.com); Quarry crawls public pages',
    );
    expect(() => parseSeed('https://user@example.com/')).toThrow('no user name or password');
    expect(() => parseSeed('http://exa mple.com/')).toThrow(
      'unknown setting "mple.com/" (depth=, pages=, render=, scope=); a URL cannot hold a space (write it %20): "http://exa mple.com/"',
    );
    expect(() => parseSeed('https://a.org colour=red')).toThrow(
      /^unknown setting "colour=red" \(depth=, pages=, render=, scope=\)$/,
    );
  });
  it('reports every bad line with its number', () => {
    const text = '# comment\nhttps://a.org\n\nftp://b.org\nhttps://c.org pages=0\nhttps://d.org # trailing\n';
    expect(() => parseSeedsText(text)).toThrow(ValidationError);
    try {
      parseSeedsText(text);
    } catch (error) {
      expect((error as Error).message).toContain('line 4');
      expect((error as Error).message).toContain('line 5');
      expect((error as Error).message).not.toContain('line 6');
      expect((error as SeedsError).problems).toEqual([
        'line 4: not an absolute http(s) URL: ftp://b.org',
        'line 5: pages= needs a whole number ≥ 1, not "0"',
      ]);
      // The value said back, whatever the setting.
      expect(() => parseSeedsText('https://a.org scope=galaxy')).toThrow(
        'line 1: scope= must be host, domain, prefix or any, not "galaxy"',
      );
      expect(() => parseSeedsText('https://a.org depth=-1')).toThrow(
        'line 1: depth= needs a whole number, 0 or more, not "-1"',
      );
    }
  });
  it('scopes by host, domain and prefix', () => {
    expect(scopeOf(parseSeed('https://a.org/x')).contains('https://a.org/y')).toBe(true);
    expect(scopeOf(parseSeed('https://a.org/x')).contains('https://b.a.org/y')).toBe(false);
    // The `www.` twin is the same site (seeds redirect to it), another port is not.
    expect(scopeOf(parseSeed('https://a.org/x')).contains('https://www.a.org/y')).toBe(true);
    expect(scopeOf(parseSeed('https://www.a.org/x')).contains('http://a.org/y')).toBe(true);
    expect(scopeOf(parseSeed('https://a.org/x')).contains('https://a.org:8443/y')).toBe(false);
    expect(scopeOf(parseSeed('https://a.org/x')).contains('https://www2.a.org/y')).toBe(false);
    expect(scopeOf(parseSeed('https://www.a.org scope=domain')).contains('https://b.a.org/y')).toBe(true);
    expect(scopeOf(parseSeed('https://www.a.org scope=domain')).contains('https://evila.org/')).toBe(false);
    const prefix = scopeOf(parseSeed('https://a.org/docs/intro scope=prefix'));
    expect(prefix.contains('https://a.org/docs/api')).toBe(true);
    expect(prefix.contains('https://a.org/blog')).toBe(false);
    expect(prefix.contains('http://a.org/docs/api')).toBe(true);
    expect(prefix.contains('http://a.org/blog')).toBe(false);
  });
});

describe('followUps', () => {
  it('queues in-scope links, session parameters dropped, and never a path that repeats itself', () => {
    const seed = parseSeed('https://forum.example.org/ depth=5');
    const links = [
      'https://forum.example.org/viewtopic.php?t=1&sid=0123456789abcdef0123456789abcdef',
      'https://forum.example.org/viewtopic.php?t=1&sid=fedcba9876543210fedcba9876543210',
      'https://forum.example.org/docs/docs/docs/faq',
      'https://forum.example.org/docs/faq',
      'https://elsewhere.example.com/',
    ];
    expect(followUps(links, seed, 1).map((task) => task.url)).toEqual([
      'https://forum.example.org/viewtopic.php?t=1',
      'https://forum.example.org/viewtopic.php?t=1',
      'https://forum.example.org/docs/faq',
    ]);
  });
});
