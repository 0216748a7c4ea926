import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type AppContext, createContext } from './context.js';
import { buildApp } from './http/app.js';
import { seedIfEmpty } from './importers/seed.js';
import { loadFeeds, startSyncTimer, syncIntervalFromEnv } from './importers/sync.js';
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
    const stopFeeds = await startFeedTimer(ctx);
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
          stopFeeds?.();
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

/** SYNC_INTERVAL_MINUTES: import every feed of FEEDS_FILE on a timer inside the server (see `tech-events sync`). */
async function startFeedTimer(ctx: AppContext): Promise<(() => void) | undefined> {
  const minutes = syncIntervalFromEnv();
  if (minutes === undefined) return undefined;
  const feeds = await loadFeeds(process.env.FEEDS_FILE || './feeds.json');
  ctx.logger.info({ feeds: feeds.length, minutes }, 'feed sync scheduled');
  return startSyncTimer(ctx, feeds, minutes, (results) => {
    for (const r of results) {
      if (r.error) ctx.logger.warn({ source: r.feed.source, error: r.error }, 'feed sync failed');
      else if (r.report) {
        const { created, updated, unchanged, cancelled, restored, skipped } = r.report;
        ctx.logger.info(
          { source: r.feed.source, created, updated, unchanged, cancelled, restored, skipped: skipped.length },
          'feed synced',
        );
      }
    }
  });
}
