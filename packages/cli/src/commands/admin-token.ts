import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminTokenProblem, ConfigError, type QuarryConfig } from '@quarry/core';
import { DATA_LAYOUT } from '../data-dir.js';

/** Where `quarry start` keeps the admin token it generated, inside the data dir. */
export function adminTokenFile(config: QuarryConfig): string {
  return join(config.dataDir, DATA_LAYOUT.adminToken);
}

/** The token file's content without the whitespace around it (its line break), or null when there is none. */
function tokenFileContent(config: QuarryConfig): string | null {
  const file = adminTokenFile(config);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/**
 * The token stored in the data dir by an earlier `quarry start`, or null when there is none (an
 * empty file is none). Checked as QUARRY_ADMIN_TOKEN is: a file edited by hand to hold a space
 * inside, or too short a token, is a configuration error naming the file, not a dashboard whose
 * token no bearer can carry (or a crash when the admin router refuses it).
 */
function storedAdminToken(config: QuarryConfig): string | null {
  const token = tokenFileContent(config);
  if (!token) return token;
  const problem = adminTokenProblem(token);
  if (problem !== null) {
    throw new ConfigError([
      `${adminTokenFile(config)} (the admin token): ${problem}; set QUARRY_ADMIN_TOKEN, or delete the file and quarry start generates a new one`,
    ]);
  }
  return token;
}

/** The admin token `quarry start` uses, and `keep()` to store it once the API listens. */
export interface AdminToken {
  readonly value: string;
  /** Stores a generated token (mode 0600) and says so; nothing when it came from the variable or the file. */
  keep(): void;
}

/**
 * The admin token: from QUARRY_ADMIN_TOKEN, else the one stored in the data dir, else a new one, so
 * /admin is never open. A new token is stored by `keep()`, called once the API listens: a start that
 * fails (the port in use) must not store a token it never showed working. It is shown that one time
 * on a terminal; where stderr is not one (a container's or a service manager's log, CI) only its
 * file is named: a secret does not go to logs.
 */
export function adminTokenFor(config: QuarryConfig): AdminToken {
  const given = config.adminToken ?? storedAdminToken(config);
  if (given) return { value: given, keep() {} };
  const token = randomBytes(24).toString('base64url');
  let kept = false;
  return {
    value: token,
    keep() {
      if (kept) return;
      kept = true;
      const file = adminTokenFile(config);
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(file, `${token}\n`, { mode: 0o600 });
      process.stderr.write(
        process.stderr.isTTY
          ? `Generated an admin token (shown once; stored in ${file}):\n  ${token}\n`
          : `Generated an admin token, stored in ${file} (readable by this user only; not written to this log).\n`,
      );
    },
  };
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
  return tokenFileContent(config) === config.adminToken ? adminTokenFile(config) : 'QUARRY_ADMIN_TOKEN';
}
