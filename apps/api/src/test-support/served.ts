import { afterAll, beforeAll, expect } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../app.js';
import { createFixture, type Fixture } from './fixture.js';

/** Pages indexed and served by the API for one describe block (see {@link servedDocs}). */
export interface Served {
  readonly fx: Fixture;
  readonly app: Express;
  /** The result URLs of `GET /api/v1/search?<query>`, which must answer 200. */
  urls(query: string): Promise<string[]>;
}

/**
 * `docs` indexed in a fixture and served by the API (rate limit out of the way) around the calling
 * describe block: set up before its tests, cleaned up after them.
 */
export function servedDocs(docs: readonly PageDocument[]): Served {
  let fx: Fixture | undefined;
  let app: Express | undefined;
  beforeAll(async () => {
    fx = await createFixture(docs);
    app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }));
  });
  afterAll(async () => {
    await fx?.cleanup();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('servedDocs: used before its beforeAll ran');
    return value;
  };
  return {
    get fx() {
      return ready(fx);
    },
    get app() {
      return ready(app);
    },
    async urls(query) {
      const res = await request(ready(app)).get(`/api/v1/search?${query}`);
      expect(res.status).toBe(200);
      return res.body.results.map((r: { url: string }) => r.url);
    },
  };
}
