#!/usr/bin/env node
// The `quarry` command. The CLI is TypeScript compiled to ../dist; run `npm run build` first.
import { main } from '../dist/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
    // A command that failed has said why; a client it could not close (a Redis connection that
    // reconnects for ever, say) must not keep the process alive, or a supervisor never restarts it.
    if (code !== 0) process.exit(code);
  },
  (error) => {
    process.stderr.write(`quarry: ${explain(error)}\n`);
    process.exit(1);
  },
);

/** An unexpected error's message and those of its causes: what the operator needs to find out why. */
function explain(error) {
  const parts = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; e = e.cause, depth++) {
    const message = e instanceof Error ? e.message : String(e);
    if (message && !parts.includes(message)) parts.push(message);
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ');
}
