import { connect, createServer } from 'node:net';
import { expect, it } from '@jest/globals';
import { startRedis } from './redis.js';
import { describeWithServer, freePort } from './servers.js';

/** Sends raw RESP commands and returns the reply text (no client library needed). */
function send(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(command));
    socket.once('data', (chunk) => {
      socket.destroy();
      resolve(chunk.toString());
    });
    socket.once('error', reject);
  });
}

describeWithServer('redis', 'startRedis', () => {
  it('serves on loopback, keeps appended data across restart, and may be stopped twice', async () => {
    const redis = await startRedis({ appendOnly: true });
    try {
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
      await expect(send(redis.port, 'SET k v\r\n')).resolves.toBe('+OK\r\n');
      await redis.restart();
      await expect(send(redis.port, 'GET k\r\n')).resolves.toBe('$1\r\nv\r\n');
    } finally {
      await redis.stop();
    }
    await redis.stop();
    await expect(send(redis.port, 'PING\r\n')).rejects.toThrow();
  });

  it('tries another port when the free one it was given is taken before it binds', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port: busy } = taken.address() as { port: number };
    const given: number[] = [];
    const redis = await startRedis({
      pickPort: async () => {
        given.push(given.length === 0 ? busy : await freePort());
        return given.at(-1) as number;
      },
    }).finally(() => taken.close());
    try {
      expect(given).toHaveLength(2);
      expect(redis.port).toBe(given[1]);
      await expect(send(redis.port, 'PING\r\n')).resolves.toBe('+PONG\r\n');
    } finally {
      await redis.stop();
    }
  });
});
