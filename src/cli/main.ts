import { parseArgs } from 'node:util';
import pino from 'pino';
import { type Country, isCountry } from '../catalogue/countries.js';
import { ConfigError, loadConfig } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import { collectGarbage, collectWhenIdle, limitHeapGrowth } from '../heap.js';
import { keySummary } from '../http/routes/admin.js';
import { FORMATS, InputError, importerFor, readInput } from '../importers/registry.js';
import { type ImportReport, runImport } from '../importers/run-import.js';
import { FeedsFileError, loadFeeds, runSync, sourceNameError } from '../importers/sync.js';
import { asyncStdout, createLogger, flushLogs } from '../logger.js';
import { startService } from '../service.js';
import { openStorage } from '../storage/database.js';
import { KeysRepository } from '../storage/keys.repository.js';
import { DataDirectoryInUseError } from '../storage/lock.js';

const USAGE = `Usage: tech-events <command>

  serve [--port N] [--host H] [--no-seed]   run the HTTP service
  keys create --name <host name> [--country ch|de|at]
                                            issue a host API key (printed once, as the last line)
  keys list                                 list keys (never their secrets)
  keys revoke <id>                          revoke a key
  import <file-or-url> --format <${FORMATS.join('|')}> --source <name>
         [--country ch|de|at] [--cancel-missing]
                                            import events owned by a source (re-imports update)
  sync [--feeds <file>]                     import every feed of the feeds file (default $FEEDS_FILE
                                            or ./feeds.json) as its source's complete state

Environment: PORT, HOST, BASE_URL, DATA_DIR (embedded engine, default ./data),
DATABASE_URL (PostgreSQL instead), ADMIN_TOKEN, TECH_EVENTS_NOW, LOG_LEVEL, FEEDS_FILE,
SYNC_INTERVAL_MINUTES, RATE_LIMIT_WRITES_PER_MINUTE, RATE_LIMIT_READS_PER_MINUTE, TRUST_PROXY,
REQUEST_TIMEOUT_MS, HEAP_GROWING_PERCENT, MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS — see the README.`;

class UsageError extends Error {}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, host: { type: 'string' }, 'no-seed': { type: 'boolean' } },
  });
  const env = { ...process.env };
  if (values.port !== undefined) env.PORT = values.port;
  if (values.host !== undefined) env.HOST = values.host;
  if (values['no-seed']) env.SEED = '0';
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel, asyncStdout());
  const service = await startService(config, logger);
  // Once the read index is loaded: while it loads, the live heap grows from nothing, and 20 % steps would make a
  // full collection of it every few megabytes. A process-wide setting, so made here, where the process is the
  // service (tests start services in their workers). V8 sets the next limit as a full collection ends: one now, so
  // the limit holds from the start (100k events: else ~290 MB until the first one).
  if (limitHeapGrowth(config.heapGrowingPercent)) collectGarbage();
  // Process-wide too: after a burst of requests, the garbage it left is collected once the service idles.
  const stopCollecting = collectWhenIdle({
    onCollected: (report) => logger.info(report, 'collected garbage while idle'),
  });
  logger.info(
    { engine: service.ctx.storage.engine, baseUrl: config.baseUrl },
    `tech-events listening at ${service.address}`,
  );
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    stopCollecting();
    await service.close();
    await flushLogs(logger);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

type KeysCommand =
  | { action: 'create'; name: string; country: Country }
  | { action: 'list' }
  | { action: 'revoke'; id: string };

/** Validates the arguments before the database is opened, so a typo fails fast. */
function parseKeysCommand(args: string[]): KeysCommand {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, country: { type: 'string' } } });
    const name = values.name?.trim();
    if (!name) throw new UsageError('keys create needs --name <host name>');
    const country = values.country ?? 'ch';
    if (!isCountry(country)) throw new UsageError('--country must be ch, de or at');
    return { action, name, country };
  }
  if (action === 'list') return { action };
  if (action === 'revoke') {
    if (!rest[0]) throw new UsageError('keys revoke needs the key id');
    return { action, id: rest[0] };
  }
  throw new UsageError(`Unknown keys command "${action ?? ''}"`);
}

