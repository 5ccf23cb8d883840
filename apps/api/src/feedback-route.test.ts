import { describe, expect, it } from '@jest/globals';
import type { BlobStore, IndexQuery, SearchIndex } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import request from 'supertest';
import { createApp } from './app.js';
import { FEEDBACK_DEPTH } from './feedback.js';
import { page, recording } from './test-support/fixture.js';
import { servedDocs } from './test-support/served.js';

/**
 * A question's pages re-ranked by the words its best pages share (feedback.ts), over HTTP on the
 * embedded index: a page on the question's topic in other words comes above one that repeats one
 * of its words on another topic.
 */
describe('a question re-ranked by the words its best pages share', () => {
  const QUESTION = 'how are aeroelastic models of aircraft built';
  const topic = [
    'Aeroelastic models of aircraft wings are tested for flutter in the wind tunnel; their stiffness and damping are scaled.',
    'Building aeroelastic models: flutter, divergence and stiffness of the wing, tested in a wind tunnel.',
    'Aircraft flutter: aeroelastic wind tunnel models reproduce the wing stiffness, the damping and the mass.',
    'Flutter testing of aeroelastic aircraft models in the wind tunnel: wing stiffness and damping measured.',
  ].map((body_text, i) => page(`https://aero.example.org/${i}`, { title: `Aeroelastic testing ${i}`, body_text }));
  // On the topic, in its own words: of the question's, `aircraft` only.
  const onTopic = page('https://aero.example.org/swept-wing', {
    title: 'Swept wing flutter',
    body_text: 'Flutter of a swept aircraft wing: stiffness, damping and divergence measured in the wind tunnel.',
  });
  // Another topic, repeating the question's `models`.
  const offTopic = page('https://fashion.example.com/models', {
    title: 'Models',
    body_text: 'Models, models and more models: fashion models on the runway, models in magazines.',
  });
  const others = [
    'A stone house built by hand in the valley.',
    'Bridges built of timber over the northern river.',
    'The harbour wall was built after the great storm.',
    'Violins built in Cremona sound warm and bright.',
    'Roads built by the legions still cross the plain.',
    'A garden shed built from pallets in a weekend.',
  ].map((body_text, i) => page(`https://misc.example.net/${i}`, { title: `Built ${i}`, body_text }));
  const served = servedDocs([...topic, onTopic, offTopic, ...others]);
  const urls = (query: string) => served.urls(query);
  const q = `q=${encodeURIComponent(QUESTION)}`;

  it('ranks a page on the topic of the best pages above one repeating a question word', async () => {
    // The index alone ranks the page about fashion models higher.
    const found = await served.fx.index.search({ query: parseQuery(QUESTION), match: 'any', limit: 20, offset: 0 });
    const indexed = found.hits.map((hit) => hit.url);
    expect(indexed.indexOf(offTopic.url)).toBeLessThan(indexed.indexOf(onTopic.url));
    for (const asked of [`${q}&limit=20`, `${q}&match=any&limit=20`]) {
      const ranked = await urls(asked);
      expect(ranked.indexOf(onTopic.url)).toBeLessThan(ranked.indexOf(offTopic.url));
      // The same pages: only their order changed.
      expect([...ranked].sort()).toEqual([...indexed].sort());
    }
  });

  it('gives every result once however a client pages through them, scores falling', async () => {
    const res = await request(served.app).get(`/api/v1/search?${q}&limit=20`);
    const all = res.body.results.map((r: { url: string }) => r.url);
    const scores = res.body.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    const pages = await Promise.all([0, 3, 6, 9].map((offset) => urls(`${q}&limit=3&offset=${offset}`)));
    expect(pages.flat()).toEqual(all);
  });

  it('reads the pages from their hits, or from the page store when the index gives no opening', async () => {
    const read: string[] = [];
    const store = served.fx.blobs;
    const blobs: BlobStore = {
      put: (doc) => store.put(doc),
      putMany: (docs) => store.putMany(docs),
      has: (id) => store.has(id),
      delete: (id) => store.delete(id),
      get: (id) => {
        read.push(id);
        return store.get(id);
      },
    };
    const asked: IndexQuery[] = [];
    const embedded = createApp(
      served.fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { blobs, index: recording(served.fx.index, asked) }),
    );
    const first = await request(embedded).get(`/api/v1/search?${q}&match=any&limit=20`);
    expect(read).toEqual([]);
    // The page and the results re-ranked in one optional-words search (a few more, for near-copies).
    const optional = asked.filter((query) => query.match === 'any');
    expect(optional).toHaveLength(1);
    expect(optional[0]?.offset).toBe(0);
    expect(optional[0]?.limit).toBeGreaterThanOrEqual(FEEDBACK_DEPTH);
    // A backend whose hits carry no opening (Meilisearch's, which makes every snippet): each page
    // is read from the store.
    const bare: SearchIndex = {
      ...recording(served.fx.index, []),
      search: async (query) => {
        const found = await served.fx.index.search({ ...query, snippets: true });
        return { ...found, hits: found.hits.map(({ opening: _opening, ...hit }) => hit) };
      },
    };
    const storeRead = createApp(served.fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { blobs, index: bare }));
    const second = await request(storeRead).get(`/api/v1/search?${q}&match=any&limit=20`);
    expect(new Set(read)).toEqual(new Set(second.body.results.map((r: { id: string }) => r.id)));
    expect(second.body.results).toEqual(first.body.results);
  });

  it('makes the snippets of the page it shows only, as the index makes them', async () => {
    const asked: IndexQuery[] = [];
    const app = createApp(
      served.fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { index: recording(served.fx.index, asked) }),
    );
    // The index's own snippets of each page for a query.
    const snippets = async (text: string) => {
      const found = await served.fx.index.search({ query: parseQuery(text), match: 'any', limit: 20, offset: 0 });
      return new Map(found.hits.map((hit) => [hit.url, hit.snippet]));
    };
    const shown = async (query: string) => {
      const res = await request(app).get(`/api/v1/search?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.results.length).toBeGreaterThan(0);
      for (const result of res.body.results) expect(Object.keys(result)).not.toContain('snippetTerms');
      return res.body.results as { url: string; snippet: string }[];
    };
    // A question: its first results asked without snippets, the page shown with the index's.
    const question = await snippets(QUESTION);
    for (const result of await shown(`${q}&match=any&limit=3`)) expect(result.snippet).toBe(question.get(result.url));
    expect(asked.filter((query) => query.limit >= FEEDBACK_DEPTH).map((query) => query.snippets)).toEqual([false]);
    // A page past the first of a list read from its start (the pages holding every word first).
    asked.length = 0;
    const words = await snippets('wind tunnel');
    for (const result of await shown('q=wind+tunnel&match=any&limit=2&offset=2')) {
      expect(result.snippet).toBe(words.get(result.url));
    }
    expect(asked.some((query) => query.offset === 0 && query.limit >= 4 && query.snippets === false)).toBe(true);
  });

  it('leaves a query of fewer than three words as the index ranks it', async () => {
    // No page holds both words, so none is put first for holding them all.
    const short = 'runway stiffness';
    const found = await served.fx.index.search({ query: parseQuery(short), match: 'any', limit: 20, offset: 0 });
    expect(await urls(`q=${encodeURIComponent(short)}&match=any`)).toEqual(found.hits.map((hit) => hit.url));
  });
});
