import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceError } from '../catalogue/errors.js';
import { ConfigError, loadConfig } from '../config.js';
import type { RunReport } from '../control/protocol.js';
import { syncSummary } from '../control/server.js';
import { FORMATS, InputError, importerFor, readInput } from '../importers/registry.js';
import { createLogger, flushLogs } from '../observability/logger.js';
import { type Country, isCountry } from '../places/countries.js';
import { warmUpDateParsing } from '../query/read-index.js';
import { DataDirectoryInUseError } from '../storage/lock.js';
import { runImport } from '../use-cases/import-records.js';
import { issueKey, type KeySummary, listKeys, revokeKey, rotateKey, rotateKeySchema } from '../use-cases/keys.js';
import { FeedsFileError, loadFeeds, runCounts, sourceNameError } from '../use-cases/sync-feeds.js';
import { syncAll } from '../use-cases/sync-now.js';
import { CALENDARS_USAGE, calendarsCommand } from './calendars.js';
import { onDatabaseOrService, withContext } from './database-or-service.js';
import { progressDisplay } from './progress.js';
import { PROPOSALS_USAGE, proposalsCommand } from './proposals.js';

const USAGE = `Usage: tech-events <command>

  serve [--port N] [--host H] [--no-seed]   run the HTTP service
  keys create --name <host name> [--country ch|de|at]
                                            issue a host API key (printed once, as the last line)
  keys list                                 list keys (never their secrets)
  keys revoke <id>                          revoke a key
  keys rotate <id> [--grace <duration>]     give a key a new secret (printed once, as the last line); its
                                            events stay; the old secret stops now, or after e.g. 2h
  import <file-or-url> --format <${FORMATS.join('|')}> --source <name>
         [--country ch|de|at] [--cancel-missing]
                                            import events owned by a source (re-imports update)
  sync [--feeds <file>]                     import every enabled feed of the feeds file (default
                                            $FEEDS_FILE, else the shipped feeds.json) as its source's
                                            complete state
${CALENDARS_USAGE}
${PROPOSALS_USAGE}

Environment: PORT, HOST, BASE_URL, DATA_DIR (embedded engine, default ./data),
DATABASE_URL (PostgreSQL instead), ADMIN_TOKEN, TECH_EVENTS_NOW, LOG_LEVEL, FEEDS_FILE,
SYNC_INTERVAL_MINUTES, RATE_LIMIT_WRITES_PER_MINUTE, RATE_LIMIT_READS_PER_MINUTE,
RATE_LIMIT_BATCH_ITEMS_PER_MINUTE, RATE_LIMIT_PROPOSALS_PER_HOUR, TRUST_PROXY,
REQUEST_TIMEOUT_MS, MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS — see docs/operations.md.`;

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
  const logger = createLogger(config.logLevel);
  // The first prompts with a date-like word would otherwise wait for chrono's patterns to compile.
  warmUpDateParsing();
  // Loaded here, not at the top: the HTTP stack (Fastify, the MCP SDK, OpenAPI) is module loading the other
  // commands do not need.
  const { startService } = await import('../service.js');
  const service = await startService(config, logger);
  logger.info(
    { engine: service.ctx.storage.engine, baseUrl: config.baseUrl },
    `tech-events listening at ${service.address}`,
  );
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
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
  | { action: 'revoke'; id: string }
  | { action: 'rotate'; id: string; graceSeconds: number };

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
  if (action === 'rotate') {
    const { values, positionals } = strictArgs(() =>
      parseArgs({ args: rest, allowPositionals: true, options: { grace: { type: 'string' } } }),
    );
    if (positionals.length !== 1) throw new UsageError('keys rotate needs exactly one key id');
    const parsed = rotateKeySchema.safeParse({ grace: values.grace });
    if (!parsed.success) throw new UsageError(`--grace ${parsed.error.issues[0]!.message}`);
    return { action, id: positionals[0]!, graceSeconds: parsed.data.grace ?? 0 };
  }
  throw new UsageError(`Unknown keys command "${action ?? ''}"`);
}

