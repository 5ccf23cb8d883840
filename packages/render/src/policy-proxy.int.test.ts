import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect, type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPolicyProxy } from './policy-proxy.js';

/** A lookup that answers every name with 127.0.0.1, as a rebinding DNS server's second answer would. */
const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
/** A lookup that refuses every address, as the fetcher's guarded lookup refuses loopback. */
const refusing: LookupFunction = (hostname, _options, callback) =>
  callback(Object.assign(new Error(`refused ${hostname}`), { code: 'EBLOCKED' }), '', 4);

describe('the policy proxy resolves upstream names with the lookup it is given', () => {
  let internal: Server;
  let port: number;

  beforeAll(async () => {
    internal = createServer((_req, res) => res.end('internal secret'));
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    port = (internal.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => internal.close(() => resolve())));

  /** GET through the proxy: the status and body, or the status alone. */
  const viaProxy = (proxyServer: string, target: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const proxy = new URL(proxyServer);
      const req = request({
        host: proxy.hostname,
        port: proxy.port,
        path: target,
        headers: { host: new URL(target).host },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  /** CONNECT through the proxy: whether the tunnel opened and carried a request to the end. */
  const tunnelAnswer = (proxyServer: string, hostPort: string) =>
    new Promise<string>((resolve) => {
      const proxy = new URL(proxyServer);
      const socket = connect(Number(proxy.port), proxy.hostname, () => {
        socket.write(`CONNECT ${hostPort} HTTP/1.1\r\nHost: ${hostPort}\r\n\r\n`);
      });
      let seen = '';
      socket.on('data', (chunk) => {
        seen += chunk.toString('latin1');
        if (seen.includes('200 Connection Established') && !seen.includes('GET sent')) {
          seen += 'GET sent';
          socket.write(`GET / HTTP/1.1\r\nHost: ${hostPort}\r\nConnection: close\r\n\r\n`);
        }
      });
      socket.on('close', () => resolve(seen));
      socket.on('error', () => resolve(seen));
    });

  it('connects to what the lookup answers, and to nothing when it refuses (DNS rebinding)', async () => {
    // The policy passed the name (its own lookup saw a public address); the connection asks again.
    const allowAll = async () => true;
    const open = await startPolicyProxy(allowAll, { lookup: toLoopback });
    const guarded = await startPolicyProxy(allowAll, { lookup: refusing });
    try {
      const target = `http://rebind.invalid:${port}/admin`;
      expect(await viaProxy(open.server, target)).toEqual({ status: 200, body: 'internal secret' });
      const refused = await viaProxy(guarded.server, target);
      expect(refused.status).toBe(502);
      expect(refused.body).not.toContain('secret');
      expect(await tunnelAnswer(open.server, `rebind.invalid:${port}`)).toContain('internal secret');
      const tunnelled = await tunnelAnswer(guarded.server, `rebind.invalid:${port}`);
      expect(tunnelled).not.toContain('secret');
    } finally {
      await Promise.all([open.close(), guarded.close()]);
    }
  });
});
