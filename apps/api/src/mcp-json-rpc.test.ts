import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { createFixture, type Fixture } from './test-support/fixture.js';

// JSON-RPC 2.0's answers to bodies /mcp cannot take, over Streamable HTTP (in process).

let fx: Fixture;
let app: Express;

beforeAll(async () => {
  fx = await createFixture();
  app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }));
});
afterAll(async () => {
  await fx.cleanup();
});

function post(body: unknown) {
  return request(app)
    .post('/mcp')
    .set('accept', 'application/json, text/event-stream')
    .set('content-type', 'application/json')
    .send(JSON.stringify(body));
}

describe('POST /mcp answers what is no JSON-RPC request as JSON-RPC 2.0 says', () => {
  it('answers JSON that is no JSON-RPC message with -32600 (Invalid Request, id null), not -32700', async () => {
    const bodies = [
      { foo: 1 },
      { jsonrpc: '2.0', id: null, method: 'tools/list' },
      { jsonrpc: '2.0', id: {}, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: 'x' },
      'x',
      3,
      null,
    ];
    for (const body of bodies) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(res.body.error.message).toMatch(
        /^Invalid Request: the body is JSON but not a JSON-RPC 2\.0 message, which has /,
      );
    }
  });

  it('answers initialize without its params with -32602 and a sentence naming what is missing', async () => {
    const bare = await post({ jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(bare.body).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(bare.body.error.message).toMatch(
      /^Invalid params: initialize needs params with protocolVersion \(a string such as "[\d-]+"\), capabilities \(an object\) and clientInfo \(an object with name and version\); params is missing/,
    );
    const partial = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {} },
    });
    expect(partial.body).toMatchObject({ id: 2, error: { code: -32602 } });
    expect(partial.body.error.message).toMatch(/; params\.clientInfo is missing or not of that type\.$/);
    const whole = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    expect(whole.body).toMatchObject({ id: 3, result: { serverInfo: { name: 'quarry' } } });
  });

  it('still answers JSON-RPC requests that are well formed', async () => {
    const res = await post({ jsonrpc: '2.0', id: 4, method: 'ping' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });
});