/** Each keys command on the database, or through the running service that owns the embedded one. */
async function keys(args: string[]): Promise<void> {
  const command = parseKeysCommand(args);
  if (command.action === 'create') {
    const { name, country } = command;
    const { summary, key } = await onDatabaseOrService({ command: 'keys.create', name, country }, (ctx) =>
      issueKey(ctx, { name, country }),
    );
    console.log(`Created key ${summary.id} for "${summary.name}" (${summary.country}). It is shown only once:`);
    console.log(key);
  } else if (command.action === 'list') {
    const list = await onDatabaseOrService({ command: 'keys.list' }, (ctx) => listKeys(ctx));
    if (list.length === 0) console.log('No keys.');
    for (const k of list) console.log(`${k.id}\t${k.country}\t${keyState(k)}\t${k.name}`);
  } else if (command.action === 'rotate') {
    const { id, graceSeconds } = command;
    const { summary, key } = await onDatabaseOrService({ command: 'keys.rotate', id, graceSeconds }, (ctx) =>
      rotateKey(ctx, id, { graceSeconds }),
    );
    const previous = summary.previousSecretExpiresAt
      ? `The previous secret works until ${summary.previousSecretExpiresAt}.`
      : 'The previous secret no longer works.';
    console.log(`Rotated key ${summary.id} of "${summary.name}". ${previous} The new key is shown only once:`);
    console.log(key);
  } else {
    const { id } = command;
    const { changed } = await onDatabaseOrService({ command: 'keys.revoke', id }, (ctx) => revokeKey(ctx, id));
    console.log(changed ? `Revoked key ${id}.` : `Key ${id} was already revoked.`);
  }
}

function keyState(k: KeySummary): string {
  if (k.revokedAt) return `revoked ${k.revokedAt}`;
  return k.previousSecretExpiresAt ? `active, previous secret until ${k.previousSecretExpiresAt}` : 'active';
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

function printReport(label: string, report: RunReport, extra = ''): void {
  const { created, updated, unchanged, cancelled, restored, skipped, elsewhere } = report;
  console.log(
    `${label}: created ${created}, updated ${updated}, unchanged ${unchanged}, cancelled ${cancelled}, ` +
      `restored ${restored}, skipped ${skipped.length}` +
      (elsewhere > 0 ? `, outside ch/de/at ${elsewhere}` : '') +
      extra,
  );
  for (const s of skipped) console.log(`  skipped ${s.record}: ${s.message}`);
}

async function importCommand(args: string[]): Promise<void> {
  const command = parseImportCommand(args);
  const importer = importerFor(command.format)!;
  // Read before the database is opened: unreadable input changes nothing.
  const input = await readInput(command.input);
  const progress = progressDisplay();
  const report = await withContext(async (ctx) => {
    const at = ctx.now();
    const result = await runImport(ctx, importer, input, {
      source: command.source,
      cancelMissing: command.cancelMissing,
      defaultCountry: command.country,
      inputName: command.input,
      onProgress: (p) => progress.update(command.source, { phase: 'storing', ...p }),
    });
    progress.stop();
    await ctx.sources.recordRun({
      source: command.source,
      format: command.format,
      url: command.input,
      at,
      counts: runCounts(result),
    });
    return result;
  });
  printReport(`${command.format} ${command.input} → source "${command.source}"`, report);
  // Nothing usable at all (e.g. not the format given) is a failure; an empty input is not.
  if (report.touched.length === 0 && report.skipped.length > 0) process.exitCode = 1;
}

async function syncCommand(args: string[]): Promise<void> {
  const { values } = strictArgs(() => parseArgs({ args, options: { feeds: { type: 'string' } } }));
  // Absolute: a running service asked to sync reads it from its own working directory.
  const feedsFile = resolve(values.feeds ?? loadConfig().feedsFile.path);
  const feeds = await loadFeeds(feedsFile);
  if (!feeds.some((f) => f.enabled !== false)) console.log('No feeds.');
  const progress = progressDisplay();
  const results = await onDatabaseOrService({ command: 'sync', feedsFile }, async (ctx) =>
    (await syncAll(ctx, feeds, { onProgress: (feed, p) => progress.update(feed.source, p) })).map(syncSummary),
  );
  progress.stop();
  for (const { source, format, location, report, error, urls, missing, calendars } of results) {
    const label = `${source} (${format} ${location})`;
    const read = urls > 1 && !calendars ? `; read ${urls - missing} of ${urls} URLs (the others do not exist yet)` : '';
    if (report) printReport(label, report, missing > 0 ? read : '');
    else console.log(`${label}: FAILED: ${error}`);
    for (const c of calendars ?? [])
      console.log(`  calendar ${c.id}: ${c.outcome === 'gone' ? 'GONE' : 'FAILED'}: ${c.error} (its events stay)`);
  }
  if (results.some((r) => r.error)) process.exitCode = 1;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === 'serve') return serve(args);
  if (command === 'keys') return keys(args);
  if (command === 'import') return importCommand(args);
  if (command === 'sync') return syncCommand(args);
  if (command === 'calendars') return calendarsCommand(args, (message) => new UsageError(message));
  if (command === 'proposals') return proposalsCommand(args, (message) => new UsageError(message));
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
  // The service's coded errors, mapped once: well-formed arguments the catalogue refuses (an unknown or revoked key).
  if (error instanceof ServiceError) {
    console.error(`${error.message} (${error.code})`);
    process.exit(1);
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
