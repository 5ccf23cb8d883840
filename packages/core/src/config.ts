import { isIP } from 'node:net';
import { z } from 'zod';
import { allowHostProblem, isHostName } from './allow-hosts.js';
import { parseDurationMs } from './time.js';

/** Shortest admin token accepted (QUARRY_ADMIN_TOKEN, and the admin router's own check). */
export const MIN_ADMIN_TOKEN_LENGTH = 16;
/**
 * Different characters an admin token needs at least: `aaaaaaaaaaaaaaaa` or `abababababababab` is
 * long enough and guessed at once. A random hex token of 16 characters has fewer than 6 different
 * ones about 3 times in 100,000.
 */
export const MIN_ADMIN_TOKEN_DISTINCT = 6;

/** Whether an admin token of the right length is still one a guesser tries first (see {@link MIN_ADMIN_TOKEN_DISTINCT}). */
export function isGuessableToken(token: string): boolean {
  return new Set(token).size < MIN_ADMIN_TOKEN_DISTINCT;
}

/**
 * What is wrong with an admin token (its surrounding whitespace already trimmed), as an error's
 * "expected ..." part, or null when it will do. A token is also sent as `Authorization: Bearer
 * <token>`, which carries no whitespace: one with a space inside was taken at start-up, opened the
 * login form, and was refused as a bearer everywhere, each try counted as a wrong guess.
 */
export function adminTokenProblem(token: string): string | null {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) return `expected at least ${MIN_ADMIN_TOKEN_LENGTH} characters`;
  if (isGuessableToken(token)) {
    return `expected at least ${MIN_ADMIN_TOKEN_DISTINCT} different characters (a random one: openssl rand -hex 24)`;
  }
  if (/\s/.test(token)) {
    return 'expected no space or other whitespace inside: it is sent as a bearer token, which cannot hold one (a random one: openssl rand -hex 24)';
  }
  // HTTP carries header values as bytes that servers read as Latin-1: a bearer token with a letter
  // beyond ASCII, sent as UTF-8 by curl or a browser, never equals the token.
  if (/[^\x21-\x7e]/.test(token)) {
    return 'expected only ASCII letters, digits and punctuation: it is sent as a bearer token, in which other characters do not arrive as typed (a random one: openssl rand -hex 24)';
  }
  return null;
}

