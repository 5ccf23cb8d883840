import { describe, expect, it } from '@jest/globals';
import { allowHostProblem } from './allow-hosts.js';
import { CONFIG_ENV_VARS, ConfigError, configValue, loadConfig, unknownSettings } from './config.js';

/** The issues loadConfig reports for an environment. */
function issuesOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig errors', () => {
  it('names the variable, the bad value and what is expected', () => {
    expect(issuesOf({ PORT: 'abc' })).toEqual(['PORT="abc": expected an integer from 0 to 65535']);
    expect(issuesOf({ PORT: '70000' })).toEqual(['PORT="70000": expected an integer from 0 to 65535']);
    expect(issuesOf({ QUARRY_HOST_DELAY_MS: '1e3' })).toEqual([
      'QUARRY_HOST_DELAY_MS="1e3": expected an integer from 0 to 600000',
    ]);
    expect(issuesOf({ LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent',
    ]);
    expect(issuesOf({ QUARRY_FALLBACK_CRAWL: 'maybe' })).toEqual([
      'QUARRY_FALLBACK_CRAWL="maybe": expected true, false, 1, 0, yes or no',
    ]);
    expect(issuesOf({ REDIS_URL: 'localhost' })[0]).toMatch(/^REDIS_URL="localhost": expected an absolute URL/);
  });

  it('lists every problem at once', () => {
    expect(issuesOf({ PORT: 'x', LOG_LEVEL: 'y', QUARRY_RECRAWL_AFTER: 'soon' })).toHaveLength(3);
  });

  // Each was once taken as given: a directory named " ", a User-Agent " ", an admin token of 16 spaces.
  it.each(CONFIG_ENV_VARS)('refuses %s of only whitespace, naming it, rather than using it or a default', (name) => {
    const [issue, ...others] = issuesOf({ [name]: name === 'QUARRY_ADMIN_TOKEN' ? ' '.repeat(16) : ' \t' });
    expect(others).toEqual([]);
    expect(issue).toMatch(new RegExp(`^${name}=.*: expected a value, not only whitespace \\(empty means unset\\)$`));
  });

  it('refuses a flag of only whitespace too, and lists it with the other problems', () => {
    expect(() => loadConfig({}, { QUARRY_DATA_DIR: ' ' })).toThrow(/QUARRY_DATA_DIR=" ": expected a value/);
    expect(issuesOf({ QUARRY_DATA_DIR: ' ', PORT: 'x' })).toHaveLength(2);
    expect(loadConfig({ QUARRY_DATA_DIR: '' }).dataDir).toBe('./data');
  });

  // They were once reported only in a second round, after the other problems were fixed.
  it('lists what the fallback provider needs with the other problems, in one round', () => {
    expect(issuesOf({ QUARRY_FALLBACK_PROVIDER: 'brave', PORT: 'abc' })).toEqual([
      'PORT="abc": expected an integer from 0 to 65535',
      'QUARRY_BRAVE_API_KEY=(unset): expected an API key when QUARRY_FALLBACK_PROVIDER=brave',
    ]);
    expect(issuesOf({ QUARRY_FALLBACK_PROVIDER: 'searxng', LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent',
      'QUARRY_SEARXNG_URL=(unset): expected a URL when QUARRY_FALLBACK_PROVIDER=searxng',
    ]);
    // A URL given but unusable is reported once, as such, not also as missing.
    expect(issuesOf({ QUARRY_FALLBACK_PROVIDER: 'searxng', QUARRY_SEARXNG_URL: 'sx' })).toEqual([
      'QUARRY_SEARXNG_URL="sx": expected an absolute URL such as http://127.0.0.1:8888',
    ]);
    expect(issuesOf({ QUARRY_FALLBACK_PROVIDER: 'brave', QUARRY_BRAVE_API_KEY: ' ' })).toHaveLength(1);
    expect(loadConfig({ QUARRY_FALLBACK_PROVIDER: 'brave', QUARRY_BRAVE_API_KEY: 'k' }).fallback.provider).toBe(
      'brave',
    );
  });

  // One with a space was taken, opened the login form, and no bearer could ever carry it: every
  // try on /admin, /metrics or /mcp was refused and counted as a wrong guess.
  it('trims whitespace around the admin token and refuses it inside', () => {
    expect(loadConfig({ QUARRY_ADMIN_TOKEN: ' 0f3a9c17e2b4d685\n' }).adminToken).toBe('0f3a9c17e2b4d685');
    expect(loadConfig({ QUARRY_ADMIN_TOKEN: '\t0f3a9c17e2b4d685  ' }).adminToken).toBe('0f3a9c17e2b4d685');
    for (const inner of ['0f3a9c17 e2b4d685', '0f3a9c17\te2b4d685', '0f3a9c17\ne2b4d685', '0f3a9c17\u00a0e2b4d685']) {
      expect(issuesOf({ QUARRY_ADMIN_TOKEN: ` ${inner} ` })).toEqual([
        `QUARRY_ADMIN_TOKEN=(hidden, ${inner.length + 2} characters): expected no space or other whitespace inside: it is sent as a bearer token, which cannot hold one (a random one: openssl rand -hex 24)`,
      ]);
    }
    // Its length is counted without the whitespace around it.
    expect(issuesOf({ QUARRY_ADMIN_TOKEN: `  ${'0f3a9c17e2b4d68'}  ` })[0]).toMatch(/expected at least 16 characters$/);
  });

  // Taken, it opened the login form, but curl sends `Bearer ключ…` as UTF-8, which the server reads
  // as Latin-1: no bearer could ever carry it.
  it('refuses an admin token with characters beyond printable ASCII', () => {
    for (const token of ['ключ-0f3a9c17e2b4d685', '0f3a9c17e2b4d685é', '0f3a9c17\u0007e2b4d685']) {
      expect(issuesOf({ QUARRY_ADMIN_TOKEN: token })).toEqual([
        `QUARRY_ADMIN_TOKEN=(hidden, ${token.length} characters): expected only ASCII letters, digits and punctuation: it is sent as a bearer token, in which other characters do not arrive as typed (a random one: openssl rand -hex 24)`,
      ]);
    }
    expect(loadConfig({ QUARRY_ADMIN_TOKEN: '0f3a-9c17_e2b4.d685~+/=' }).adminToken).toBe('0f3a-9c17_e2b4.d685~+/=');
  });

  it('never echoes a credential', () => {
    const [issue] = issuesOf({ QUARRY_ADMIN_TOKEN: 'short-secret' });
    expect(issue).toBe('QUARRY_ADMIN_TOKEN=(hidden, 12 characters): expected at least 16 characters');
    // Long enough but guessed at once: refused, and still not echoed.
    expect(issuesOf({ QUARRY_ADMIN_TOKEN: 'x'.repeat(16) })).toEqual([
      'QUARRY_ADMIN_TOKEN=(hidden, 16 characters): expected at least 6 different characters (a random one: openssl rand -hex 24)',
    ]);
    expect(issuesOf({ QUARRY_ADMIN_TOKEN: 'abcab'.repeat(5) })).toHaveLength(1);
    expect(loadConfig({ QUARRY_ADMIN_TOKEN: '0f3a9c17e2b4d685' }).adminToken).toBe('0f3a9c17e2b4d685');
    // Nor a password inside a URL.
    const [redis] = issuesOf({ REDIS_URL: 'redis://:S3cretPw-XYZZY@127.0.0.1:notaport' });
    expect(redis).toMatch(/^REDIS_URL="redis:\/\/\*\*\*@127\.0\.0\.1:notaport"/);
    expect(redis).not.toContain('S3cret');
    expect(issuesOf({ QUARRY_SEARXNG_URL: 'http://u:pw@sx:x' }).join(' ')).not.toContain('pw');
  });

  it('validates every QUARRY_ALLOW_HOSTS entry with the rest of the configuration', () => {
    expect(issuesOf({ QUARRY_ALLOW_HOSTS: '127.0.0.1, 999.1.1.1/99' })).toEqual([
      'QUARRY_ALLOW_HOSTS="127.0.0.1, 999.1.1.1/99": entry "999.1.1.1/99" is not a CIDR range: 999.1.1.1 is not an IP address',
    ]);
    expect(issuesOf({ QUARRY_ALLOW_HOSTS: 'not a host!!' })[0]).toMatch(
      /^QUARRY_ALLOW_HOSTS="not a host!!": entry "not a host!!" is not a host name/,
    );
    expect(
      loadConfig({ QUARRY_ALLOW_HOSTS: '127.0.0.1,intranet.local, 10.1.0.0/16,[::1],fd00::/8,wiki_1.corp.' })
        .allowHosts,
    ).toEqual(['127.0.0.1', 'intranet.local', '10.1.0.0/16', '[::1]', 'fd00::/8', 'wiki_1.corp.']);
  });
});

