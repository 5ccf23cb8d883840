// Helpers of the benchmarks that run the real `quarry serve` in a child process.
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `quarry serve` on `port` answers /healthz (20 s at most). */
export async function waitForHealth(port) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('quarry serve did not become healthy');
}
