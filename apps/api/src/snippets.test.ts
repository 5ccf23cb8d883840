import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import request from 'supertest';
import { createApp } from './app.js';
import { createMcpBackend } from './mcp-backend.js';
import { createFixture, type Fixture, page, recording } from './test-support/fixture.js';
import { specProblems } from './test-support/openapi-validator.js';

const SEARCH = '/api/v1/search';

/** About 12,000 characters of prose about lighthouses, none of the words the tests look for. */
const OPENING = Array.from(
  { length: 120 },
  (_, i) => `Paragraph ${i} tells how the keepers trimmed the lamp wicks and logged the passing ships at dusk.`,
).join('\n\n');

const LONG = page('https://long.example.org/lighthouses', {
  title: 'Lighthouse keeping through the ages',
  body_text: `${OPENING}\n\nIn 1822 Augustin Fresnel showed his stepped lens, which made the zeppelin-free coast far safer.\n\nThe end.`,
});
const TITLE_ONLY = page('https://long.example.org/fresnel-title', {
  title: 'Fresnel lenses, a title-only word',
  body_text: OPENING,
});
const MISSING_BLOB = page('https://long.example.org/no-blob', {
  title: 'Another long page',
  body_text: `${OPENING}\n\nA closing note on the Fresnel lens and its maker's stepped design.`,
});
const PHRASE_LATE = page('https://long.example.org/phrase-late', {
  title: 'Optics for keepers',
  body_text: `A lens was stepped up in size each decade.\n\n${OPENING}\n\nHis stepped lens, in glass rings, cut the weight of the lamp.`,
});
const SHORT = page('https://short.example.org/fresnel', {
  title: 'A short page',
  body_text: 'Fresnel designed a stepped lens for lighthouses.',
});

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture([LONG, TITLE_ONLY, MISSING_BLOB, PHRASE_LATE, SHORT]);
  await fx.blobs.delete(MISSING_BLOB.id);
});
afterAll(async () => {
  await fx.cleanup();
});

type Result = { url: string; snippet: string };

async function search(q: string): Promise<Result[]> {
  const res = await request(createApp(fx.deps())).get(SEARCH).query({ q });
  expect(res.status).toBe(200);
  expect(specProblems(res, SEARCH)).toEqual([]);
  return res.body.results as Result[];
}

describe('snippets of long pages', () => {
  it('are cut where the query words are, past the first 8,192 characters the index keeps', async () => {
    expect(OPENING.length).toBeGreaterThan(8192);
    const results = await search('fresnel stepped');
    const long = results.find((r) => r.url === LONG.url);
    expect(long?.snippet).toMatch(/^….*Augustin Fresnel showed his stepped lens/);
    expect(long!.snippet.length).toBeLessThanOrEqual(320);
  });

  it('are cut where the rarer words are when the opening shows only a common one', async () => {
    // Every paragraph of the opening says "keepers": the index's snippet showed that word alone.
    const results = await search('keepers fresnel stepped');
    const long = results.find((r) => r.url === LONG.url);
    expect(long?.snippet).toContain('Augustin Fresnel showed his stepped lens');
  });

  it('are cut where a quoted phrase is whole, not where its words are apart', async () => {
    const results = await search('"stepped lens"');
    const late = results.find((r) => r.url === PHRASE_LATE.url);
    expect(late?.snippet).toContain('His stepped lens, in glass rings');
  });

  it('stay the opening when the body does not hold the words (a title match)', async () => {
    const results = await search('fresnel');
    const titleOnly = results.find((r) => r.url === TITLE_ONLY.url);
    expect(titleOnly?.snippet).toMatch(/^Paragraph 0 tells how the keepers/);
  });

  it('stay the opening when the page text cannot be read from the blob store', async () => {
    const results = await search('fresnel');
    const missing = results.find((r) => r.url === MISSING_BLOB.url);
    expect(missing?.snippet).toMatch(/^Paragraph 0 tells how the keepers/);
  });

  it('of short pages come from the index as they were', async () => {
    const results = await search('fresnel');
    expect(results.find((r) => r.url === SHORT.url)?.snippet).toBe(SHORT.body_text);
  });

  it('are not recut for words matched in the title (intitle:), so no page text is read', async () => {
    let reads = 0;
    const blobs = Object.create(fx.blobs, {
      get: {
        value: (id: string) => {
          reads++;
          return fx.blobs.get(id);
        },
      },
    }) as typeof fx.blobs;
    const res = await request(createApp(fx.deps({}, { blobs })))
      .get(SEARCH)
      .query({ q: 'intitle:lenses' });
    expect(res.body.results.map((r: Result) => r.url)).toEqual([TITLE_ONLY.url]);
    expect(reads).toBe(0);
    // The same word in the body is looked for there.
    await request(createApp(fx.deps({}, { blobs })))
      .get(SEARCH)
      .query({ q: 'augustin' });
    expect(reads).toBe(1);
  });

  it('are made for the page shown only, as the index makes them, though the collapse reads more', async () => {
    const asked: IndexQuery[] = [];
    const index = recording(fx.index, asked);
    const res = await request(createApp(fx.deps({}, { index })))
      .get(SEARCH)
      .query({ q: 'lamp keepers', limit: 2 });
    expect(res.status).toBe(200);
    // A ranking this short is read whole (for the count after the collapse), without snippets, and
    // the counts of its words (for relaxing and spelling) need none either.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.map((query) => query.snippets)).toEqual(asked.map(() => false));
    expect(Math.max(...asked.map((query) => query.limit))).toBeGreaterThan(2);
    const direct = await fx.index.search({ query: parseQuery('lamp keepers'), limit: 10, offset: 0 });
    const snippets = new Map(direct.hits.map((hit) => [hit.url, hit.snippet]));
    expect(res.body.results).toHaveLength(2);
    for (const result of res.body.results as Result[]) {
      expect(result.snippet.length).toBeGreaterThan(0);
      if (result.url !== LONG.url) expect(result.snippet).toBe(snippets.get(result.url));
    }
  });

  it('are made for the page shown only when the words in a row and the AND put pages first', async () => {
    const asked: IndexQuery[] = [];
    const index = recording(fx.index, asked);
    const res = await request(createApp(fx.deps({}, { index })))
      .get(SEARCH)
      .query({ q: 'keepers trimmed the lamp', match: 'any', limit: 3 });
    expect(res.status).toBe(200);
    expect(specProblems(res, SEARCH)).toEqual([]);
    // The optional words, their AND and the words in a row: no search made a snippet.
    const shapes = asked.map((query) => query.query.root?.type);
    expect(shapes).toContain('phrase');
    expect(asked.map((query) => query.snippets)).toEqual(asked.map(() => false));
    // The pages holding the words in a row come first, their snippets as the phrase's search made them.
    const phrase = await fx.index.search({ query: parseQuery('"keepers trimmed the lamp"'), limit: 10, offset: 0 });
    const snippets = new Map(phrase.hits.map((hit) => [hit.url, hit.snippet]));
    const results = res.body.results as Result[];
    expect(results).toHaveLength(3);
    for (const result of results) {
      expect(snippets.has(result.url)).toBe(true);
      if (result.url !== LONG.url) expect(result.snippet).toBe(snippets.get(result.url));
    }
  });

  it('are placed the same way for MCP searches', async () => {
    const backend = createMcpBackend(fx.deps());
    const response = await backend.search({ q: 'augustin', limit: 10, offset: 0, match: 'any' });
    expect(response.results.map((r) => r.url)).toEqual([LONG.url]);
    expect(response.results[0]!.snippet).toContain('Augustin Fresnel');
  });
});
