import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requireBuiltCli, spawnCli } from './testing/run-cli.js';

const TOKEN = 'serve-modules-admin-token-0123456789abcdef';

/**
 * The packages a process on the embedded default never needs: the Redis client and BullMQ (the
 * queues are SQLite), Bull Board (the admin's queue page is a note), and the crawler's extraction
 * (Mozilla Readability; `crawl_site` only queues, and loads the crawler when first called). Each
 * is a CommonJS package or loads one, so it shows in `require.cache` once loaded.
 */
const NOT_LOADED = ['ioredis', '@bull-board/api', '@mozilla/readability'];

describe('quarry serve on the embedded default starts without the distributed and crawling packages', () => {
  let dir: string;

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-serve-modules-'));
    // Preloaded into the process: the CommonJS modules it loaded, written when it exits.
    writeFileSync(
      join(dir, 'record.cjs'),
      `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(Object.keys(require.cache))));\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers searches and the admin pages with none of them loaded', async () => {
    const out = join(dir, 'modules.json');
    const served = spawnCli(['serve'], {
      QUARRY_DATA_DIR: join(dir, 'data'),
      PORT: '0',
      QUARRY_ADMIN_TOKEN: TOKEN,
      LOG_LEVEL: 'silent',
      NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}`,
      MODULES_OUT: out,
    });
    try {
      const url = await served.listening();
      expect((await fetch(`${url}/api/v1/search?q=heron`)).status).toBe(200);
      const auth = { authorization: `Bearer ${TOKEN}` };
      const queues = await fetch(`${url}/admin/queues`, { headers: auth });
      expect(queues.status).toBe(200);
      expect(await queues.text()).toContain('there is no Bull Board here');
      expect((await fetch(`${url}/admin/api/stats`, { headers: auth })).status).toBe(200);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    const loaded: string[] = JSON.parse(readFileSync(out, 'utf8'));
    // The recording works: the process did load CommonJS packages (Express is one).
    expect(loaded.some((path) => path.includes('/node_modules/express/'))).toBe(true);
    for (const name of NOT_LOADED) {
      expect(loaded.filter((path) => path.includes(`/node_modules/${name}/`))).toEqual([]);
    }
  }, 120_000);
});