describe('QUARRY_HOST', () => {
  it('is checked with the rest of the configuration, not when the server listens', () => {
    const expected = 'expected an IP address such as 0.0.0.0 or ::1, or a host name such as localhost';
    expect(issuesOf({ QUARRY_HOST: 'not a host', PORT: 'abc' })).toEqual([
      'PORT="abc": expected an integer from 0 to 65535',
      `QUARRY_HOST="not a host": ${expected}`,
    ]);
    expect(issuesOf({ QUARRY_HOST: '999.1.1.1' })).toEqual([`QUARRY_HOST="999.1.1.1": ${expected}`]);
    expect(issuesOf({ QUARRY_HOST: 'http://localhost' })).toEqual([`QUARRY_HOST="http://localhost": ${expected}`]);
  });

  it.each([
    ['0.0.0.0', '0.0.0.0'],
    ['127.0.0.1', '127.0.0.1'],
    ['::', '::'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['localhost', 'localhost'],
    ['quarry.internal', 'quarry.internal'],
  ])('accepts %s as %s', (value, host) => {
    expect(loadConfig({ QUARRY_HOST: value }).host).toBe(host);
  });
});

describe('CPU priorities', () => {
  // Both were once read with Number(): '' turned the lowering off, 'abc' passed for the default.
  it('checks QUARRY_WORKER_PRIORITY with the rest of the configuration; empty is the default, 0 lowers nothing', () => {
    expect(loadConfig({}).workerPriority).toBe(10);
    expect(loadConfig({ QUARRY_WORKER_PRIORITY: '' }).workerPriority).toBe(10);
    expect(loadConfig({ QUARRY_WORKER_PRIORITY: '0' }).workerPriority).toBe(0);
    expect(loadConfig({ QUARRY_WORKER_PRIORITY: '19' }).workerPriority).toBe(19);
    expect(issuesOf({ QUARRY_WORKER_PRIORITY: 'abc', PORT: 'x' })).toEqual([
      'PORT="x": expected an integer from 0 to 65535',
      'QUARRY_WORKER_PRIORITY="abc": expected an integer from 0 to 19',
    ]);
    expect(issuesOf({ QUARRY_WORKER_PRIORITY: '20' })).toEqual([
      'QUARRY_WORKER_PRIORITY="20": expected an integer from 0 to 19',
    ]);
  });

  it('reads one variable in a thread or child process as loadConfig does', () => {
    expect(configValue('QUARRY_WORKER_PRIORITY', {})).toBe(10);
    expect(configValue('QUARRY_FOLD_PRIORITY', { QUARRY_FOLD_PRIORITY: '' })).toBe(10);
    expect(configValue('QUARRY_FOLD_PRIORITY', { QUARRY_FOLD_PRIORITY: '0' })).toBe(0);
    expect(configValue('QUARRY_FOLD_PRIORITY', { QUARRY_FOLD_PRIORITY: '12' })).toBe(12);
    for (const value of ['abc', '-1', '2.5', ' ']) {
      expect(() => configValue('QUARRY_FOLD_PRIORITY', { QUARRY_FOLD_PRIORITY: value })).toThrow(ConfigError);
    }
    expect(() => configValue('QUARRY_FOLD_PRIORITY', { QUARRY_FOLD_PRIORITY: 'abc' })).toThrow(
      'QUARRY_FOLD_PRIORITY="abc": expected an integer from 0 to 19',
    );
    // Set by the index for its fold process, not a setting: neither documented nor checked at start.
    expect(CONFIG_ENV_VARS).not.toContain('QUARRY_FOLD_PRIORITY');
    expect(loadConfig({ QUARRY_FOLD_PRIORITY: 'abc' }).workerPriority).toBe(10);
  });
});

describe('allowHostProblem', () => {
  it.each(['localhost', 'a.b-c.example', '10.0.0.0/8', '::1', '[::1]', '2001:db8::/32', '192.168.1.7'])(
    'accepts %s',
    (entry) => {
      expect(allowHostProblem(entry)).toBeNull();
    },
  );
  it.each(['999.1.1.1', '10.0.0.0/33', '::/129', 'a b', 'http://x.org', '-bad.org', 'x'.repeat(64), 'host/8'])(
    'refuses %s',
    (entry) => {
      expect(allowHostProblem(entry)).not.toBeNull();
    },
  );
});

describe('unknownSettings', () => {
  it('names QUARRY_ variables that are no setting, with the setting a prefixed name may mean', () => {
    expect(
      unknownSettings({
        QUARRY_PORT: 'abc',
        QUARRY_ALLOWED_HOSTS: 'x',
        QUARRY_HOST_DELAY_MS: '100',
        QUARRY_REQUIRE_SERVERS: '1',
        PORT: '8080',
        HOME: '/root',
      }),
    ).toEqual([{ name: 'QUARRY_ALLOWED_HOSTS' }, { name: 'QUARRY_PORT', meant: 'PORT' }]);
  });
});
