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
import { IMPORT_HELPERS, pooledLineParser } from './line-parser.js';

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

  it('writes the title, author and site name on one line', () => {
    const r = parseImportLine(
      JSON.stringify({
        url: 'https://a.org/',
        title: ' Line one\n\nLine\t two ',
        author: 'Ada\nLovelace',
        site_name: '\tThe  Site\r\n',
        body_text: 'b\n\nc',
      }),
      { ...helpers, now },
    );
    expect(r).toMatchObject({
      ok: true,
      doc: { title: 'Line one Line two', author: 'Ada Lovelace', site_name: 'The Site', body_text: 'b\n\nc' },
    });
  });

  it('drops control characters from the text and names, and refuses a text of nothing else', () => {
    const r = parseImportLine(
      JSON.stringify({
        url: 'https://a.org/',
        title: 'Okapi \u0000 control \u0007 chars',
        author: 'Ada\u001bLovelace',
        body_text: 'one\u0000 two\u0008\n\tthree\u007f',
      }),
      { ...helpers, now },
    );
    expect(r).toMatchObject({
      ok: true,
      doc: { title: 'Okapi control chars', author: 'AdaLovelace', body_text: 'one two\n\tthree', word_count: 3 },
    });
    const empty = parseImportLine(JSON.stringify({ url: 'https://a.org/', title: 't', body_text: '\u0000\u0007 ' }), {
      ...helpers,
      now,
    });
    expect(empty).toEqual({ ok: false, reason: 'body_text: holds no text, only blanks or control characters' });
  });

  it("takes any real date a user gives: an archive's old paper, an event ahead, epoch seconds", () => {
    const dates = (fields: Record<string, unknown>) => {
      const r = parseImportLine(JSON.stringify({ url: 'https://a.org/', title: 't', body_text: 'b', ...fields }), {
        ...helpers,
        now,
      });
      return r.ok ? { published_at: r.doc.published_at, crawled_at: r.doc.crawled_at } : r.reason;
    };
    expect(dates({ published_at: '1969-07-20T20:17:00Z' })).toMatchObject({ published_at: '1969-07-20T20:17:00Z' });
    expect(dates({ published_at: '1985-06-01' })).toMatchObject({ published_at: '1985-06-01T00:00:00Z' });
    expect(dates({ published_at: '2030-01-01' })).toMatchObject({ published_at: '2030-01-01T00:00:00Z' });
    expect(dates({ published_at: 1_700_000_000 })).toMatchObject({ published_at: '2023-11-14T22:13:20Z' });
    expect(dates({ crawled_at: '1999-12-31T23:59:59Z' })).toMatchObject({ crawled_at: '1999-12-31T23:59:59Z' });
    // A day that does not exist is no date (Date would roll it over into March); a page was not
    // fetched in the future.
    expect(dates({ published_at: '2020-02-30' })).toBe('published_at: not a valid date: 2020-02-30');
    expect(dates({ crawled_at: '2030-01-01T00:00:00Z' })).toBe(
      'crawled_at: 2030-01-01T00:00:00Z is later than a day from now (2026-11-23T08:00:00Z)',
    );
    // Epoch seconds and other forms are shown as read, in ISO 8601 (it once printed the bare number).
    expect(dates({ crawled_at: 1_896_654_238.07 })).toBe(
      'crawled_at: 1896654238.07 (2030-02-07T00:23:58Z) is later than a day from now (2026-11-23T08:00:00Z)',
    );
    expect(dates({ crawled_at: '2030-01-01T00:00:00+02:00' })).toBe(
      'crawled_at: 2030-01-01T00:00:00+02:00 (2029-12-31T22:00:00Z) is later than a day from now (2026-11-23T08:00:00Z)',
    );
    // Within the day's grace for clocks and zones it is taken; past it, the reason names the limit.
    expect(dates({ crawled_at: '2026-11-22T20:00:00Z' })).toMatchObject({ crawled_at: '2026-11-22T20:00:00Z' });
    expect(dates({ crawled_at: '2026-11-23T08:00:00Z' })).toMatchObject({ crawled_at: '2026-11-23T08:00:00Z' });
    expect(dates({ crawled_at: '2026-11-23T09:00:00Z' })).toBe(
      'crawled_at: 2026-11-23T09:00:00Z is later than a day from now (2026-11-23T08:00:00Z)',
    );
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

  // The audit's case: a 5.2-million-character body_text was reported as "must be a string".
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ url: 'https://a.org/', title: 't', body_text: 'b', ...fields });
  it.each([
    ['body_text: longer than 5,000,000 characters (5,200,000)', { body_text: 'x'.repeat(5_200_000) }],
    ['url: longer than 2,048 characters (2,114)', { url: `https://a.org/${'x'.repeat(2100)}` }],
    ['title: longer than 2,000 characters (2,001)', { title: 'x'.repeat(2001) }],
    ['author: longer than 500 characters (501)', { author: 'x'.repeat(501) }],
    ['site_name: longer than 500 characters (600)', { site_name: 'x'.repeat(600) }],
    ['body_text: must not be empty', { body_text: '' }],
    ['lang: must be a string', { lang: 5 }],
    ['author: must be a string', { author: ['x'] }],
    ['filetype: must be a string', { filetype: 3 }],
    ['published_at: must be a date (a string or a number)', { published_at: true }],
    ['crawled_at: must be a date (a string or a number)', { crawled_at: {} }],
    ['has_llms_txt: must be true or false', { has_llms_txt: 'yes' }],
  ])('names the true reason for a field out of bounds or of the wrong type: %s', (reason, fields) => {
    expect(parseImportLine(line(fields), helpers)).toEqual({ ok: false, reason });
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

  it('reports progress as lines are parsed, before the first batch is written', async () => {
    const file = join(dir, 'progress.jsonl');
    // 1,000 lines in chunks of 256: four parsed chunks, one batch written at the end.
    const text = Array.from({ length: 1000 }, (_, i) =>
      JSON.stringify({ url: `https://a.org/${i}`, title: `Line ${i}`, body_text: `word${i} text` }),
    ).join('\n');
    writeFileSync(file, text);
    const seen: { bytesRead: number; imported: number }[] = [];
    await importJsonl(file, {
      index,
      blobs,
      ...helpers,
      onProgress: ({ bytesRead, imported }) => seen.push({ bytesRead, imported }),
    });
    const beforeWrite = seen.filter((p) => p.imported === 0).map((p) => p.bytesRead);
    expect(beforeWrite.length).toBeGreaterThanOrEqual(3);
    expect(beforeWrite).toEqual([...beforeWrite].sort((a, b) => a - b));
    expect(beforeWrite[0]).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ bytesRead: Buffer.byteLength(text), imported: 1000 });
  });

  it('stops when its signal is aborted: what was written is counted and kept, the summary says interrupted', async () => {
    const file = join(dir, 'stop.jsonl');
    const text = Array.from({ length: 1000 }, (_, i) =>
      JSON.stringify({ url: `https://a.org/${i}`, title: `Line ${i}`, body_text: `word${i} text` }),
    ).join('\n');
    writeFileSync(file, text);
    const stop = new AbortController();
    const summary = await importJsonl(file, {
      index,
      blobs,
      ...helpers,
      batchSize: 100,
      signal: stop.signal,
      onProgress: ({ imported }) => {
        if (imported >= 200) stop.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    expect(summary.imported).toBeGreaterThanOrEqual(200);
    expect(summary.imported).toBeLessThan(1000);
    expect(await index.count()).toBe(summary.imported);
    const whole = await importJsonl(file, { index, blobs, ...helpers });
    expect(whole).toMatchObject({ imported: 1000, interrupted: false });
    expect(await index.count()).toBe(1000);
  });

  it('imports the same with the lines parsed on worker threads: bad lines in order, the last line for a URL winning', async () => {
    const file = join(dir, 'many.jsonl');
    // 1,200 lines (several parse chunks and index batches): every 7th bad, URLs repeated 400 lines on.
    const text = Array.from({ length: 1200 }, (_, i) =>
      i % 7 === 3
        ? `{"url": "https://bad.org/${i}"}`
        : JSON.stringify({ url: `https://a.org/${i % 400}`, title: `Line ${i}`, body_text: `word${i} text` }),
    ).join('\n');
    writeFileSync(file, text);
    const run = async (pooled: boolean) => {
      const at = mkdtempSync(join(dir, 'run-'));
      const own = await LanceSearchIndex.open({ path: join(at, 'index'), autoMaintain: false });
      const ownBlobs = new FileBlobStore({ dir: join(at, 'blobs') });
      const parser = pooled ? pooledLineParser(1) : undefined;
      const bad: number[] = [];
      try {
        const summary = await importJsonl(file, {
          index: own,
          blobs: ownBlobs,
          ...IMPORT_HELPERS,
          batchSize: 250,
          ...(parser ? { parser } : {}),
          onBadLine: (n) => bad.push(n),
        });
        const titles = await Promise.all(
          [0, 1, 399].map(async (i) => (await ownBlobs.get(pageIdForUrl(`https://a.org/${i}`)))?.title),
        );
        return { summary: { ...summary, elapsedMs: 0 }, bad, count: await own.count(), titles };
      } finally {
        await parser?.close();
        await own.close();
      }
    };
    const pooled = await run(true);
    expect(pooled).toEqual(await run(false));
    expect(pooled.bad).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1).filter((n) => (n - 1) % 7 === 3));
    expect(pooled.count).toBe(400);
    // The last good line for each URL: a.org/1's at index 801 is bad, so the one at 401 wins.
    expect(pooled.titles).toEqual(['Line 800', 'Line 401', 'Line 1199']);
  });
});