/**
 * Quarry's configuration: one schema, parsed once at start-up from the environment, with CLI
 * flags laid over it (flags > environment > defaults). No other module reads `process.env` but
 * through {@link configValue} (a worker thread or a child process, reading what its starter checked).
 * Each field names its environment variable and its default here and nowhere else.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true, false, 1, 0, yes or no' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
);
/** An integer within bounds, written in decimal digits (`8080`, not `8e3` or `0x1f90`). */
const int = (min: number, max: number) => {
  const error = `expected an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d+$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(min, { error }).max(max, { error }));
};
/** A nice value: 0 (a process's own priority: lowers nothing) to 19, the lowest. */
const nice = int(0, 19);
const url = (example: string) => z.url({ error: `expected an absolute URL such as ${example}` });
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });
/** `off` (null) or a duration such as `7d`, `12h`, `30m`. */
const optionalDuration = z.string().transform((v, ctx) => {
  if (v.trim().toLowerCase() === 'off') return null;
  const ms = parseDurationMs(v);
  if (ms === null || ms === 0) {
    ctx.addIssue({ code: 'custom', message: 'expected off or a duration such as 7d, 12h or 30m' });
    return z.NEVER;
  }
  return ms;
});
/** Comma-separated host names, IP addresses or CIDR ranges; every entry is checked here. */
const hostList = list.transform((entries, ctx) => {
  for (const entry of entries) {
    const problem = allowHostProblem(entry);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `entry "${entry}" ${problem}` });
  }
  return entries;
});
/**
 * A listen address: an IP address or a host name, checked here rather than when the server listens.
 * IPv6 may be written in brackets as in a URL (`[::1]`); the brackets are dropped, as `listen` wants.
 */
const listenHost = z.string().transform((v, ctx) => {
  const bare = v.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 0 && !isHostName(bare)) {
    ctx.addIssue({
      code: 'custom',
      message: 'expected an IP address such as 0.0.0.0 or ::1, or a host name such as localhost',
    });
    return z.NEVER;
  }
  return bare;
});

/** Environment variable → schema. The key of each entry is the environment variable's name. */
const ENV_SCHEMA = {
  /** HTTP port of the API. @defaultValue 8080 */
  PORT: int(0, 65_535).default(8080),
  /** Address the API listens on (IPv6 with or without brackets). @defaultValue 0.0.0.0 */
  QUARRY_HOST: listenHost.default('0.0.0.0'),
  /** Where the embedded index, queue and page blobs live. @defaultValue ./data */
  QUARRY_DATA_DIR: z.string().min(1, { error: 'expected a directory path' }).default('./data'),
  /** Redis URL; set it to run queues (and rate-limit counters) on Redis/BullMQ. */
  REDIS_URL: url('redis://127.0.0.1:6379').optional(),
  /** Meilisearch URL; set it to use Meilisearch as the search index. */
  MEILI_URL: url('http://127.0.0.1:7700').optional(),
  MEILI_MASTER_KEY: z.string().optional(),
  /** Meilisearch index name. @defaultValue pages */
  MEILI_INDEX: z.string().default('pages'),
  /**
   * Hosts the crawler may fetch even though they resolve to private or reserved addresses
   * (comma-separated host names, IP addresses or CIDR ranges: `127.0.0.1,intranet.local,10.1.0.0/16`).
   */
  QUARRY_ALLOW_HOSTS: hostList.default([]),
  /** How many proxy hops to trust for X-Forwarded-For; 0 = use the socket address. @defaultValue 0 */
  QUARRY_TRUST_PROXY: int(0, 10).default(0),
  /**
   * Token for /admin; generated and printed once by `quarry start` when unset. Whitespace around it
   * is dropped (a quoted value or a file read with its line break); inside it is an error.
   */
  QUARRY_ADMIN_TOKEN: z
    .string()
    .trim()
    .superRefine((token, ctx) => {
      const problem = adminTokenProblem(token);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** Public tier: requests per window per client IP. @defaultValue 60 */
  QUARRY_RATE_LIMIT_PUBLIC: int(1, 1_000_000).default(60),
  /** Rate-limit window in seconds of the public (per-IP) tier; keys count per minute. @defaultValue 60 */
  QUARRY_RATE_LIMIT_WINDOW_SECS: int(1, 86_400).default(60),
  /** Default per-minute limit of a dedicated key created without --limit. @defaultValue 600 */
  QUARRY_RATE_LIMIT_KEY_DEFAULT: int(1, 1_000_000).default(600),
  /** External fallback provider. @defaultValue none */
  QUARRY_FALLBACK_PROVIDER: oneOf(['none', 'searxng', 'brave']).default('none'),
  /** Base URL of the SearXNG instance (its JSON API must be enabled). */
  QUARRY_SEARXNG_URL: url('http://127.0.0.1:8888').optional(),
  /** Brave Search API subscription token. */
  QUARRY_BRAVE_API_KEY: z.string().optional(),
  /** Brave Search API base URL (tests point it at a local server). */
  QUARRY_BRAVE_URL: url('https://api.search.brave.com').default('https://api.search.brave.com'),
  /** How long to wait for the fallback provider. @defaultValue 2000 */
  QUARRY_FALLBACK_TIMEOUT_MS: int(100, 30_000).default(2000),
  /** Queue URLs returned by the fallback for crawling. @defaultValue false */
  QUARRY_FALLBACK_CRAWL: bool.default(false),
  /** Chromium executable for JavaScript pages; default: `chromium` found on PATH. */
  CHROMIUM_PATH: z.string().optional(),
  /** User-Agent of the crawler. */
  QUARRY_USER_AGENT: z
    .string()
    .min(1, { error: 'expected a User-Agent string' })
    .default('QuarryBot/0.1 (+https://github.com/quarry-search/quarry)'),
  /** Crawl workers in this process (hosts fetched at once). @defaultValue 8 */
  QUARRY_CRAWL_CONCURRENCY: int(1, 256).default(8),
  /** Delay between two requests to one host, in milliseconds. @defaultValue 1000 */
  QUARRY_HOST_DELAY_MS: int(0, 600_000).default(1000),
  /**
   * With REDIS_URL: how long a crawl or index job stays locked to a worker that stopped renewing the
   * lock (killed), in milliseconds, and how often stalled jobs are looked for; a dead worker's jobs
   * (and the host slot its page held) go to another worker 1 to 2 times this later. @defaultValue 30000
   */
  QUARRY_JOB_LOCK_MS: int(1000, 600_000).default(30_000),
  /**
   * Recrawl pages this long after they were last crawled (`7d`, `12h`), with conditional requests;
   * `off` crawls each page once. @defaultValue off
   */
  QUARRY_RECRAWL_AFTER: optionalDuration.default(null),
  /**
   * Port of a separate, unauthenticated `GET /metrics` (Prometheus) listener on QUARRY_HOST, also
   * opened by `quarry worker` (0: a free port, printed at start); unset: metrics are only on the API
   * port, for the admin token.
   */
  QUARRY_METRICS_PORT: int(0, 65_535).optional(),
  /**
   * Nice value of the threads doing crawl and index work beside a process's main thread (see
   * `lowerThreadPriority`); 0 runs them at the main thread's priority. @defaultValue 10
   */
  QUARRY_WORKER_PRIORITY: nice.default(10),
  /** pino log level. @defaultValue info */
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
} as const;

/**
 * Variables one part of Quarry sets for another it starts, read through the same parsers as the
 * settings but not settings themselves: the starter replaces any value the environment holds.
 */
const INTERNAL_SCHEMA = {
  /**
   * Nice value of the index's fold process, set by the index that starts it (`fold-process.ts` in
   * `@quarry/index-lance`, from its `foldPriority` option). @defaultValue 10
   */
  QUARRY_FOLD_PRIORITY: nice.default(10),
} as const;

const configSchema = z.object(ENV_SCHEMA);

type EnvConfig = z.infer<typeof configSchema>;

/** The validated, frozen configuration. */
export interface QuarryConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly redisUrl: string | undefined;
  readonly meiliUrl: string | undefined;
  readonly meiliMasterKey: string | undefined;
  readonly meiliIndex: string;
  readonly allowHosts: readonly string[];
  readonly trustProxyHops: number;
  readonly adminToken: string | undefined;
  readonly rateLimit: {
    readonly publicPerWindow: number;
    readonly windowSecs: number;
    readonly keyDefaultPerMin: number;
  };
  readonly fallback: {
    readonly provider: 'none' | 'searxng' | 'brave';
    readonly searxngUrl: string | undefined;
    readonly braveApiKey: string | undefined;
    readonly braveUrl: string;
    readonly timeoutMs: number;
    readonly crawlResults: boolean;
  };
  readonly chromiumPath: string | undefined;
  readonly userAgent: string;
  readonly crawlConcurrency: number;
  readonly hostDelayMs: number;
  /** BullMQ job lock and stalled-job check interval (REDIS_URL only). */
  readonly jobLockMs: number;
  /** Milliseconds after which a crawled page is crawled again; null: never. */
  readonly recrawlAfterMs: number | null;
  /** Port of the unauthenticated metrics listener; undefined: none. */
  readonly metricsPort: number | undefined;
  /** Nice value of the threads doing crawl and index work (0: not lowered). */
  readonly workerPriority: number;
  readonly logLevel: EnvConfig['LOG_LEVEL'];
}

/** Flags laid over the environment, keyed by environment variable name (`{ PORT: '9000' }`). */
export type ConfigOverrides = Partial<Record<keyof typeof ENV_SCHEMA, string | undefined>>;

/** Thrown when configuration is invalid; the message lists every problem, one per line. */
export class ConfigError extends Error {
  readonly issues: readonly string[];
  constructor(issues: readonly string[]) {
    super(`invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** The environment variables Quarry reads, for documentation and `--help`. */
export const CONFIG_ENV_VARS = Object.keys(ENV_SCHEMA) as (keyof typeof ENV_SCHEMA)[];

/** `QUARRY_` variables read elsewhere than this schema: not settings, and so never unknown. */
const OTHER_QUARRY_VARS: ReadonlySet<string> = new Set(['QUARRY_FOLD_PRIORITY', 'QUARRY_REQUIRE_SERVERS']);

/**
 * The `QUARRY_` variables in `env` that are no setting (a typo, a name from another release), each
 * with the setting it may mean: `QUARRY_PORT` → `PORT`, `QUARRY_ALLOWED_HOSTS` → none. Quarry
 * ignores them; the CLI warns of them, as `QUARRY_PORT=abc quarry status` was silently fine.
 */
export function unknownSettings(env: Readonly<Record<string, string | undefined>>): { name: string; meant?: string }[] {
  const known = new Set<string>(CONFIG_ENV_VARS);
  return Object.keys(env)
    .filter((name) => name.startsWith('QUARRY_') && !known.has(name) && !OTHER_QUARRY_VARS.has(name))
    .sort()
    .map((name) => {
      const bare = name.slice('QUARRY_'.length);
      return known.has(bare) ? { name, meant: bare } : { name };
    });
}

/**
 * Parses configuration from an environment (normally `process.env`) and flag overrides.
 * Empty strings count as unset; a value of only whitespace is an error, not unset: it was written
 * on purpose (quoted), and a default taking its place would go unnoticed (QUARRY_HOST=" " would
 * listen on every interface). Throws a {@link ConfigError} listing every problem.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  overrides: ConfigOverrides = {},
): QuarryConfig {
  const input: Record<string, string> = {};
  const issues: string[] = [];
  for (const key of CONFIG_ENV_VARS) {
    const value = givenValue(key, overrides[key] ?? env[key], issues);
    if (value !== undefined) input[key] = value;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      issues.push(`${name}=${shownValue(name, input[name])}: ${issue.message}`);
    }
  }
  // What the provider needs is checked on the raw values, so that a problem elsewhere does not hide
  // it until the next start; a given but unusable value has its own issue above.
  const given = (key: keyof typeof ENV_SCHEMA) => (overrides[key] ?? env[key] ?? '') !== '';
  if (input.QUARRY_FALLBACK_PROVIDER === 'searxng' && !given('QUARRY_SEARXNG_URL')) {
    issues.push('QUARRY_SEARXNG_URL=(unset): expected a URL when QUARRY_FALLBACK_PROVIDER=searxng');
  }
  if (input.QUARRY_FALLBACK_PROVIDER === 'brave' && !given('QUARRY_BRAVE_API_KEY')) {
    issues.push('QUARRY_BRAVE_API_KEY=(unset): expected an API key when QUARRY_FALLBACK_PROVIDER=brave');
  }
  if (!parsed.success || issues.length > 0) throw new ConfigError(issues);
  const c = parsed.data;
  return deepFreeze({
    port: c.PORT,
    host: c.QUARRY_HOST,
    dataDir: c.QUARRY_DATA_DIR,
    redisUrl: c.REDIS_URL,
    meiliUrl: c.MEILI_URL,
    meiliMasterKey: c.MEILI_MASTER_KEY,
    meiliIndex: c.MEILI_INDEX,
    allowHosts: c.QUARRY_ALLOW_HOSTS,
    trustProxyHops: c.QUARRY_TRUST_PROXY,
    adminToken: c.QUARRY_ADMIN_TOKEN,
    rateLimit: {
      publicPerWindow: c.QUARRY_RATE_LIMIT_PUBLIC,
      windowSecs: c.QUARRY_RATE_LIMIT_WINDOW_SECS,
      keyDefaultPerMin: c.QUARRY_RATE_LIMIT_KEY_DEFAULT,
    },
    fallback: {
      provider: c.QUARRY_FALLBACK_PROVIDER,
      searxngUrl: c.QUARRY_SEARXNG_URL,
      braveApiKey: c.QUARRY_BRAVE_API_KEY,
      braveUrl: c.QUARRY_BRAVE_URL,
      timeoutMs: c.QUARRY_FALLBACK_TIMEOUT_MS,
      crawlResults: c.QUARRY_FALLBACK_CRAWL,
    },
    chromiumPath: c.CHROMIUM_PATH,
    userAgent: c.QUARRY_USER_AGENT,
    crawlConcurrency: c.QUARRY_CRAWL_CONCURRENCY,
    hostDelayMs: c.QUARRY_HOST_DELAY_MS,
    jobLockMs: c.QUARRY_JOB_LOCK_MS,
    recrawlAfterMs: c.QUARRY_RECRAWL_AFTER,
    metricsPort: c.QUARRY_METRICS_PORT,
    workerPriority: c.QUARRY_WORKER_PRIORITY,
    logLevel: c.LOG_LEVEL,
  });
}

const SETTINGS = { ...ENV_SCHEMA, ...INTERNAL_SCHEMA };

/**
 * One variable read as {@link loadConfig} reads it (empty is unset, so its default), for a worker
 * thread or a child process: the value its starter validated or set, read through the same parser,
 * never a looser one. Throws a {@link ConfigError} naming the variable when the value is bad.
 * @example configValue('QUARRY_WORKER_PRIORITY', process.env) // 10 when unset or empty
 */
export function configValue<K extends keyof typeof SETTINGS>(
  key: K,
  env: Readonly<Record<string, string | undefined>>,
): z.output<(typeof SETTINGS)[K]> {
  const issues: string[] = [];
  const value = givenValue(key, env[key], issues);
  const parsed = SETTINGS[key].safeParse(value);
  if (parsed.success && issues.length === 0) return parsed.data as z.output<(typeof SETTINGS)[K]>;
  for (const issue of parsed.error?.issues ?? []) issues.push(`${key}=${shownValue(key, value)}: ${issue.message}`);
  throw new ConfigError(issues);
}

/**
 * A variable's value as given, or undefined when unset or empty; a value of only whitespace is an
 * issue (it was written on purpose, and a default taking its place would go unnoticed).
 */
function givenValue(key: string, value: string | undefined, issues: string[]): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.trim() !== '') return value;
  issues.push(`${key}=${shownValue(key, value)}: expected a value, not only whitespace (empty means unset)`);
  return undefined;
}

/** Variables whose values are never echoed in an error (they are credentials). */
const SECRET_VARS: ReadonlySet<string> = new Set(['QUARRY_ADMIN_TOKEN', 'MEILI_MASTER_KEY', 'QUARRY_BRAVE_API_KEY']);
const MAX_SHOWN_VALUE_CHARS = 80;

/** A bad value as an error shows it: quoted, shortened, and never for a credential. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  if (SECRET_VARS.has(name)) return `(hidden, ${value.length} characters)`;
  value = withoutUserInfo(value);
  const short = value.length > MAX_SHOWN_VALUE_CHARS ? `${value.slice(0, MAX_SHOWN_VALUE_CHARS)}…` : value;
  return JSON.stringify(short);
}

/**
 * A URL's credentials (`redis://:password@host`, `http://user:pass@searx`) masked, so that an error
 * about `REDIS_URL` does not print its password; found by pattern, since a bad value may not parse.
 */
function withoutUserInfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1***@');
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (child !== null && typeof child === 'object') deepFreeze(child);
  }
  return Object.freeze(value);
}
