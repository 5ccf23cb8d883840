// Checks the deployment files at the repository root (docker-compose.yml, infra/Dockerfile,
// .env.example, .dockerignore) without Docker: this machine has no engine and no compose plugin.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { CONFIG_ENV_VARS, loadConfig } from '@quarry/core';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');
const CONFIG_VARS = new Set<string>(CONFIG_ENV_VARS);

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  container_name?: string;
  [key: string]: unknown;
}

const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  [key: string]: unknown;
};
const services = compose.services;
const APP_SERVICES = ['api', 'crawler', 'indexer'] as const;

// Keys of the Compose specification used by (or plausible in) this file; a typo fails the test.
const SERVICE_KEYS = new Set([
  'image',
  'build',
  'command',
  'entrypoint',
  'environment',
  'env_file',
  'volumes',
  'ports',
  'expose',
  'healthcheck',
  'depends_on',
  'deploy',
  'restart',
  'init',
  'shm_size',
  'user',
  'read_only',
  'tmpfs',
  'networks',
  'labels',
  'logging',
  'stop_grace_period',
  'ulimits',
  'cap_drop',
  'security_opt',
]);

function service(name: string): Service {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
}

function healthcheckText(name: string): string {
  return (service(name).healthcheck?.test ?? []).join(' ');
}

describe('docker-compose.yml', () => {
  it('declares the five services with known keys only', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'crawler', 'indexer', 'meilisearch', 'redis']);
    for (const key of Object.keys(compose))
      expect(['name', 'services', 'volumes', 'networks'].includes(key) || key.startsWith('x-')).toBe(true);
    for (const [name, s] of Object.entries(services)) {
      for (const key of Object.keys(s)) expect(`${name}.${key}: ${SERVICE_KEYS.has(key)}`).toBe(`${name}.${key}: true`);
    }
  });

  it('pins every pulled image to a version and builds the app from infra/Dockerfile', () => {
    expect(service('meilisearch').image).toMatch(/^getmeili\/meilisearch:v1\.\d+\.\d+$/);
    expect(service('redis').image).toMatch(/^redis:7\.\d+\.\d+$/);
    for (const name of APP_SERVICES) {
      expect(service(name).build).toEqual({ context: '.', dockerfile: 'infra/Dockerfile' });
      expect(service(name).image).toBe('quarry:local');
    }
    expect(composeText).not.toMatch(/:latest\b/);
  });

  it('takes the Meilisearch master key from the environment with no default, in production mode, on a volume', () => {
    const meili = service('meilisearch');
    expect(meili.environment?.MEILI_MASTER_KEY).toMatch(/^\$\{MEILI_MASTER_KEY:\?[^}]*\}$/);
    expect(meili.environment?.MEILI_ENV).toBe('production');
    expect(meili.volumes).toContain('meili-data:/meili_data');
    expect(composeText).not.toMatch(/MEILI_MASTER_KEY:-/);
  });

  it('runs Redis append-only with noeviction, on a volume', () => {
    const command = service('redis').command?.join(' ') ?? '';
    expect(command).toMatch(/--appendonly yes/);
    expect(command).toMatch(/--maxmemory-policy noeviction/);
    expect(service('redis').volumes).toContain('redis-data:/data');
  });

  it('health-checks the API, Redis and Meilisearch, and starts the app once they are healthy', () => {
    expect(healthcheckText('api')).toMatch(/http:\/\/127\.0\.0\.1:8080\/healthz/);
    expect(healthcheckText('redis')).toBe('CMD redis-cli ping');
    expect(healthcheckText('meilisearch')).toMatch(/http:\/\/127\.0\.0\.1:7700\/health\b/);
    for (const name of APP_SERVICES) {
      expect(service(name).depends_on).toEqual({
        redis: { condition: 'service_healthy' },
        meilisearch: { condition: 'service_healthy' },
      });
    }
  });

  it('runs the CLI commands that exist, scales the API by replicas and the crawler by --scale', () => {
    const cli = read('packages/cli/src/main.ts');
    expect(cli).toMatch(/\.command\('serve'\)/);
    expect(cli).toMatch(/\.command\('worker'\)/);
    expect(cli).toMatch(/\['crawl', 'index', 'all'\]/);
    expect(service('api').command?.[0]).toBe('serve');
    expect(service('crawler').command).toEqual(['worker', '--role', 'crawl']);
    expect(service('indexer').command).toEqual(['worker', '--role', 'index']);

    const api = service('api');
    expect(api.deploy?.replicas).toBeGreaterThanOrEqual(1);
    const [published = ''] = api.ports ?? [];
    const hostPorts = /^(\d+)(?:-(\d+))?:(\d+)$/.exec(published);
    expect(hostPorts).not.toBeNull();
    // A range must offer one host port per replica, and the container port must be the API's.
    const [, from = '0', to = from, target] = hostPorts ?? [];
    expect(Number(to) - Number(from) + 1).toBeGreaterThanOrEqual(api.deploy?.replicas ?? 1);
    expect(target).toBe(api.environment?.PORT);

    const crawler = service('crawler');
    expect(crawler.container_name).toBeUndefined();
    expect(crawler.ports).toBeUndefined();
    expect(service('indexer').deploy?.replicas ?? 1).toBe(1);
  });

  it('gives the workers longer than their own close timeout to stop', () => {
    // A worker finishes its pages in flight on SIGTERM, within 25 s even while Redis is away.
    for (const name of ['crawler', 'indexer']) expect(service(name).stop_grace_period).toBe('40s');
  });

  it('shares the page blobs volume at the data dir of the API and the indexer; declares every volume', () => {
    for (const name of ['api', 'indexer']) {
      const dataDir = service(name).environment?.QUARRY_DATA_DIR;
      expect(dataDir).toBe('/data');
      expect(service(name).volumes).toContain(`pages:${dataDir}`);
    }
    const used = Object.values(services).flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0] ?? ''));
    for (const volume of used) expect(Object.keys(compose.volumes)).toContain(volume);
  });

  it('names only environment variables that core/config.ts reads', () => {
    for (const name of APP_SERVICES) {
      for (const key of Object.keys(service(name).environment ?? {}))
        expect(`${key}: ${CONFIG_VARS.has(key)}`).toBe(`${key}: true`);
    }
    const interpolated = [...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1] ?? '');
    expect(interpolated.length).toBeGreaterThan(0);
    for (const key of interpolated) expect(`${key}: ${CONFIG_VARS.has(key)}`).toBe(`${key}: true`);
  });
});

