import { ServiceError } from '../catalogue/errors.js';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import type { OperatorRequest } from '../control/commands.js';
import { askService, type ControlRequest, type ControlResults, NoControlChannel } from '../control/protocol.js';
import { DataDirectoryInUseError, dataDirectoryHolder } from '../storage/lock.js';

/** Opens the database for one command with logs on stderr (stdout carries the report). */
export async function withContext<T>(run: (ctx: AppContext) => Promise<T>): Promise<T> {
  // Loaded when a command opens the database, not when the CLI starts: a usage error answers at once.
  const [{ default: pino }, { createContext }, { createLogger }, { openStorage }] = await Promise.all([
    import('pino'),
    import('../context.js'),
    import('../observability/logger.js'),
    import('../storage/database.js'),
  ]);
  const config = loadConfig();
  const storage = await openStorage({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedFsync: config.embeddedFsync,
  });
  const ctx = createContext(config, storage, createLogger(config.logLevel, pino.destination(2)));
  try {
    return await run(ctx);
  } finally {
    await ctx.httpReader.close();
    await storage.close();
  }
}

/**
 * Does a command's work (`local`, else its use case in control/commands.ts) on the database itself (PostgreSQL, or
 * an embedded database no process holds), or — while `serve` owns the embedded database — asks that service to do it
 * over its control channel, and says so on stderr. Without a channel to ask (a service too old to have one, or
 * another command holding the database), the data directory's "in use" error stands.
 */
export async function onDatabaseOrService<C extends ControlRequest['command']>(
  request: Extract<ControlRequest, { command: C }>,
  local: (ctx: AppContext) => Promise<ControlResults[C]> = async (ctx) => {
    const { runCommand } = await import('../control/commands.js');
    return runCommand(ctx, request as OperatorRequest) as Promise<ControlResults[C]>;
  },
): Promise<ControlResults[C]> {
  const { databaseUrl, dataDir } = loadConfig();
  // A service holding the embedded database is asked at once, without loading what opening it would need.
  const holder = databaseUrl ? undefined : dataDirectoryHolder(dataDir);
  try {
    if (holder === undefined) return await withContext(local);
    throw new DataDirectoryInUseError(dataDir, holder);
  } catch (error) {
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    const reply = await askService<C>(error.dataDir, request).catch((failure: unknown) => {
      throw failure instanceof NoControlChannel ? error : failure;
    });
    console.error(
      `The service running on ${error.dataDir} (process ${reply.pid}) owns its embedded database: it did this.`,
    );
    if (reply.ok) return reply.result;
    throw reply.error.code ? new ServiceError(reply.error.code, reply.error.message) : new Error(reply.error.message);
  }
}
