const ESM_ONLY_DEPS_OF_CJS = ['@exodus/bytes', 'parse5', 'entities', '@asamuzakjp', '@csstools'];

/**
 * One Jest config for every workspace. Tests run as native ESM (node --experimental-vm-modules,
 * see the `test` script) so ESM-only dependencies load as they are; @swc/jest strips types.
 * Workspace packages are mapped to their sources, so tests never need a build first.
 * @type {import('jest').Config}
 */
export default {
  // Node's, with a prompt exit for its worker processes (see the file).
  testEnvironment: '<rootDir>/jest.environment.cjs',
  roots: ['<rootDir>/packages', '<rootDir>/apps'],
  testMatch: ['**/src/**/*.test.ts', '**/test/**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@quarry/(api|crawler)$': '<rootDir>/apps/$1/src/index.ts',
    '^@quarry/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // jsdom (CommonJS) requires a few ESM-only packages, which Node 20 cannot require(): Jest
  // compiles just those to CommonJS. (Outside Jest, Node loads jsdom as it is.)
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_DEPS_OF_CJS.join('|')})/)`],
  transform: {
    [`^.+/node_modules/(${ESM_ONLY_DEPS_OF_CJS.join('|')})/.+\\.m?js$`]: [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  testTimeout: 30_000,
  maxWorkers: 2,
  // In ESM mode Jest does not free a test file's modules (jestjs/jest#14605): a worker's heap grows
  // with every file, to 600 MB and an RSS near 1 GB by the end of the suite, and a process that
  // big takes longer to die than Jest waits at the end (see jest.environment.cjs). A worker is
  // replaced once its heap passes this after a file.
  workerIdleMemoryLimit: '400MB',
};
