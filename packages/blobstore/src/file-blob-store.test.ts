import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type PageDocument, pageIdForUrl, ValidationError } from '@quarry/core';
import { FileBlobStore } from './file-blob-store.js';

function page(url: string, body = 'Some body text.'): PageDocument {
  return {
    id: pageIdForUrl(url),
    url,
    title: `Title of ${url}`,
    body_text: body,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: '2026-01-02T03:04:05Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: new URL(url).hostname,
    word_count: body.split(/\s+/).length,
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('FileBlobStore', () => {
  let dir: string;
  let store: FileBlobStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-blobs-'));
    store = new FileBlobStore({ dir });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips a document in a sharded folder', async () => {
    const doc = page('https://example.com/a', '中文 body with ünïcode');
    await store.put(doc);
    expect(await store.get(doc.id)).toEqual(doc);
    expect(await store.has(doc.id)).toBe(true);
    const files = await listFiles(dir);
    expect(files).toContain(join(dir, doc.id.slice(0, 2), doc.id.slice(2, 4), `${doc.id}.json`));
  });

  it('replaces a document on a second put', async () => {
    const doc = page('https://example.com/replace');
    await store.put(doc);
    await store.put({ ...doc, title: 'New title' });
    expect((await store.get(doc.id))?.title).toBe('New title');
  });

  it('answers null/false for unknown ids and deletes idempotently', async () => {
    const doc = page('https://example.com/gone');
    expect(await store.get(doc.id)).toBeNull();
    expect(await store.has(doc.id)).toBe(false);
    await store.put(doc);
    await store.delete(doc.id);
    await store.delete(doc.id);
    expect(await store.get(doc.id)).toBeNull();
  });

  it('never lets a malformed id reach the filesystem', async () => {
    const outside = join(dir, '..', `quarry-escape-${process.pid}.json`);
    await writeFile(outside, JSON.stringify({ id: 'x' }));
    try {
      for (const id of ['../../etc/passwd', `../quarry-escape-${process.pid}`, '', 'a/b', '%2e%2e', 'a'.repeat(23)]) {
        expect(await store.get(id)).toBeNull();
        expect(await store.has(id)).toBe(false);
        await store.delete(id);
      }
      await expect(store.put({ ...page('https://example.com/x'), id: '../../evil' })).rejects.toBeInstanceOf(
        ValidationError,
      );
    } finally {
      await rm(outside, { force: true });
    }
  });

  it('writes many documents', async () => {
    const docs = Array.from({ length: 50 }, (_, i) => page(`https://many.example.com/${i}`));
    await store.putMany(docs);
    for (const doc of docs) expect(await store.get(doc.id)).toEqual(doc);
    await store.putMany([]);
  });

  it('lists every stored id, skipping temp files and stray names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quarry-blobs-list-'));
    try {
      const own = new FileBlobStore({ dir });
      expect(await collect(own.ids())).toEqual([]);
      const docs = Array.from({ length: 30 }, (_, i) => page(`https://list.example.com/${i}`));
      await own.putMany(docs);
      const first = docs[0]!.id;
      await writeFile(join(dir, first.slice(0, 2), first.slice(2, 4), `.${first}.abc.tmp`), '{}');
      await writeFile(join(dir, first.slice(0, 2), first.slice(2, 4), 'notes.txt'), 'x');
      expect((await collect(own.ids())).sort()).toEqual(docs.map((d) => d.id).sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("removes the temp files a killed writer left, not a live writer's", async () => {
    const own = await mkdtemp(join(tmpdir(), 'quarry-blobs-temp-'));
    try {
      const blobs = new FileBlobStore({ dir: own });
      expect(await blobs.removeStaleTemp()).toBe(0);
      const doc = page('https://temp.example.com/kept');
      await blobs.put(doc);
      const temps = join(own, '.tmp');
      await mkdir(temps, { recursive: true });
      await writeFile(join(temps, 'killed.abc.tmp'), '{"id":');
      await writeFile(join(temps, 'writing.def.tmp'), '{"id":');
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(join(temps, 'killed.abc.tmp'), twoHoursAgo, twoHoursAgo);
      expect(await blobs.removeStaleTemp()).toBe(1);
      expect(await readdir(temps)).toEqual(['writing.def.tmp']);
      // The staging folder is no page folder.
      expect(await collect(blobs.ids())).toEqual([doc.id]);
      expect(await blobs.get(doc.id)).toEqual(doc);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('reports a corrupt blob instead of returning garbage', async () => {
    const doc = page('https://example.com/corrupt');
    await store.put(doc);
    await writeFile(join(dir, doc.id.slice(0, 2), doc.id.slice(2, 4), `${doc.id}.json`), '{"id": "trunc');
    await expect(store.get(doc.id)).rejects.toMatchObject({ code: 'blob_corrupt' });
  });

  it('never leaves a torn file when writers of one id race with readers', async () => {
    const url = 'https://race.example.com/page';
    // Large bodies make a non-atomic write observable as a torn read.
    const versions = Array.from({ length: 12 }, (_, i) => page(url, `${String(i).padStart(3, '0')} `.repeat(50_000)));
    const id = versions[0]!.id;
    const bodies = new Set(versions.map((v) => v.body_text));
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const got = await store.get(id);
        if (got !== null) {
          expect(bodies.has(got.body_text)).toBe(true);
          reads++;
        }
      }
    })();
    await Promise.all(versions.map((v) => store.put(v)));
    writing = false;
    await reader;
    const final = await store.get(id);
    expect(final !== null && bodies.has(final.body_text)).toBe(true);
    expect(reads).toBeGreaterThan(0);
    const leftovers = (await listFiles(dir)).filter((f) => f.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });
});

async function collect(ids: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const id of ids) out.push(id);
  return out;
}
