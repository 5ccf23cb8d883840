import { parentPort } from 'node:worker_threads';
import { toFtsText } from './fts-text.js';

/** Worker side of {@link FtsTextPool}: rewrites batches of texts for FTS5 off the main thread. */
parentPort?.on('message', (message: { id: number; texts: string[] }) => {
  parentPort?.postMessage({ id: message.id, texts: message.texts.map(toFtsText) });
});
