import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type AppContext, createContext } from './context.js';
import { buildApp } from './http/app.js';
import { seedIfEmpty } from './importers/seed.js';
import { startIndexSync } from './query/index-sync.js';
import { openStorage } from './storage/database.js';

export interface RunningService {
  app: FastifyInstance;
  ctx: AppContext;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  address: string;
  close(): Promise<void>;
}

/** Opens storage, builds the HTTP app and listens. The one way the server starts, for the CLI and the tests. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const ctx = createContext(config, storage, logger);
  let app: FastifyInstance | undefined;
  let stopSync: (() => Promise<void>) | undefined;
  try {
    if (config.seed) await seedIfEmpty(ctx);
    stopSync = await startIndexSync(ctx);
    app = await buildApp(ctx);
    const address = await app.listen({ port: config.port, host: config.host });
    let closing: Promise<void> | undefined;
    return {
      app,
      ctx,
      address,
      close() {
        closing ??= (async () => {
          await app!.close();
          await stopSync?.();
          await storage.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await stopSync?.().catch(() => {});
    await storage.close();
    throw error;
  }
}
