import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requireBuiltCli, runCli } from './testing/run-cli.js';

/** Raw errno names must never reach the user. */
const ERRNO = /\bE[A-Z]{3,}\b/;

describe('quarry exits 2 with a plain message for every usage or configuration error (issue 10, point 5)', () => {
  let dir: string;
  const quarry = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { QUARRY_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', ...env });

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-exits-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unknown option: one line, exit 2', async () => {
    const run = await quarry(['crawl', '--bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(["quarry: unknown option '--bogus' (see --help)"]);
  }, 120_000);

  it.each([
    [
      'a missing seeds file',
      () => join(dir, 'missing.txt'),
      /seeds file .*missing\.txt does not exist; nothing was queued/,
    ],
    ['a directory', () => dir, /seeds file .* is a directory, not a file; nothing was queued/],
  ])(
    '--seeds naming %s',
    async (_what, path, message) => {
      const run = await quarry(['crawl', '--seeds', path()]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(ERRNO);
    },
    30_000,
  );

  it('quarry serve whose Redis refuses exits 1, not kept alive by a client reconnecting for ever', async () => {
    // A port nothing listens on: taken and let go.
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const run = await runCli(
      ['serve', '--port', '0'],
      {
        QUARRY_DATA_DIR: join(dir, 'serve-data'),
        LOG_LEVEL: 'silent',
        REDIS_URL: `redis://:S3cretPw@127.0.0.1:${port}`,
      },
      { timeoutMs: 60_000 },
    );
    expect(run.stderr).not.toContain('killed after');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot reach Redis/);
    expect(run.stderr).not.toContain('S3cretPw');
  }, 120_000);

  it("a damaged index: one line naming it, without the engine's source locations", async () => {
    const data = join(dir, 'damaged');
    mkdirSync(join(data, 'index', 'pages.lance', '_versions'), { recursive: true });
    writeFileSync(join(data, 'index', 'pages.lance', '_versions', '1.manifest'), 'garbage\n');
    const run = await runCli(['status'], { QUARRY_DATA_DIR: data, LOG_LEVEL: 'silent' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^quarry: cannot open the search index at .*damaged\/index: /);
    expect(run.stderr).not.toMatch(/\.rs:\d+/);
  }, 30_000);

  it('a full disk during quarry import: one line saying so and how far it got, exit 2', async () => {
    // A small tmpfs as the data dir's disk; where mounting is not allowed (not root, a container
    // without the capability) there is no full disk to make, and the test says so.
    const mountPoint = join(dir, 'tiny');
    mkdirSync(mountPoint);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]);
    if (mounted.status !== 0) {
      console.warn(`skipped: cannot mount a tmpfs to fill (${mounted.stderr.toString().trim()})`);
      return;
    }
    try {
      const words = 'river stone garden lamp winter paper bridge cloud orange violin harbour meadow'.split(' ');
      const lines = Array.from({ length: 3000 }, (_, i) =>
        JSON.stringify({
          url: `https://docs.example/${i}`,
          title: `Doc ${i}`,
          body_text: Array.from({ length: 200 }, (_, w) => `${words[(i + w * w) % words.length]}${(i * w) % 97}`).join(
            ' ',
          ),
        }),
      );
      const file = join(dir, 'big.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const data = join(mountPoint, 'data');
      const run = await runCli(['import', file], { QUARRY_DATA_DIR: data, LOG_LEVEL: 'silent' });
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        /^quarry import: the disk holding QUARRY_DATA_DIR \(or --data\) ".*" is full \(no space left on device\); free some space and run the same command again: stopped after \d+ documents? imported; /,
      );
      expect(run.stderr).not.toMatch(ERRNO);
    } finally {
      spawnSync('umount', ['-l', mountPoint]);
    }
  }, 120_000);

  it('warns of a QUARRY_ variable that is no setting, naming the one it may mean', async () => {
    const run = await quarry(['status'], { QUARRY_PORT: 'abc' });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'quarry: warning: QUARRY_PORT is no Quarry setting and is ignored (did you mean PORT?)\n',
    );
  }, 60_000);

  it('quarry keys revoke naming no key', async () => {
    const run = await quarry(['keys', 'revoke', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('quarry keys revoke: no key with id nope (see quarry keys list)');
  }, 120_000);

  it('quarry import naming a directory', async () => {
    const run = await quarry(['import', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`quarry import: ${dir} is a directory, not a file; nothing was imported`);
    expect(run.stderr).not.toMatch(ERRNO);
  }, 120_000);

  it('quarry import with a bad line names it, imports the rest and exits 1', async () => {
    const file = join(dir, 'one-bad.jsonl');
    writeFileSync(
      file,
      '{"url":"https://a.example/1","title":"One","body_text":"The one good page.","lang":"en"}\nnot json\n',
    );
    const run = await quarry(['import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^line 2: invalid JSON/m);
    expect(run.stdout).toMatch(/^imported 1 document, 1 line failed, in /m);
  }, 120_000);

  it('--data naming a file', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const run = await quarry(['status', '--data', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`QUARRY_DATA_DIR (or --data) "${file}": expected a directory, found a file`);
    expect(run.stderr).not.toMatch(ERRNO);
  }, 120_000);

  it('an empty seeds file', async () => {
    const file = join(dir, 'empty.txt');
    writeFileSync(file, '# only a comment\n\n');
    const run = await quarry(['crawl', '--seeds', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds no seeds');
  }, 120_000);

  it('a seeds file with bad lines lists each by number and queues none of the good ones', async () => {
    const file = join(dir, 'seeds.txt');
    writeFileSync(file, 'http://127.0.0.1:9/a\nftp://x.org/\nhttp://127.0.0.1:9/b pages=0\n');
    const run = await quarry(['crawl', '--seeds', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('2 bad seeds; nothing was queued');
    expect(run.stderr).toContain('line 2: not an absolute http(s) URL: ftp://x.org/');
    expect(run.stderr).toContain('line 3: pages= needs a whole number');
    const status = await quarry(['status', '--json']);
    expect(JSON.parse(status.stdout).crawl.queued).toBe(0);
  }, 120_000);

  it('a bad --seed URL', async () => {
    const run = await quarry(['crawl', '--seed', 'not-a-url']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--seed not-a-url: not an absolute http(s) URL');
  }, 120_000);

  it('--seed takes one URL or several, and repeats (DESIGN: --seed URL...)', async () => {
    const data = join(dir, 'seeds-data');
    const run = await quarry(
      [
        'crawl',
        '--data',
        data,
        '--seed',
        'http://127.0.0.1:9/a',
        'http://127.0.0.1:9/b',
        '--seed',
        'http://127.0.0.1:9/c',
      ],
      { QUARRY_ALLOW_HOSTS: '127.0.0.1' },
    );
    expect(run.code).toBe(0);
    const status = await quarry(['status', '--json', '--data', data]);
    expect(JSON.parse(status.stdout).crawl.queued).toBe(3);
  }, 120_000);

  it('--seeds reads every file given, not only the last', async () => {
    const data = join(dir, 'seeds-files-data');
    const first = join(dir, 'first-seeds.txt');
    const second = join(dir, 'second-seeds.txt');
    writeFileSync(first, 'http://127.0.0.1:9/a\n');
    writeFileSync(second, 'http://127.0.0.1:9/b\nhttp://127.0.0.1:9/c\n');
    const run = await quarry(['crawl', '--data', data, '--seeds', first, '--seeds', second], {
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('queued 3 new seed URLs');
    const status = await quarry(['status', '--json', '--data', data]);
    expect(JSON.parse(status.stdout).crawl.queued).toBe(3);
  }, 120_000);

  it('a bad --port names the flag the user typed, not the variable it overrides', async () => {
    const run = await quarry(['serve', '--port', '99999'], { PORT: '8080' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--port "99999": expected an integer from 0 to 65535');
    expect(run.stderr).not.toContain('PORT=');
  }, 120_000);

  it('a port in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await quarry(['serve'], { PORT: String(port), QUARRY_HOST: '127.0.0.1' });
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(
        `quarry: cannot listen on 127.0.0.1:${port}: the port is in use (set PORT or --port)`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);

  it('quarry start on a port in use stores no admin token and queues nothing', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const data = join(dir, 'busy-port-data');
    try {
      const run = await quarry(['start', '--data', data, '--seed', 'http://127.0.0.1:9/a'], {
        PORT: String(port),
        QUARRY_HOST: '127.0.0.1',
        QUARRY_ALLOW_HOSTS: '127.0.0.1',
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the port is in use');
      expect(run.stderr).not.toContain('admin token');
      expect(existsSync(join(data, 'admin-token'))).toBe(false);
      const status = await quarry(['status', '--json', '--data', data]);
      expect(JSON.parse(status.stdout).crawl.queued).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);

  it('a listen address that does not resolve names QUARRY_HOST, not a raw getaddrinfo error', async () => {
    const run = await quarry(['serve'], { PORT: '0', QUARRY_HOST: 'no-such-host.invalid' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'quarry: cannot listen on no-such-host.invalid: QUARRY_HOST is not an address of this machine',
    );
  }, 120_000);

  it('a listen address that is no address is a configuration error, listed with the others', async () => {
    const run = await quarry(['status'], { QUARRY_HOST: '999.1.1.1', PORT: 'abc' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PORT="abc": expected an integer from 0 to 65535');
    expect(run.stderr).toContain('QUARRY_HOST="999.1.1.1": expected an IP address');
  }, 120_000);

  it('a value of only whitespace is a configuration error, not taken as given', async () => {
    const run = await quarry(['status'], { QUARRY_USER_AGENT: ' ', QUARRY_ADMIN_TOKEN: ' '.repeat(16) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('QUARRY_USER_AGENT=" ": expected a value, not only whitespace');
    expect(run.stderr).toContain('QUARRY_ADMIN_TOKEN=(hidden, 16 characters): expected a value, not only whitespace');
  }, 120_000);

  it('configuration errors name the variable, the value and what is expected', async () => {
    const run = await quarry(['status'], {
      QUARRY_ALLOW_HOSTS: '999.1.1.1/99,not a host!!',
      PORT: 'abc',
      QUARRY_FALLBACK_PROVIDER: 'searxng',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('QUARRY_SEARXNG_URL=(unset): expected a URL when QUARRY_FALLBACK_PROVIDER=searxng');
    expect(run.stderr).toContain('PORT="abc": expected an integer from 0 to 65535');
    expect(run.stderr).toContain('entry "999.1.1.1/99" is not a CIDR range');
    expect(run.stderr).toContain('entry "not a host!!" is not a host name');
  }, 120_000);
});
