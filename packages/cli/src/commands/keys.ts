import type { QuarryConfig } from '@quarry/core';
import { parseRateLimit } from '@quarry/keys';
import { openKeyStore } from '../runtime.js';

/** `quarry keys create`: prints the key once; only its hash is stored. */
export async function createKey(config: QuarryConfig, name: string, limit: string | undefined): Promise<number> {
  let limitPerMin = config.rateLimit.keyDefaultPerMin;
  if (limit !== undefined) {
    try {
      limitPerMin = parseRateLimit(limit);
    } catch (error) {
      process.stderr.write(`quarry keys create: --limit: ${(error as Error).message}\n`);
      return 2;
    }
  }
  if (name.trim() === '') {
    process.stderr.write('quarry keys create: --name must not be empty\n');
    return 2;
  }
  const store = await openKeyStore(config);
  try {
    const { record, key } = await store.create(name.trim(), limitPerMin);
    process.stdout.write(
      `created key ${record.id} "${record.name}" (${record.limitPerMin} requests/min)\n` +
        `key: ${key}\n` +
        'This is the only time the key is shown: store it now. Send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".\n',
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** The columns of `quarry keys list`, printed as its first line. */
const LIST_HEADER = ['id', 'prefix', 'limit', 'state', 'created', 'name'];

/** `quarry keys list`: a header line, then one tab-separated line per key, never the key itself. */
export async function listKeys(config: QuarryConfig, json: boolean): Promise<number> {
  const store = await openKeyStore(config);
  try {
    const records = await store.list();
    if (json) {
      process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      return 0;
    }
    // The header even with no key: a script reading the columns finds them, and no rows.
    process.stdout.write(`${LIST_HEADER.join('\t')}\n`);
    for (const r of records) {
      const state = r.revokedAt ? `revoked ${r.revokedAt}` : 'active';
      process.stdout.write(`${r.id}\t${r.prefix}…\t${r.limitPerMin}/min\t${state}\t${r.createdAt}\t${r.name}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * `quarry keys revoke ID`: exit 0 once the key is revoked, also when it already was (a script
 * revoking a key wants it refused, which it is), saying since when; exit 2 when there is no such key.
 */
export async function revokeKey(config: QuarryConfig, id: string): Promise<number> {
  const store = await openKeyStore(config);
  try {
    const revokedAt = (await store.list()).find((r) => r.id === id)?.revokedAt;
    if (revokedAt) {
      process.stdout.write(`key ${id} was already revoked (${revokedAt})\n`);
      return 0;
    }
    if (await store.revoke(id)) {
      process.stdout.write(`revoked key ${id}\n`);
      return 0;
    }
    // An id naming no key is a bad argument: a usage error, like an unknown option.
    process.stderr.write(`quarry keys revoke: no key with id ${id} (see quarry keys list)\n`);
    return 2;
  } finally {
    await store.close();
  }
}
