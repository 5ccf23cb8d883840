import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { pageIdForUrl } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { parseImportLine } from './import-line.js';
import { importJsonl } from './importer.js';

const helpers = { countWords: (t: string) => t.split(/\s+/).filter(Boolean).length, detectLang: () => 'en' };
const now = new Date('2026-11-22T08:00:00Z');

describe('parseImportLine', () => {
  it('fills defaults from DESIGN.md: filetype from the extension, crawled_at now, id from the URL', () => {
    const r = parseImportLine(
      JSON.stringify({ url: 'https://Example.com/r.PDF#x', title: ' T ', body_text: 'one two three' }),
      { ...helpers, now },
    );
    expect(r).toEqual({
      ok: true,
      doc: expect.objectContaining({
        id: pageIdForUrl('https://example.com/r.PDF'),
        url: 'https://example.com/r.PDF',
        title: 'T',
        filetype: 'pdf',
        crawled_at: '2026-11-22T08:00:00Z',
        domain: 'example.com',
        lang: 'en',
        word_count: 3,
        has_llms_txt: false,
        published_at: null,
        site_name: null,
        // The crawler's near-copy fingerprint, so imported near-copies collapse in results too.
        simhash: expect.stringMatching(/^[0-9a-f]{16}$/),
      }),
    });
  });

  it.each([
    ['not json', 'invalid JSON'],
    ['[1,2]', 'JSON object'],
    ['{"title":"t","body_text":"b"}', 'url: is required'],
    ['{"url":"https://a.org/","title":"t","body_text":""}', 'body_text'],
    ['{"url":"ftp://a.org/","title":"t","body_text":"b"}', 'http(s)'],
    ['{"url":"https://a.org/","title":"t","body_text":"b","lang":"english!"}', 'lang'],
    ['{"url":"https://a.org/","title":"t","body_text":"b","published_at":"yesterday"}', 'published_at'],
    ['{"url":"https://a.org/","title":"t","body_text":"b","filetype":"exe"}', 'filetype'],
    ['{"url":"https://a.org/","title":5,"body_text":"b"}', 'title: must be a string'],
  ])('rejects %s with a reason', (line, reason) => {
    const r = parseImportLine(line, helpers);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toContain(reason);
  });
});

describe('importJsonl', () => {
  let dir: string;
  let index: LanceSearchIndex;
  let blobs: FileBlobStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-import-'));
    index = await LanceSearchIndex.open({ path: join(dir, 'index'), autoMaintain: false });
    blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
  });
  afterEach(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports good lines, reports bad ones by line number, and replaces documents by URL', async () => {
    const file = join(dir, 'docs.jsonl');
    writeFileSync(
      file,
      [
        '\uFEFF{"url":"https://a.org/1","title":"First","body_text":"zeppelin airship"}',
        '{"url":"https://a.org/2","title":"Second","body_text":"dirigible"}',
        '',
        '{"oops": true}',
        '{"url":"https://a.org/1","title":"First again","body_text":"zeppelin hangar"}',
      ].join('\n'),
    );
    const bad: [number, string][] = [];
    const summary = await importJsonl(file, { index, blobs, ...helpers, onBadLine: (n, r) => bad.push([n, r]) });
    expect(summary).toMatchObject({ imported: 3, failed: 1, lines: 5 });
    expect(bad).toEqual([[4, expect.stringContaining('url: is required')]]);
    expect(await index.count()).toBe(2);
    const stored = await blobs.get(pageIdForUrl('https://a.org/1'));
    expect(stored?.title).toBe('First again');
    const res = await index.search({ query: parseQuery('hangar'), limit: 10, offset: 0 });
    expect(res.hits.map((h) => h.url)).toEqual(['https://a.org/1']);
    // Importing the same file again changes nothing.
    await importJsonl(file, { index, blobs, ...helpers });
    expect(await index.count()).toBe(2);
  });
});
