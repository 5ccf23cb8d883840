#!/usr/bin/env node
// The `quarry` command. The CLI is TypeScript compiled to ../dist; run `npm run build` first.
import { main } from '../dist/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
    // A command that failed has said why; a client it could not close (a Redis connection that
    // reconnects for ever, say) must not keep the process alive, or a supervisor never restarts it.
    if (code !== 0) process.exit(code);
    // Nor after a clean end: a `quarry start` stopped while Redis was away closed every part, and a
    // client's reconnection kept it running. Output still being written gets its time first.
    setTimeout(() => process.exit(code), LINGER_MS).unref();
  },
  (error) => {
    process.stderr.write(`quarry: ${explain(error)}\n`);
    process.exit(1);
  },
);

/** How long a command that has ended cleanly may take to write out what it still holds. */
const LINGER_MS = 3_000;

/** An unexpected error's message and those of its causes: what the operator needs to find out why. */
function explain(error) {
  const parts = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; e = e.cause, depth++) {
    const message = readable(e instanceof Error ? e.message : String(e));
    if (message && !parts.includes(message)) parts.push(message);
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ');
}

/** Longest part of an error message shown; native engines' messages run to kilobytes. */
const MAX_PART_CHARS = 600;

/**
 * A message as an operator reads it: without the Rust source locations LanceDB's errors repeat
 * (`, /rustc/2d81…/library/core/src/result.rs:1896:29`, fifteen times in one message), on one line,
 * and cut at MAX_PART_CHARS.
 */
function readable(message) {
  const plain = message
    .replace(/,?\s*[^\s,]*\.rs:\d+:\d+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > MAX_PART_CHARS ? `${plain.slice(0, MAX_PART_CHARS)}…` : plain;
}
