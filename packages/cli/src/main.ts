import { readFileSync } from 'node:fs';
import {
  ConfigError,
  type ConfigOverrides,
  loadConfig,
  parseDurationMs,
  type QuarryConfig,
  unknownSettings,
  ValidationError,
} from '@quarry/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { checkDataDir, type DataDirUse } from './data-dir.js';
import { redisOutOfMemoryProblem } from './redis-problem.js';
import { diskFullProblem, fsProblem, isDiskFull, listenProblem, UsageError } from './usage.js';

// Each command loads its own modules when it runs: `quarry --help` or `quarry keys list` need not
// load the crawler, the API, the MCP server and the search engine (seconds of CPU on a small machine).

/** Flags shared by commands that map onto configuration (flags > environment > defaults). */
interface CommonFlags {
  port?: string;
  data?: string;
}

/** The flag that overrides each variable (flags > environment > defaults). */
const FLAG_OF_VARIABLE = { PORT: '--port', QUARRY_DATA_DIR: '--data' } as const;

function overridesFrom(flags: CommonFlags): ConfigOverrides {
  return { PORT: flags.port, QUARRY_DATA_DIR: flags.data };
}

/**
 * The configuration's problems named as the user gave the values: `--port "99999": expected…` for
 * a flag, not the variable it overrides (`PORT="99999"`), which the user may never have set.
 */
function namingFlags(error: ConfigError, flags: CommonFlags): ConfigError {
  const overrides = overridesFrom(flags);
  const issues = error.issues.map((issue) => {
    for (const [variable, flag] of Object.entries(FLAG_OF_VARIABLE)) {
      const given = overrides[variable as keyof typeof FLAG_OF_VARIABLE];
      if (given !== undefined && given !== '' && issue.startsWith(`${variable}=`)) {
        return `${flag} ${issue.slice(variable.length + 1)}`;
      }
    }
    return issue;
  });
  return new ConfigError(issues);
}

/** Collects a repeatable option's values: `--seeds a.txt --seeds b.txt`. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('must be a positive integer');
  }
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError('must be a whole number, 0 or more');
  return n;
}

/** `--max-pages` and `--max-depth` of `start` and `crawl`: the seeds' budgets. */
const MAX_PAGES_HELP =
  'page budget per seed site (default 1000; larger than a crawled seed had: its pages are crawled again under it)';
const MAX_DEPTH_HELP =
  'link depth from the seed (default 3; deeper than a crawled seed had: its pages are crawled again under it)';
const SEEDS_HELP = 'seeds file: one URL per line, # comments (repeatable)';

function duration(value: string): number {
  const ms = parseDurationMs(value);
  if (ms === null) throw new InvalidArgumentError('must be a duration such as 7d, 12h, 30m or 0');
  return ms;
}

/** The version of this package (`quarry --version`); src/ and dist/ both sit beside package.json. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Stores on Redis leave the data dir alone (`keys`, `crawl` without --wait). */
const unlessRedis = (loaded: QuarryConfig): DataDirUse => (loaded.redisUrl ? 'none' : 'create');

/** SQLite's errors for a database it cannot open or write (permissions changed while running, a file deeper in). */
function isSqliteAccessError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN'));
}

