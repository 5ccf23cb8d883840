import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { createMcpBackend } from './mcp-backend.js';
import { correctionsOf, MAX_CORRECTED_LENGTH, slipWeight, variantsOf } from './spelling.js';
import { createFixture, type Fixture, page } from './test-support/fixture.js';

describe('variantsOf', () => {
  it('spells a word every way one letter away: one left out, added, changed, or two swapped', () => {
    const variants = variantsOf('travle');
    for (const spelling of ['trave', 'travles', 'travel', 'trable', 'rtavle', 'atravle']) {
      expect(variants.has(spelling)).toBe(true);
    }
    expect(variants.has('travle')).toBe(false);
    // Two letters away is not one.
    expect(variants.has('travels')).toBe(false);
    expect(variants.has('trvael')).toBe(false);
  });
});

describe('slipWeight', () => {
  it('weighs the commonest slips, two letters swapped or a letter doubled or left single, above the others', () => {
    expect(slipWeight('realy', 'really')).toBe(1);
    expect(slipWeight('accomodation', 'accommodation')).toBe(1);
    expect(slipWeight('langauge', 'language')).toBe(1);
    expect(slipWeight('bookk', 'book')).toBe(1);
    expect(slipWeight('realy', 'ready')).toBe(0.5);
    expect(slipWeight('realy', 'real')).toBe(0.5);
    expect(slipWeight('camra', 'camera')).toBe(0.5);
  });
});

