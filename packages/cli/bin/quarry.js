#!/usr/bin/env node
// The `quarry` command. The CLI is TypeScript compiled to ../dist; run `npm run build` first.
import { main } from '../dist/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`quarry: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
