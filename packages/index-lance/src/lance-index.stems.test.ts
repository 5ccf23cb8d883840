import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery, PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/**
 * Pages in Russian, German, French and Spanish are indexed by their language's stems (Snowball), and
 * a query, whose language is not known, is asked in each language's stems of its words, of that
 * language's pages: a page is found by other forms of its words. Before, only English was stemmed,
 * and `метро москва` found no page saying "Метро Москвы".
 */
const page = (id: string, lang: string, title: string, body: string): PageDocument =>
  makePage(id, `https://${lang}.example.org/${id}`, title, body, { lang });

const PAGES: PageDocument[] = [
  page(
    'ru-metro',
    'ru',
    'Метро Москвы',
    'Московский метрополитен перевозит пассажиров каждый день. Станции метро в Москве открыты с шести утра, ' +
      'а новая станция в Черёмушках принимает первых пассажиров с весны.',
  ),
  page(
    'ru-weather',
    'ru',
    'Погода в Петербурге',
    'В Петербурге снова идут дожди, и жители города ждут солнечных дней.',
  ),
  page(
    'de-grid',
    'de',
    'Ausbau der Stromnetze',
    'Die Übertragungsnetzbetreibers planen neue Leitungen. Die Stromnetze im Norden sind an vielen Tagen ' +
      'überlastet, sagt die Bundesnetzagentur.',
  ),
  page(
    'de-street',
    'de',
    'Die Hauptstraße wird gesperrt',
    'Wegen Bauarbeiten bleibt die Straße bis Freitag gesperrt; Busse fahren eine Umleitung.',
  ),
  page(
    'fr-help',
    'fr',
    'Demande de renseignement',
    "Pour tout renseignement sur les horaires, contactez l'accueil de la mairie.",
  ),
  page(
    'es-cafe',
    'es',
    'Los baristas de la ciudad',
    'Los baristas de Madrid preparan el café de especialidad con granos tostados en la ciudad.',
  ),
  page('en-panels', 'en', 'Solar panels at home', 'Solar panels turn sunlight into power for a house.'),
  page('en-sol', 'en', 'Sol', 'Sol is the Latin name of the Sun, and a day on Mars.'),
  page('und-page', 'und', 'A page of no known language', 'Renseignements and stromnetze written as typed.'),
];

/** Ids of the pages a query finds. */
async function found(index: LanceSearchIndex, q: string, extra: Partial<IndexQuery> = {}): Promise<string[]> {
  const { hits } = await index.search({ query: parseQuery(q), limit: 20, offset: 0, ...extra });
  return hits.map((hit) => hit.id).sort();
}

describe.each([
  ['folded into the full-text indexes', true],
  ['waiting for a fold (the fresh tier)', false],
])('pages of stemmed languages, %s', (_, folded) => {
  let dir: string;
  let index: LanceSearchIndex;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-stems-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    if (folded) {
      await index.upsert(PAGES);
      await index.flush();
    } else {
      // A page of each kind folded, so that the rest waits in the fresh tier beside them.
      await index.upsert(PAGES.filter((p) => p.id.endsWith('weather') || p.id.endsWith('street')));
      await index.flush();
      await index.upsert(PAGES);
    }
  }, 120_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['метро москва', ['ru-metro']],
    ['станция метро в Москве', ['ru-metro']],
    ['Черёмушки', ['ru-metro']],
    ['черемушки', ['ru-metro']],
    ['пассажиры', ['ru-metro']],
    ['новый', ['ru-metro']],
    ['солнечный', ['ru-weather']],
    ['"станции метро"', ['ru-metro']],
    ['Stromnetz', ['de-grid']],
    ['Übertragungsnetzbetreiber', ['de-grid']],
    ['Strasse', ['de-street']],
    ['Straßen', ['de-street']],
    ['renseignements', ['fr-help', 'und-page']],
    ['barista', ['es-cafe']],
    ['barista OR petersburg', ['es-cafe']],
  ])('finds %s by other forms of its words', async (q, ids) => {
    expect(await found(index, q)).toEqual(ids);
    // Any of the words: the pages holding more of them, and rarer ones, first (`в` is on both Russian pages).
    const { hits } = await index.search({ query: parseQuery(q), limit: 20, offset: 0, match: 'any' });
    expect(
      hits
        .slice(0, ids.length)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(ids);
  });

  it('keeps the words as typed: a page of another language holding them is found too', async () => {
    expect(await found(index, 'stromnetze')).toEqual(['de-grid', 'und-page']);
  });

  it("asks a language's stems of that language's pages only", async () => {
    // `sol` is Spanish's stem of `solar`, and an English word: the English page saying "Sol" is not
    // found by `solar`.
    expect(await found(index, 'solar')).toEqual(['en-panels']);
    expect(await found(index, 'solar', { match: 'any' })).toEqual(['en-panels']);
    expect(await found(index, 'panels')).toEqual(['en-panels']);
  });

  it('finds the pages of the language asked for (`lang`) by its stems', async () => {
    expect(await found(index, 'метро москва', { lang: 'ru' })).toEqual(['ru-metro']);
    expect(await found(index, 'пассажиры OR погода', { lang: 'ru' })).toEqual(['ru-metro', 'ru-weather']);
    expect(await found(index, 'метро москва', { lang: 'de' })).toEqual([]);
    expect(await found(index, 'Stromnetz', { lang: 'de' })).toEqual(['de-grid']);
    expect(await found(index, 'stromnetze', { lang: 'und' })).toEqual(['und-page']);
  });

  it('excludes a word in its stems too', async () => {
    expect(await found(index, 'метро -Москве')).toEqual([]);
    expect(await found(index, 'пассажиров -Петербург')).toEqual(['ru-metro']);
  });

  it('finds the page by other forms in the general plan too (nested groups)', async () => {
    expect(await found(index, 'метро (москва OR петербург)')).toEqual(['ru-metro']);
  });
});
