import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadSeeds } from './seeds-input.js';

describe('loadSeeds', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-seeds-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const load = async (text: string, urls: string[] = []) => {
    const file = join(dir, 'seeds.txt');
    writeFileSync(file, text);
    const warnings: string[] = [];
    const seeds = await loadSeeds(urls, file, {}, (message) => warnings.push(message));
    return { file, seeds, warnings };
  };

  it('warns about a URL given twice with other settings, naming both lines, and keeps the first', async () => {
    const { file, seeds, warnings } = await load(
      [
        'https://a.example/ depth=2',
        '# a comment',
        'https://b.example/',
        '',
        'https://A.example/  depth=4 pages=50   # the same URL, written otherwise',
      ].join('\n'),
    );
    expect(warnings).toEqual([
      `${file}: line 5 repeats https://a.example/ of line 1 with other settings (depth=4 pages=50, not depth=2 pages=1000); the first wins: line 1`,
    ]);
    expect(seeds.map((s) => [s.url, s.maxDepth, s.maxPages])).toEqual([
      ['https://a.example/', 2, 1000],
      ['https://b.example/', 3, 1000],
    ]);
  });

  it('queues a URL repeated with the same settings once, without a warning', async () => {
    const { seeds, warnings } = await load('https://a.example/\nhttps://a.example/ depth=3\n');
    expect(warnings).toEqual([]);
    expect(seeds.map((s) => s.url)).toEqual(['https://a.example/']);
  });

  it('names --seed when the file repeats a URL given there', async () => {
    const { file, warnings } = await load('https://a.example/ render=always\n', ['https://a.example/']);
    expect(warnings).toEqual([
      `${file} line 1 repeats https://a.example/ of --seed with other settings (render=always, not render=auto); the first wins: --seed`,
    ]);
  });
});