async function keys(args: string[]): Promise<void> {
  const command = parseKeysCommand(args);
  const config = loadConfig();
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const repo = new KeysRepository(storage.db);
    if (command.action === 'create') {
      const { record, key } = await repo.create(command.name, command.country);
      console.log(`Created key ${record.id} for "${record.name}" (${record.country}). It is shown only once:`);
      console.log(key);
    } else if (command.action === 'list') {
      const list = (await repo.list()).map(keySummary);
      if (list.length === 0) console.log('No keys.');
      for (const k of list) {
        console.log(`${k.id}\t${k.country}\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\t${k.name}`);
      }
    } else {
      if (!(await repo.find(command.id))) throw new UsageError(`No key with id "${command.id}"`);
      const revoked = await repo.revoke(command.id);
      console.log(revoked ? `Revoked key ${command.id}.` : `Key ${command.id} was already revoked.`);
    }
  } finally {
    await storage.close();
  }
}

/** parseArgs refuses unknown options with a TypeError: a usage error for the user. */
function strictArgs<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

interface ImportCommand {
  input: string;
  format: string;
  source: string;
  country: Country | undefined;
  cancelMissing: boolean;
}

/** Validates the arguments before anything is read or opened. */
function parseImportCommand(args: string[]): ImportCommand {
  const { values, positionals } = strictArgs(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        source: { type: 'string' },
        country: { type: 'string' },
        'cancel-missing': { type: 'boolean' },
      },
    }),
  );
  const [input, ...extra] = positionals;
  if (!input || extra.length > 0) throw new UsageError('import needs exactly one <file-or-url>');
  if (!values.format || !importerFor(values.format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  if (!values.source) throw new UsageError('import needs --source <name>');
  const sourceError = sourceNameError(values.source);
  if (sourceError) throw new UsageError(`--source ${sourceError}`);
  if (values.country !== undefined && !isCountry(values.country))
    throw new UsageError('--country must be ch, de or at');
  return {
    input,
    format: values.format,
    source: values.source,
    country: values.country as Country | undefined,
    cancelMissing: values['cancel-missing'] ?? false,
  };
}

function printReport(label: string, report: ImportReport): void {
  const { created, updated, unchanged, cancelled, restored, skipped } = report;
  console.log(
    `${label}: created ${created}, updated ${updated}, unchanged ${unchanged}, cancelled ${cancelled}, ` +
      `restored ${restored}, skipped ${skipped.length}`,
  );
  for (const s of skipped) console.log(`  skipped ${s.record}: ${s.message}`);
}

/** Opens the database for one command with logs on stderr (stdout carries the report). */
async function withContext<T>(run: (ctx: AppContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await run(createContext(config, storage, createLogger(config.logLevel, pino.destination(2))));
  } finally {
    await storage.close();
  }
}

async function importCommand(args: string[]): Promise<void> {
  const command = parseImportCommand(args);
  const importer = importerFor(command.format)!;
  // Read before the database is opened: unreadable input changes nothing.
  const input = await readInput(command.input);
  const report = await withContext((ctx) =>
    runImport(ctx, importer, input, {
      source: command.source,
      cancelMissing: command.cancelMissing,
      defaultCountry: command.country,
    }),
  );
  printReport(`${command.format} ${command.input} → source "${command.source}"`, report);
  // Nothing usable at all (e.g. not the format given) is a failure; an empty input is not.
  if (report.touched.length === 0 && report.skipped.length > 0) process.exitCode = 1;
}

async function syncCommand(args: string[]): Promise<void> {
  const { values } = strictArgs(() => parseArgs({ args, options: { feeds: { type: 'string' } } }));
  const feeds = await loadFeeds(values.feeds ?? process.env.FEEDS_FILE ?? './feeds.json');
  if (feeds.length === 0) console.log('No feeds.');
  const results = await withContext((ctx) => runSync(ctx, feeds));
  for (const { feed, report, error } of results) {
    if (report) printReport(`${feed.source} (${feed.format} ${feed.url})`, report);
    else console.log(`${feed.source} (${feed.format} ${feed.url}): FAILED: ${error}`);
  }
  if (results.some((r) => r.error)) process.exitCode = 1;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === 'serve') return serve(args);
  if (command === 'keys') return keys(args);
  if (command === 'import') return importCommand(args);
  if (command === 'sync') return syncCommand(args);
  if (command === undefined || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (
    error instanceof DataDirectoryInUseError ||
    error instanceof ConfigError ||
    error instanceof InputError ||
    error instanceof FeedsFileError
  ) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
