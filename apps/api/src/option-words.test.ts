import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { createFixture, type Fixture, page } from './test-support/fixture.js';

// Queries developers type: a command-line option (`--amend`) is a word to find, a single dash
// still excludes, and words joined by a comma are separate words.
const DOCS = [
  page('https://docs.example.org/git-commit', {
    title: 'git-commit manual',
    body_text: 'Record changes to the repository. Use git commit --amend to replace the tip of the current branch.',
  }),
  page('https://docs.example.org/git-log', {
    title: 'git-log manual',
    body_text: 'Show commit logs. git log lists each commit of the current branch.',
  }),
  page('https://news.example.org/talks', {
    title: 'Talks on Sudan',
    body_text: 'Obama spoke with leaders in Khartoum about peace in Sudan.',
  }),
];

let fx: Fixture;
let app: Express;

beforeAll(async () => {
  fx = await createFixture(DOCS);
  app = createApp(fx.deps());
});
afterAll(async () => {
  await fx.cleanup();
});

const urls = async (q: string) => {
  const res = await request(app).get(`/api/v1/search?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return (res.body.results as { url: string }[]).map((r) => r.url);
};

describe('option words and listed words', () => {
  it('finds the page explaining an option written with two dashes', async () => {
    expect(await urls('git commit --amend')).toEqual(['https://docs.example.org/git-commit']);
  });

  it('still excludes a word after one dash', async () => {
    expect(await urls('git commit -amend')).toEqual(['https://docs.example.org/git-log']);
  });

  it('reads words joined by a comma as separate words, not a phrase', async () => {
    expect(await urls('obama,sudan')).toEqual(['https://news.example.org/talks']);
  });
});
