import type { ApiKeyRecord, KeyStore } from '@quarry/core';
import { toIsoUtc } from '@quarry/core';
import type { Redis } from 'ioredis';
import {
  displayPrefix,
  generateKey,
  hashKey,
  isWellFormedKey,
  newKeyId,
  validateKeyName,
  validateLimitPerMin,
} from './key-format.js';

/** Options of {@link RedisKeyStore}. */
export interface RedisKeyStoreOptions {
  /** Connection to use; the caller owns it (the store never quits it). */
  readonly redis: Redis;
  /** Prefix of every Redis key the store writes. @defaultValue 'quarry:keys:' */
  readonly prefix?: string;
}

/**
 * API keys in Redis, for the distributed deployment. Layout under the prefix: `rec:<id>` (a hash
 * with the record and the key's hash), `hash:<sha256>` → id for active keys only, and `ids` (a sorted
 * set by creation time) for listings. Nothing is cached, so a revocation applies to the next request
 * of every API replica.
 */
export class RedisKeyStore implements KeyStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(options: RedisKeyStoreOptions) {
    this.#redis = options.redis;
    this.#prefix = options.prefix ?? 'quarry:keys:';
  }

  /** Creates a key; the plain key is in the answer only. */
  async create(name: string, limitPerMin: number): Promise<{ record: ApiKeyRecord; key: string }> {
    const key = generateKey();
    const now = new Date();
    const record: ApiKeyRecord = {
      id: newKeyId(),
      name: validateKeyName(name),
      limitPerMin: validateLimitPerMin(limitPerMin),
      prefix: displayPrefix(key),
      createdAt: toIsoUtc(now),
      revokedAt: null,
    };
    const keyHash = hashKey(key);
    const results = await this.#redis
      .multi()
      .hset(this.#rec(record.id), {
        id: record.id,
        name: record.name,
        limitPerMin: String(record.limitPerMin),
        prefix: record.prefix,
        createdAt: record.createdAt,
        keyHash,
      })
      .set(this.#hash(keyHash), record.id)
      .zadd(this.#ids(), now.getTime(), record.id)
      .exec();
    const failed = results?.find(([err]) => err !== null);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis transaction aborted');
    return { record, key };
  }

  /** Every key, revoked ones included, oldest first. */
  async list(): Promise<ApiKeyRecord[]> {
    const ids = await this.#redis.zrange(this.#ids(), '0', '-1');
    if (ids.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.#rec(id));
    const rows = (await pipeline.exec()) ?? [];
    const records: ApiKeyRecord[] = [];
    for (const [err, fields] of rows) {
      const record = err ? null : toRecord(fields as Record<string, string>);
      if (record) records.push(record);
    }
    return records;
  }

  /** Revokes by id; true when the key exists (also when it was already revoked). */
  async revoke(id: string): Promise<boolean> {
    const keyHash = await this.#redis.hget(this.#rec(id), 'keyHash');
    if (keyHash === null) return false;
    // HSETNX keeps the first revocation time; deleting the hash mapping is what stops `verify`.
    await this.#redis.multi().hsetnx(this.#rec(id), 'revokedAt', toIsoUtc(new Date())).del(this.#hash(keyHash)).exec();
    return true;
  }

  /** The active record for a presented key, or null. */
  async verify(key: string): Promise<ApiKeyRecord | null> {
    if (typeof key !== 'string' || !isWellFormedKey(key)) return null;
    const keyHash = hashKey(key);
    const id = await this.#redis.get(this.#hash(keyHash));
    if (id === null) return null;
    const fields = await this.#redis.hgetall(this.#rec(id));
    // Double check against the record, so a stale mapping can never resurrect a revoked key.
    if (fields.keyHash !== keyHash) return null;
    const record = toRecord(fields);
    return record && record.revokedAt === null ? record : null;
  }

  /** Does nothing: the connection belongs to the caller, who quits it. */
  async close(): Promise<void> {}

  #rec(id: string): string {
    return `${this.#prefix}rec:${id}`;
  }
  #hash(keyHash: string): string {
    return `${this.#prefix}hash:${keyHash}`;
  }
  #ids(): string {
    return `${this.#prefix}ids`;
  }
}

function toRecord(fields: Record<string, string>): ApiKeyRecord | null {
  const { id, name, prefix, createdAt } = fields;
  const limitPerMin = Number(fields.limitPerMin);
  if (!id || name === undefined || prefix === undefined || !createdAt || !Number.isSafeInteger(limitPerMin)) {
    return null;
  }
  return { id, name, limitPerMin, prefix, createdAt, revokedAt: fields.revokedAt || null };
}
