import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { ConfigError } from '@quarry/core';
import { LanceSearchIndex } from './lance-index.js';

describe('an index written by an earlier release', () => {
  it.each([
    // Title, body and site name searched as three columns.
    ['t_text', { id: 'a', t_title: 'x', t_body: 'y', t_site: '' }],
    // A hit's fields stored as a column each.
    ['hit', { id: 'a', url: 'https://a.example/', title: 'A', snippet_src: 'y', t_title: 'x', t_text: 'y' }],
  ])('lacking %s is refused with the command that rebuilds it, and left as it was', async (column, row) => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-layout-'));
    try {
      const db = await lancedb.connect(dir);
      const old = await db.createTable('pages', [row]);
      old.close();
      const opened = LanceSearchIndex.open({ path: dir, autoMaintain: false });
      await expect(opened).rejects.toBeInstanceOf(ConfigError);
      await expect(opened).rejects.toThrow(new RegExp(`\\b${column}\\b.*quarry reindex`));
      const table = await db.openTable('pages');
      expect(await table.countRows()).toBe(1);
      table.close();
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
