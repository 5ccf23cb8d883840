// `node --import <this file> script.ts`: runs this repository's TypeScript sources (test children only).
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
