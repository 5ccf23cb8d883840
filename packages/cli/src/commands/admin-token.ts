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
 * The admin token: from QUARRY_ADMIN_TOKEN, else generated once into the data dir (mode 0600), so
 * /admin is never open. It is shown that one time on a terminal; where stderr is not one (a
 * container's or a service manager's log, CI) only its file is named: a secret does not go to logs.
 */
export function ensureAdminToken(config: QuarryConfig): string {
  if (config.adminToken) return config.adminToken;
  const stored = storedAdminToken(config);
  if (stored !== null) return stored;
  const file = adminTokenFile(config);
  mkdirSync(config.dataDir, { recursive: true });
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  process.stderr.write(
    process.stderr.isTTY
      ? `Generated an admin token (shown once; stored in ${file}):\n  ${token}\n`
      : `Generated an admin token, stored in ${file} (readable by this user only; not written to this log).\n`,
  );
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