/** Runs the `quarry` command line; resolves to the process exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let exitCode = 0;
  let dataDir: string | undefined;
  let redisUrl: string | undefined;
  const config = (
    flags: CommonFlags,
    use: DataDirUse | ((loaded: QuarryConfig) => DataDirUse) = 'create',
  ): QuarryConfig => {
    let loaded: QuarryConfig;
    for (const { name, meant } of unknownSettings(env)) {
      process.stderr.write(
        `quarry: warning: ${name} is no Quarry setting and is ignored${meant ? ` (did you mean ${meant}?)` : ''}\n`,
      );
    }
    try {
      loaded = loadConfig(env, overridesFrom(flags));
    } catch (error) {
      throw error instanceof ConfigError ? namingFlags(error, flags) : error;
    }
    checkDataDir(loaded.dataDir, typeof use === 'function' ? use(loaded) : use);
    dataDir = loaded.dataDir;
    redisUrl = loaded.redisUrl;
    return loaded;
  };
  const version = packageVersion();
  const program = new Command()
    .name('quarry')
    .description('Quarry: a self-hosted web search engine for AI applications.')
    // One line per usage error, not the whole help text (subcommands inherit this).
    .configureOutput({
      outputError: (text, write) => write(`quarry: ${text.replace(/^error: /, '').trim()} (see --help)\n`),
    })
    .version(version, '-V, --version', 'print the version')
    .exitOverride();

  program
    .command('version')
    .description('Print the version')
    .action(() => {
      process.stdout.write(`${version}\n`);
    });

  program
    .command('start')
    .description('Run everything in one process: the API, the crawler and the indexer (embedded default)')
    .option('--port <n>', 'HTTP port (env PORT)')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .option('--seed <url...>', 'seed URLs to crawl (one or more; repeatable)')
    .option('--seeds <file>', SEEDS_HELP, collect)
    .option('--max-pages <n>', MAX_PAGES_HELP, positiveInt)
    .option('--max-depth <n>', MAX_DEPTH_HELP, nonNegativeInt)
    .action(
      async (flags: CommonFlags & { seed?: string[]; seeds?: string[]; maxPages?: number; maxDepth?: number }) => {
        const { runStart } = await import('./commands/start.js');
        exitCode = await runStart(config(flags), {
          seeds: flags.seed ?? [],
          seedsFiles: flags.seeds ?? [],
          maxPages: flags.maxPages,
          maxDepth: flags.maxDepth,
        });
      },
    );

  program
    .command('serve')
    .description('Run the HTTP API alone')
    .option('--port <n>', 'HTTP port (env PORT)')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .action(async (flags: CommonFlags) => {
      const [
        { createLogger, openQueues, openServices },
        { openMetrics },
        { announce, startApi },
        { shutDown, untilSignal },
        { withStoredAdminToken },
      ] = await Promise.all([
        import('./runtime.js'),
        import('./commands/metrics.js'),
        import('./commands/serve.js'),
        import('./commands/signals.js'),
        import('./commands/admin-token.js'),
      ]);
      const cfg = withStoredAdminToken(config(flags));
      const logger = createLogger(cfg);
      const services = await openServices(cfg, logger);
      // What opened is closed when a later step fails (Redis refused, the port taken): a Redis
      // client left open reconnects for ever and keeps the process alive.
      let queues: Awaited<ReturnType<typeof openQueues>> | undefined;
      let metrics: Awaited<ReturnType<typeof openMetrics>> | undefined;
      let api: Awaited<ReturnType<typeof startApi>>;
      try {
        queues = await openQueues(cfg, logger);
        metrics = await openMetrics(cfg, queues, services.index);
        api = await startApi(services, logger, { queues, metrics: metrics.metrics });
      } catch (error) {
        // Closing a client whose server is gone may wait on it; the error is reported regardless.
        const closing = Promise.allSettled([metrics?.close(), queues?.close(), services.close()]);
        await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
        throw error;
      }
      announce(cfg, api, metrics.listening);
      const signal = await untilSignal();
      logger.info({ signal }, 'shutting down');
      await shutDown(logger, [
        ['the API', () => api.close()],
        ['the metrics', () => metrics.close()],
        ['the queues', () => queues.close()],
        ['the index and stores', () => services.close()],
      ]);
    });

  program
    .command('crawl')
    .description(
      'Enqueue seeds (or, with --recrawl, crawled pages again); with --wait (embedded), crawl until the frontier is empty, then exit',
    )
    .option('--seed <url...>', 'seed URLs (one or more; repeatable)')
    .option('--seeds <file>', SEEDS_HELP, collect)
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .option('--max-pages <n>', MAX_PAGES_HELP, positiveInt)
    .option('--max-depth <n>', MAX_DEPTH_HELP, nonNegativeInt)
    .option(
      '--recrawl <age>',
      'queue pages last crawled at least AGE ago again, with conditional requests (7d, 12h, 0 = all)',
      duration,
    )
    .option('--wait', 'crawl in this process until done, showing progress (alone: crawl what is already queued)')
    .action(
      async (
        flags: CommonFlags & {
          seed?: string[];
          seeds?: string[];
          maxPages?: number;
          maxDepth?: number;
          recrawl?: number;
          wait?: boolean;
        },
      ) => {
        if ((flags.seed ?? []).length === 0 && !flags.seeds && flags.recrawl === undefined && !flags.wait) {
          throw new UsageError(
            'give --seed URL, --seeds FILE or --recrawl AGE, or --wait to crawl what is already queued',
          );
        }
        const { runCrawl } = await import('./commands/crawl.js');
        exitCode = await runCrawl(config(flags, flags.wait ? 'create' : unlessRedis), {
          seeds: flags.seed ?? [],
          seedsFiles: flags.seeds ?? [],
          maxPages: flags.maxPages,
          maxDepth: flags.maxDepth,
          recrawlOlderThanMs: flags.recrawl,
          wait: flags.wait === true,
        });
      },
    );

  program
    .command('import')
    .description('Index ready-made documents from a JSONL file (url, title, body_text, ...)')
    .argument('<file>', 'JSONL file, one document per line')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .option(
      '--batch-size <n>',
      'documents written at a time (default 5000): smaller batches hold less in memory and stop sooner on Ctrl-C, larger ones index faster',
      positiveInt,
    )
    .action(async (file: string, flags: CommonFlags & { batchSize?: number }) => {
      const { runImport } = await import('./commands/import.js');
      exitCode = await runImport(file, config(flags), { batchSize: flags.batchSize });
    });

  program
    .command('reindex')
    .description('Rebuild the embedded search index from the stored pages (after an upgrade; stop the service first)')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .action(async (flags: CommonFlags) => {
      const { runReindex } = await import('./commands/reindex.js');
      exitCode = await runReindex(config(flags));
    });

  program
    .command('worker')
    .description('Run crawl and index workers only (distributed mode, needs REDIS_URL)')
    .option('--data <dir>', 'data directory for page blobs (env QUARRY_DATA_DIR)')
    .option('--role <role>', 'crawl, index or all', 'all')
    .action(async (flags: CommonFlags & { role: string }) => {
      if (!['crawl', 'index', 'all'].includes(flags.role)) throw new UsageError('--role must be crawl, index or all');
      const { runWorker } = await import('./commands/crawl.js');
      exitCode = await runWorker(config(flags, flags.role === 'crawl' ? 'none' : 'create'), {
        crawl: flags.role !== 'index',
        index: flags.role !== 'crawl',
      });
    });

  program
    .command('forget')
    .description(
      'Stop crawling sites and remove their pages: their queued URLs are dropped unfetched, links to them are refused from then on, and their indexed pages leave the index and the page store. A site is a host with its subdomains (example.com), or one port or path of it (example.com/private), as site: reads it',
    )
    .argument('[site...]', 'sites to forget (example.com, https://example.com/private/)')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .option('--keep-pages', 'stop crawling the sites but leave their indexed pages searchable')
    .addOption(
      new Option(
        '--undo',
        'crawl the sites again: their URLs are taken again, and those the forget dropped or whose pages it removed are queued again',
      ).conflicts('keepPages'),
    )
    .addOption(new Option('--list', 'list the forgotten sites').conflicts(['undo', 'keepPages']))
    .action(async (sites: string[], flags: CommonFlags & { keepPages?: boolean; undo?: boolean; list?: boolean }) => {
      const { runForget } = await import('./commands/forget.js');
      exitCode = await runForget(config(flags, 'create'), sites, {
        undo: flags.undo === true,
        list: flags.list === true,
        keepPages: flags.keepPages === true,
      });
    });

  program
    .command('status')
    .description('Show queue depths, crawl counts by state, and why URLs were skipped or failed (with examples)')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .option('--json', 'print JSON')
    .action(async (flags: CommonFlags & { json?: boolean }) => {
      const { runStatus } = await import('./commands/status.js');
      exitCode = await runStatus(config(flags), flags.json === true);
    });

  program
    .command('mcp')
    .description(
      'Serve the MCP tools (search, get_content; crawl_site when QUARRY_ADMIN_TOKEN is set) on stdin/stdout for desktop agents and IDEs',
    )
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .action(async (flags: CommonFlags) => {
      const { runMcp } = await import('./commands/mcp.js');
      // A reader: a typo in a desktop config is warned about on stderr (the client's log).
      exitCode = await runMcp(config(flags, 'existing'));
    });

  const keys = program.command('keys').description('Manage dedicated API keys');
  keys
    .command('create')
    .description('Create a key; it is printed once and stored hashed')
    .requiredOption('--name <name>', 'who the key is for')
    .option('--limit <n/min>', 'requests per minute, e.g. 600/min (default QUARRY_RATE_LIMIT_KEY_DEFAULT)')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .action(async (flags: CommonFlags & { name: string; limit?: string }) => {
      const { createKey } = await import('./commands/keys.js');
      exitCode = await createKey(config(flags, unlessRedis), flags.name, flags.limit);
    });
  keys
    .command('list')
    .description(
      'List keys (never the keys themselves): a header line, then one tab-separated line per key: id, prefix, limit, state (active, or revoked and when), created, name',
    )
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .option('--json', 'print JSON')
    .action(async (flags: CommonFlags & { json?: boolean }) => {
      const { listKeys } = await import('./commands/keys.js');
      exitCode = await listKeys(config(flags, unlessRedis), flags.json === true);
    });
  keys
    .command('revoke')
    .description(
      'Revoke a key by id; every API process refuses it within seconds. A key already revoked is said so (exit 0); an unknown id exits 2',
    )
    .argument('<id>', 'key id from `quarry keys list`')
    .option('--data <dir>', 'data directory (env QUARRY_DATA_DIR)')
    .action(async (id: string, flags: CommonFlags) => {
      const { revokeKey } = await import('./commands/keys.js');
      exitCode = await revokeKey(config(flags, unlessRedis), id);
    });

  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`quarry: ${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError || error instanceof ValidationError) {
      process.stderr.write(`quarry: ${error.message}\n`);
      return 2;
    }
    if (isDiskFull(error) && dataDir !== undefined) {
      process.stderr.write(`quarry: ${diskFullProblem(dataDir)}\n`);
      return 2;
    }
    // A path the user gave (or its parent) that cannot be used: say so in words, not as an errno.
    const problem = fsProblem(error);
    const path = (error as { path?: unknown }).path;
    if (problem !== null && typeof path === 'string') {
      process.stderr.write(`quarry: ${path} ${problem}\n`);
      return 2;
    }
    if (isSqliteAccessError(error) && dataDir !== undefined) {
      process.stderr.write(
        `quarry: a database in QUARRY_DATA_DIR (or --data) "${dataDir}" cannot be opened or written ` +
          `(${(error as Error).message}); check the owner and mode of the directory and its files\n`,
      );
      return 2;
    }
    const listen = listenProblem(error);
    if (listen !== null) {
      process.stderr.write(`quarry: ${listen}\n`);
      return 2;
    }
    // Not the raw "OOM command not allowed…" or "EXECABORT Transaction discarded…" of a full Redis.
    const full = await redisOutOfMemoryProblem(error, redisUrl);
    if (full !== null) {
      process.stderr.write(`quarry: ${full}\n`);
      return 1;
    }
    throw error;
  }
}
