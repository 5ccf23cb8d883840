import { type MessagePort, parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './worker-client.js';

/**
 * Worker side of {@link WorkerClient}: answers each request with `handle` (synchronous, so in
 * order), reports errors by message only (no stack crosses the thread), and on the close order
 * runs `close` and lets the thread end.
 */
export function serveRequests<Body, Result>(handle: (body: Body) => Result, close: () => void): void {
  const port = parentPort as MessagePort;
  port.on('message', (request: WorkerRequest<Body>) => {
    if ('close' in request) {
      close();
      port.close();
      return;
    }
    let reply: WorkerReply<Result>;
    try {
      reply = { id: request.id, result: handle(request.body) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}
