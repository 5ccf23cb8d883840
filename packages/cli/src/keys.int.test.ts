import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requireBuiltCli, runCli } from './testing/run-cli.js';

describe('quarry keys', () => {
  let dir: string;
  const quarry = (args: string[]) => runCli(args, { QUARRY_DATA_DIR: dir, LOG_LEVEL: 'silent' });

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-keys-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists no key as the header line alone, as scripts read it', async () => {
    const listed = await quarry(['keys', 'list']);
    expect(listed).toMatchObject({ code: 0, stdout: 'id\tprefix\tlimit\tstate\tcreated\tname\n' });
    expect(JSON.parse((await quarry(['keys', 'list', '--json'])).stdout)).toEqual([]);
  }, 120_000);

  it('lists keys under a header line naming the columns; revoking a key twice says it already was', async () => {
    const created = await quarry(['keys', 'create', '--name', 'acme agent', '--limit', '120/min']);
    expect(created.code).toBe(0);
    const id = /^created key (\S+) /m.exec(created.stdout)?.[1] ?? '';

    const listed = await quarry(['keys', 'list']);
    const [header, row, ...rest] = listed.stdout.trimEnd().split('\n');
    expect(header).toBe('id\tprefix\tlimit\tstate\tcreated\tname');
    expect(row?.split('\t')).toEqual([
      id,
      expect.stringMatching(/^qk_/),
      '120/min',
      'active',
      expect.any(String),
      'acme agent',
    ]);
    expect(rest).toEqual([]);

    const revoked = await quarry(['keys', 'revoke', id]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked key ${id}\n` });
    const again = await quarry(['keys', 'revoke', id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^key ${id} was already revoked \\(\\d{4}-\\d\\d-\\d\\dT[\\d:]+Z\\)\\n$`));
  }, 120_000);
});
