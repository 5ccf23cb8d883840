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
    const seeds = await loadSeeds(urls, [file], {}, (message) => warnings.push(message));
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

  it('reads every --seeds file, in order, naming the file of each line when they differ', async () => {
    const first = join(dir, 'first.txt');
    const second = join(dir, 'second.txt');
    writeFileSync(first, 'https://a.example/\nhttps://b.example/ depth=1\n');
    writeFileSync(second, 'https://c.example/\nhttps://b.example/ depth=2\n');
    const warnings: string[] = [];
    const seeds = await loadSeeds([], [first, second], {}, (message) => warnings.push(message));
    expect(seeds.map((s) => s.url)).toEqual(['https://a.example/', 'https://b.example/', 'https://c.example/']);
    expect(warnings).toEqual([
      `${second} line 2 repeats https://b.example/ of ${first} line 2 with other settings (depth=2, not depth=1); the first wins: ${first} line 2`,
    ]);
  });

  it('lists the bad lines of every file, and queues nothing', async () => {
    const good = join(dir, 'good.txt');
    const bad = join(dir, 'bad.txt');
    writeFileSync(good, 'https://a.example/\n');
    writeFileSync(bad, 'ftp://x.example/\n');
    await expect(loadSeeds([], [good, bad], {})).rejects.toThrow(`${bad} line 1`);
  });

  it('names --seed when the file repeats a URL given there', async () => {
    const { file, warnings } = await load('https://a.example/ render=always\n', ['https://a.example/']);
    expect(warnings).toEqual([
      `${file} line 1 repeats https://a.example/ of --seed with other settings (render=always, not render=auto); the first wins: --seed`,
    ]);
  });
});