describe('spelling', () => {
  const insurance = (i: number) =>
    page(`https://insure.example.com/${i}`, {
      title: `Travel insurance plan ${i}`,
      body_text: `Travel insurance covers a trip cancelled at short notice. Plan ${i} costs little.`,
    });
  const houses = (i: number) =>
    page(`https://homes.example.org/${i}`, {
      title: `A house for sale ${i}`,
      body_text: `This house has a garden and three rooms, house number ${i}.`,
    });
  const docs = [
    ...Array.from({ length: 3 }, (_, i) => insurance(i)),
    ...Array.from({ length: 6 }, (_, i) => houses(i)),
    // One page holds `haute`, one letter from `hause` as `house` is: fewer pages hold it.
    page('https://food.example.net/haute', {
      title: 'Haute cuisine',
      body_text: 'Haute cuisine at home, haute and simple.',
    }),
    page('https://shop.example.net/kit', { title: 'Sewing kit', body_text: 'A sewing kit for the trip.' }),
    // `catring` is one letter from both: more pages hold `caring`, the one with `trends` holds `catering`.
    ...Array.from({ length: 4 }, (_, i) =>
      page(`https://pets.example.org/${i}`, { title: `Caring for a cat ${i}`, body_text: 'Caring for a cat.' }),
    ),
    // A word longer than any corrected: its slip is left as typed.
    page('https://lungs.example.org/1', {
      title: 'Pneumonoultramicroscopicsilicovolcanoconiosis',
      body_text: 'Pneumonoultramicroscopicsilicovolcanoconiosis is a lung disease.',
    }),
    page('https://lungs.example.org/2', {
      title: 'Lung disease',
      body_text: 'Pneumonoultramicroscopicsilicovolcanoconiosis comes from fine ash.',
    }),
    ...['trends', 'menus'].map((path) =>
      page(`https://events.example.org/${path}`, {
        title: `Catering ${path}`,
        body_text: `Wedding catering ${path}: small plates and local food.`,
      }),
    ),
  ];
  let fx: Fixture;
  let app: Express;
  beforeAll(async () => {
    fx = await createFixture(docs);
    // Spellings are looked for among the pages the engine's indexes hold: fold them in.
    await fx.index.flush?.();
    app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }));
  });
  afterAll(async () => {
    await fx.cleanup();
  });
  const search = async (q: string, extra = '') => {
    const res = await request(app).get(`/api/v1/search?q=${encodeURIComponent(q)}${extra}`);
    expect(res.status).toBe(200);
    return res;
  };
  const urls = (res: request.Response) => (res.body.results as { url: string }[]).map((r) => r.url);

  it('searches a word no page holds as the spelling one letter away that pages hold, and says so', async () => {
    const res = await search('travle insurance');
    expect(res.headers['quarry-corrected-words']).toBe('travle=travel');
    expect(res.body.total).toBe(3);
    expect(urls(res).sort()).toEqual(docs.slice(0, 3).map((d) => d.url));
  });

  it('takes the spelling most pages hold, not the first one found', async () => {
    const held = await fx.index.heldSpellings?.([...variantsOf('hause')]);
    expect(held?.sort()).toEqual(['haute', 'house']);
    expect(await correctionsOf(fx.index, parseQuery('hause'))).toEqual([{ typed: 'hause', corrected: 'house' }]);
    const res = await search('hause garden');
    expect(res.headers['quarry-corrected-words']).toBe('hause=house');
    expect(res.body.total).toBe(6);
  });

  it("takes the spelling the query's other words are found with", async () => {
    expect(await correctionsOf(fx.index, parseQuery('catring'))).toEqual([{ typed: 'catring', corrected: 'caring' }]);
    const res = await search('catring trends');
    expect(res.headers['quarry-corrected-words']).toBe('catring=catering');
    expect(urls(res)).toEqual(['https://events.example.org/trends']);
  });

  it('keeps what surrounds the word: a question keeps its question mark', async () => {
    const res = await search('what does travle insurance cost?');
    expect(res.headers['quarry-corrected-words']).toBe('travle=travel');
    expect(urls(res)[0]).toMatch(/^https:\/\/insure\.example\.com\//);
    const mcp = await createMcpBackend(fx.deps()).search({
      q: 'what does travle insurance cost?',
      limit: 10,
      offset: 0,
      match: 'any',
    });
    expect(mcp.corrected_query).toBe('what does travel insurance cost?');
  });

  it('pages through the corrected search as through any other', async () => {
    const all = urls(await search('travle insurance', '&limit=3'));
    const paged = [];
    for (let offset = 0; offset < 3; offset++)
      paged.push(...urls(await search('travle insurance', `&limit=1&offset=${offset}`)));
    expect(paged).toEqual(all);
  });

  it.each([
    ['a word in quotes, searched as typed', '"travle" insurance'],
    ['a word shorter than five letters', 'hose garden'],
    ['a word with digits', 'travle2 insurance'],
    ['a word no spelling one letter away is held for', 'qwertyuiop insurance'],
    ['an excluded word', 'insurance -travle trip'],
    // Typed with a letter beyond a-z (`Straße` was searched as the English `stresse`): another
    // language's word, which the a-z spellings one letter away do not correct.
    ['a word typed with an accent', 'trävle insurance'],
    ['a word typed with a letter beyond a-z', 'travleß insurance'],
  ])('leaves %s alone', async (_, q) => {
    const res = await search(q);
    expect(res.headers['quarry-corrected-words']).toBeUndefined();
    if (!q.includes('-travle')) expect(res.body.total).toBe(0);
  });

  it('corrects nothing to a spelling no page holds with the other words: the word may be a word', async () => {
    // `house` is held, and `insurance`, never together: `hause` may be a word these pages lack.
    const res = await search('the hause insurance plan');
    expect(res.headers['quarry-corrected-words']).toBeUndefined();
    // Searched as typed, its words optional (it reads as a sentence): the insurance plans.
    expect(res.headers['quarry-match']).toBe('any');
    expect(urls(res)[0]).toMatch(/^https:\/\/insure\.example\.com\//);
    // As keywords, an AND that finds nothing, as the spec says, and still no correction.
    const keywords = await search('hause insurance plan');
    expect(keywords.headers['quarry-corrected-words']).toBeUndefined();
    expect(keywords.body.total).toBe(0);
  });

  it('leaves a word longer than MAX_CORRECTED_LENGTH as typed, without spelling it every way', async () => {
    const held = jest.spyOn(fx.index, 'heldSpellings');
    try {
      const typo = 'pneumonoultramicroscopicsilicovolcanoconiosus';
      expect(typo.length).toBeGreaterThan(MAX_CORRECTED_LENGTH);
      const res = await search(`${typo} disease`);
      expect(res.headers['quarry-corrected-words']).toBeUndefined();
      // A shorter slip of the same query is corrected: the pages are there.
      expect((await search('lung diseese')).headers['quarry-corrected-words']).toBe('diseese=disease');
      const asked = held.mock.calls.flatMap(([words]) => words);
      expect(asked).toContain('disease');
      expect(asked.filter((word) => word.length > MAX_CORRECTED_LENGTH + 1)).toEqual([]);
    } finally {
      held.mockRestore();
    }
  });

  it('corrects nothing when every word is held', async () => {
    const res = await search('sewing trip');
    expect(res.headers['quarry-corrected-words']).toBeUndefined();
    expect(urls(res)).toEqual(['https://shop.example.net/kit']);
  });

  it('tells an agent over MCP what it searched', async () => {
    const mcp = createMcpBackend(fx.deps());
    const found = await mcp.search({ q: 'travle insurance', limit: 10, offset: 0, match: 'any' });
    expect(found.corrected_query).toBe('travel insurance');
    expect(found.results[0]?.url).toMatch(/^https:\/\/insure\.example\.com\//);
    const asTyped = await mcp.search({ q: 'sewing kit', limit: 10, offset: 0, match: 'any' });
    expect(asTyped.corrected_query).toBeUndefined();
  });
});
