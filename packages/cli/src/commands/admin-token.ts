import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuarryConfig } from '@quarry/core';
import { DATA_LAYOUT } from '../data-dir.js';

/** Where `quarry start` keeps the admin token it generated, inside the data dir. */
export function adminTokenFile(config: QuarryConfig): string {
  return join(config.dataDir, DATA_LAYOUT.adminToken);
}

/** The token stored in the data dir by an earlier `quarry start`, or null when there is none. */
function storedAdminToken(config: QuarryConfig): string | null {
  const file = adminTokenFile(config);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/**
 * The admin token: from QUARRY_ADMIN_TOKEN, else generated once into the data dir (mode 0600) and
 * printed that one time, so /admin is never open.
 */
export function ensureAdminToken(config: QuarryConfig): string {
  if (config.adminToken) return config.adminToken;
  const stored = storedAdminToken(config);
  if (stored !== null) return stored;
  const file = adminTokenFile(config);
  mkdirSync(config.dataDir, { recursive: true });
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  process.stderr.write(`Generated an admin token (shown once; stored in ${file}):\n  ${token}\n`);
  return token;
}

/**
 * The configuration with the admin token `quarry start` stored in the data dir, when
 * QUARRY_ADMIN_TOKEN sets none: `quarry serve` on the same data dir then opens /admin and /metrics
 * with the token the operator was shown. Nothing is generated here.
 */
export function withStoredAdminToken(config: QuarryConfig): QuarryConfig {
  if (config.adminToken) return config;
  const stored = storedAdminToken(config);
  return stored ? { ...config, adminToken: stored } : config;
}

/** Where the admin token in use comes from, for people: the variable, or the generated file. */
export function adminTokenSource(config: QuarryConfig): string {
  return storedAdminToken(config) === config.adminToken ? adminTokenFile(config) : 'QUARRY_ADMIN_TOKEN';
}
