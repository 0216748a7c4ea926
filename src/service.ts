import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createServingContext, type ServingContext } from './context.js';
import { type ControlChannel, openControlChannel } from './control/server.js';
import { buildApp } from './http/app.js';
import { type Feed, loadFeeds } from './importers/feeds.js';
import { webhookPayload } from './render/webhook-json.js';
import { openStorage } from './storage/database.js';
import { sharedSecret } from './storage/settings.repository.js';
import { startIndexSync } from './use-cases/index-sync.js';
import { seedFromFeeds } from './use-cases/seed-catalogue.js';
import { type FeedSchedule, startFeedSchedule } from './use-cases/sync-schedule.js';
import { startWebhooks } from './use-cases/webhook-delivery.js';

/**
 * The kernel's accept queue (capped by net.core.somaxconn): Node's default 511 overflows when many connect while the
 * event loop is busy, and dropped SYNs are retried only after 1, 3, 7… seconds.
 */
const LISTEN_BACKLOG = 4096;

export interface RunningService {
  app: FastifyInstance;
  ctx: ServingContext;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  address: string;
  /** The background sync of the feeds; absent when SYNC_INTERVAL_MINUTES=0. */
  feedSchedule?: FeedSchedule;
  close(): Promise<void>;
}

/** Opens storage, builds the HTTP app and listens. The one way the server starts, for the CLI and the tests. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  // Before the database: a broken feeds file is a configuration error, reported at once.
  const feeds = await loadFeeds(config.feedsFile.path, { optional: !config.feedsFile.named });
  const storage = await openStorage({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    embeddedFsync: config.embeddedFsync,
  });
  const cursorSecret = await sharedSecret(storage, 'cursor-key').catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  const ctx = createServingContext(config, storage, logger, feeds, cursorSecret);
  let app: FastifyInstance | undefined;
  let stopSync: (() => Promise<void>) | undefined;
  let control: ControlChannel | undefined;
  let webhooks: { stop(): Promise<void> } | undefined;
  try {
    if (config.seed) await seedFromFeeds(ctx, feeds);
    stopSync = await startIndexSync(ctx);
    app = await buildApp(ctx);
    const address = await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
    // The embedded database belongs to this process: `tech-events keys …` and `sync` ask it over a local socket.
    if (storage.engine === 'pglite') control = await openControl(ctx, config.dataDir);
    ctx.logger.info(await ctx.sources.upcomingByCountry(ctx.now()), 'upcoming events per country');
    const feedSchedule = startFeeds(ctx, feeds);
    // Every node fans out and delivers webhooks; the database shares the work out (use-cases/webhook-delivery.ts).
    webhooks = startWebhooks(ctx, (type, id, event, at) => webhookPayload(type, id, event, at, config.baseUrl));
    const stopReleasing = ctx.memory.whenIdle({
      onRelease: (released) => ctx.logger.info(released, 'memory released'),
    });
    let closing: Promise<void> | undefined;
    return {
      app,
      ctx,
      address,
      feedSchedule,
      close() {
        closing ??= (async () => {
          stopReleasing();
          await control?.close();
          await app!.close();
          await ctx.jobs.stop();
          await feedSchedule?.stop();
          await webhooks?.stop();
          await stopSync?.();
          await ctx.httpReader.close();
          await storage.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await control?.close().catch(() => {});
    await app?.close().catch(() => {});
    await webhooks?.stop().catch(() => {});
    await stopSync?.().catch(() => {});
    await ctx.httpReader.close().catch(() => {});
    await storage.close();
    throw error;
  }
}

/** The control channel, or none (with a warning) where the system refuses the socket, e.g. a path too long for one. */
async function openControl(ctx: ServingContext, dataDir: string): Promise<ControlChannel | undefined> {
  try {
    const channel = await openControlChannel(ctx, dataDir);
    ctx.logger.info({ socket: channel.path }, 'control channel open: tech-events keys and sync ask this service');
    return channel;
  } catch (error) {
    ctx.logger.warn(
      { err: error, dataDir },
      'no control channel: tech-events keys and sync cannot reach this service (use ADMIN_TOKEN and the admin API)',
    );
    return undefined;
  }
}

/**
 * SYNC_INTERVAL_MINUTES (default 360, 0 = off): sync the feeds and the calendars hosts linked in the background,
 * after listening.
 */
function startFeeds(ctx: ServingContext, feeds: readonly Feed[]): FeedSchedule | undefined {
  const minutes = ctx.config.syncIntervalMinutes;
  const enabled = feeds.filter((f) => f.enabled !== false);
  if (minutes === 0) {
    ctx.logger.info({ feeds: enabled.length, minutes }, 'feed sync off');
    return undefined;
  }
  ctx.logger.info(
    { feeds: enabled.map((f) => f.source), minutes, file: ctx.config.feedsFile.path },
    'feed sync scheduled',
  );
  return startFeedSchedule(ctx, feeds, { intervalMinutes: minutes, resume: true });
}
