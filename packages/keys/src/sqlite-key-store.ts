import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApiKeyRecord, KeyStore } from '@quarry/core';
import { toIsoUtc } from '@quarry/core';
import Database from 'better-sqlite3';
import {
  displayPrefix,
  generateKey,
  hashKey,
  isWellFormedKey,
  newKeyId,
  validateKeyName,
  validateLimitPerMin,
} from './key-format.js';

/** Options of {@link SqliteKeyStore}. */
export interface SqliteKeyStoreOptions {
  /** SQLite file; created with its directory when missing. Several processes may share it. */
  readonly path: string;
  /** How long a write waits for another process's lock. @defaultValue 5000 */
  readonly busyTimeoutMs?: number;
}

interface KeyRow {
  id: string;
  name: string;
  limit_per_min: number;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  limit_per_min INTEGER NOT NULL CHECK (limit_per_min > 0),
  created_at TEXT NOT NULL,
  revoked_at TEXT
)`;
const COLUMNS = 'id, name, limit_per_min, prefix, created_at, revoked_at';

/**
 * API keys in a SQLite file (WAL), for the embedded deployment. Nothing is cached: every `verify`
 * reads the file, so a revocation by `quarry keys revoke` (another process) applies to the next
 * request of every API process sharing the file.
 */
export class SqliteKeyStore implements KeyStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement<[string, string, string, string, number, string]>;
  readonly #byHash: Database.Statement<[string], KeyRow>;
  readonly #all: Database.Statement<[], KeyRow>;
  readonly #revoke: Database.Statement<[string, string]>;
  readonly #exists: Database.Statement<[string], { id: string }>;

  constructor(options: SqliteKeyStoreOptions) {
    mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new Database(options.path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    this.#db.exec(SCHEMA);
    this.#insert = this.#db.prepare(
      'INSERT INTO api_keys (id, name, key_hash, prefix, limit_per_min, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#byHash = this.#db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`);
    this.#all = this.#db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, rowid`);
    this.#revoke = this.#db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    this.#exists = this.#db.prepare('SELECT id FROM api_keys WHERE id = ?');
  }

  /** Creates a key; the plain key is in the answer only. */
  async create(name: string, limitPerMin: number): Promise<{ record: ApiKeyRecord; key: string }> {
    const key = generateKey();
    const record: ApiKeyRecord = {
      id: newKeyId(),
      name: validateKeyName(name),
      limitPerMin: validateLimitPerMin(limitPerMin),
      prefix: displayPrefix(key),
      createdAt: toIsoUtc(new Date()),
      revokedAt: null,
    };
    this.#insert.run(record.id, record.name, hashKey(key), record.prefix, record.limitPerMin, record.createdAt);
    return { record, key };
  }

  /** Every key, revoked ones included, oldest first. */
  async list(): Promise<ApiKeyRecord[]> {
    return this.#all.all().map(toRecord);
  }

  /** Revokes by id; true when the key exists (also when it was already revoked). */
  async revoke(id: string): Promise<boolean> {
    if (this.#revoke.run(toIsoUtc(new Date()), id).changes > 0) return true;
    return this.#exists.get(id) !== undefined;
  }

  /** The active record for a presented key, or null. */
  async verify(key: string): Promise<ApiKeyRecord | null> {
    if (typeof key !== 'string' || !isWellFormedKey(key)) return null;
    const row = this.#byHash.get(hashKey(key));
    return row ? toRecord(row) : null;
  }

  /** Closes the database file. */
  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    limitPerMin: row.limit_per_min,
    prefix: row.prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
