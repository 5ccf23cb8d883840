import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requireBuiltCli, spawnCli } from './testing/run-cli.js';

const TOKEN = 'serve-modules-admin-token-0123456789abcdef';
/** The Redis client and BullMQ (which loads it) and Bull Board: the embedded queues are SQLite. */
const DISTRIBUTED = ['ioredis', '@bull-board/api'];
/** The crawler's extraction: `crawl_site` only queues, and loads the crawler at its first call. */
const CRAWLING = ['@mozilla/readability'];

describe('the embedded default starts without the distributed packages, and quarry serve without the crawler', () => {
  let dir: string;

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-serve-modules-'));
    // Preloaded into the process: the CommonJS modules it loaded (each package above is one or
    // loads one), written when it exits.
    writeFileSync(
      join(dir, 'record.cjs'),
      `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(Object.keys(require.cache))));\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `quarry COMMAND` with an admin token, asks a search and the admin pages, stops it: what it loaded. */
  async function loadedBy(command: 'serve' | 'start'): Promise<string[]> {
    const out = join(dir, `${command}-modules.json`);
    const running = spawnCli([command], {
      QUARRY_DATA_DIR: join(dir, command),
      PORT: '0',
      QUARRY_ADMIN_TOKEN: TOKEN,
      LOG_LEVEL: 'silent',
      NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}`,
      MODULES_OUT: out,
    });
    try {
      const url = await running.listening();
      expect((await fetch(`${url}/api/v1/search?q=heron`)).status).toBe(200);
      const auth = { authorization: `Bearer ${TOKEN}` };
      const queues = await fetch(`${url}/admin/queues`, { headers: auth });
      expect(queues.status).toBe(200);
      expect(await queues.text()).toContain('there is no Bull Board here');
      expect((await fetch(`${url}/admin/api/stats`, { headers: auth })).status).toBe(200);
    } finally {
      expect(await running.stop()).toBe(0);
    }
    const loaded: string[] = JSON.parse(readFileSync(out, 'utf8'));
    // The recording works: the process did load CommonJS packages (Express is one).
    expect(loaded.some((path) => path.includes('/node_modules/express/'))).toBe(true);
    return loaded;
  }

  const packagesIn = (loaded: string[], names: string[]) =>
    names.filter((name) => loaded.some((path) => path.includes(`/node_modules/${name}/`)));

  it('quarry serve answers searches and the admin pages with none of them loaded', async () => {
    expect(packagesIn(await loadedBy('serve'), [...DISTRIBUTED, ...CRAWLING])).toEqual([]);
  }, 120_000);

  it('quarry start runs its crawler without the Redis client, BullMQ or Bull Board', async () => {
    const loaded = await loadedBy('start');
    expect(packagesIn(loaded, DISTRIBUTED)).toEqual([]);
    // Its crawler is loaded, as it should be.
    expect(packagesIn(loaded, CRAWLING)).toEqual(CRAWLING);
  }, 120_000);
});
