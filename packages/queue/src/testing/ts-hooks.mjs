// Module hooks that let child processes spawned by this package's tests run its TypeScript
// sources directly, mapped the way jest.config.js maps them (no build needed).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';

const root = new URL('../../../../', import.meta.url);

export async function resolve(specifier, context, next) {
  const workspace = /^@quarry\/([a-z-]+)$/.exec(specifier);
  if (workspace) {
    const url = new URL(`packages/${workspace[1]}/src/index.ts`, root);
    if (existsSync(url)) return { url: url.href, shortCircuit: true };
  }
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(url)) return { url: url.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const { code } = await swc.transform(source, {
    filename: fileURLToPath(url),
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