/** The KEY=VALUE lines of a dotenv file, with the comment line above each. */
function parseDotenv(text: string): { key: string; value: string; comment: string }[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    return m ? [{ key: m[1] ?? '', value: m[2] ?? '', comment: lines[i - 1] ?? '' }] : [];
  });
}

describe('.env.example', () => {
  const entries = parseDotenv(read('.env.example'));

  it('lists every configuration variable once, each with a comment', () => {
    expect(entries.map((e) => e.key).sort()).toEqual([...CONFIG_ENV_VARS].sort());
    for (const e of entries) expect(`${e.key}: ${e.comment.startsWith('# ')}`).toBe(`${e.key}: true`);
  });

  it('documents the real defaults: loading it gives the same configuration as an empty environment', () => {
    const env = Object.fromEntries(entries.map((e) => [e.key, e.value]));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});

/**
 * Variables the code reads that are not settings, so in neither `.env.example` nor the configuration
 * table, each with why.
 */
const NOT_SETTINGS: Readonly<Record<string, string>> = {
  LANCE_CPU_THREADS: "the index engine's own variable, documented under the configuration table",
  QUARRY_FOLD_PRIORITY: 'set by the index for its fold process, replacing any value the environment holds',
  QUARRY_REQUIRE_SERVERS: "the tests' (testkit)",
  PATH: "handed on to the CLI's children in its tests",
};

/** The environment variables named in `process.env.X`, `process.env['X']` and `configValue('X'` in the workspaces' source. */
function variablesReadInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const workspace of ['packages', 'apps']) {
    for (const file of readdirSync(`${root}${workspace}`, { recursive: true, encoding: 'utf8' })) {
      if (!/(^|\/)src\/.*\.ts$/.test(file) || file.endsWith('.test.ts') || file.includes('node_modules')) continue;
      const text = read(`${workspace}/${file}`);
      for (const m of text.matchAll(
        /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])|configValue\(['"]([A-Z][A-Z0-9_]*)['"]/g,
      )) {
        found.set(m[1] ?? m[2] ?? m[3] ?? '', `${workspace}/${file}`);
      }
    }
  }
  return found;
}

// QUARRY_WORKER_PRIORITY was once read in thread-priority.ts alone: in no schema, no .env.example.
describe('every variable the code reads', () => {
  it('is a configuration variable (so in .env.example) or a named exception', () => {
    const names = variablesReadInSource();
    expect(names.size).toBeGreaterThan(0);
    for (const [name, file] of names) {
      expect(`${name} (${file}): ${CONFIG_VARS.has(name) || Object.hasOwn(NOT_SETTINGS, name)}`).toBe(
        `${name} (${file}): true`,
      );
    }
    expect(names.has('QUARRY_WORKER_PRIORITY')).toBe(true);
  });

  it("is in README's configuration table if it is a setting, and the table names nothing else", () => {
    const section =
      read('README.md')
        .split(/^## Configuration$/m)[1]
        ?.split(/^## /m)[0] ?? '';
    const documented = new Set(
      section
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split(' | ')[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? '')),
    );
    for (const name of CONFIG_ENV_VARS) expect(`${name}: ${documented.has(name)}`).toBe(`${name}: true`);
    for (const name of documented) {
      expect(`${name}: ${CONFIG_VARS.has(name) || Object.hasOwn(NOT_SETTINGS, name)}`).toBe(`${name}: true`);
    }
  });
});

describe('infra/Dockerfile and .dockerignore', () => {
  const dockerfile = read('infra/Dockerfile');

  it('builds on node:20-bookworm-slim with Chromium and fonts, and runs the CLI as a non-root user', () => {
    const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
    expect(dockerfile).toMatch(/apt-get install[^\n]*\n?[^\n]*\bchromium\b/);
    expect(dockerfile).toMatch(/\bfonts-noto-cjk\b/);
    expect(dockerfile).toMatch(/CHROMIUM_PATH=\/usr\/bin\/chromium/);
    expect(dockerfile).toMatch(/^RUN npm install\b/m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    const users = [...dockerfile.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
    expect(users.length).toBe(1);
    expect(users[0]).not.toMatch(/^(root|0)$/);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "packages\/cli\/bin\/quarry\.js"\]$/m);
  });

  it('keeps dependencies, builds, data, git and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', '/data', '.git', '.env', '**/*.tsbuildinfo'])
      expect(ignored).toContain(entry);
  });
});
