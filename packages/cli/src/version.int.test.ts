import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { requireBuiltCli, runCli } from './testing/run-cli.js';

describe('quarry --version', () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  beforeAll(() => {
    requireBuiltCli();
  });

  it.each([['--version'], ['-V'], ['version']])(
    'quarry %s prints the package version',
    async (arg) => {
      const run = await runCli([arg], {});
      expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    },
    60_000,
  );
});
