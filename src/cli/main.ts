import { parseArgs } from 'node:util';
import { type Country, isCountry } from '../catalogue/countries.js';
import { ConfigError, loadConfig } from '../config.js';
import { keySummary } from '../http/routes/admin.js';
import { createLogger } from '../logger.js';
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

Environment: PORT, HOST, BASE_URL, DATA_DIR (embedded engine, default ./data),
DATABASE_URL (PostgreSQL instead), ADMIN_TOKEN, TECH_EVENTS_NOW, LOG_LEVEL.`;

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
  const service = await startService(config, logger);
  logger.info(
    { engine: service.ctx.storage.engine, baseUrl: config.baseUrl },
    `tech-events listening at ${service.address}`,
  );
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await service.close();
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

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === 'serve') return serve(args);
  if (command === 'keys') return keys(args);
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
  if (error instanceof DataDirectoryInUseError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
