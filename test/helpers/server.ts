import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Country } from '../../src/places/countries.js';
import { type RunningService, startService } from '../../src/service.js';
import { createDataDir, createTestDatabase, type EngineName } from './engines.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  base: string;
  service: RunningService;
  /** Where the database lives: a data directory (pglite) or a connection string (postgres). */
  storageEnv: Record<string, string>;
  createKey(name?: string, country?: Country): Promise<string>;
  /** Stops the server; `keepData` leaves the database for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * The catalogue suites seed (SEED=1) unless they name a feeds file: the shipped confs.tech snapshot alone, as the
 * `curated` source, so their fixture stays the 190 conferences they were written against (the shipped feeds file
 * adds devopsdays; test/sources-api.test.ts starts that configuration).
 */
export const CURATED_FEEDS_FILE = new URL('../fixtures/feeds-curated.json', import.meta.url).pathname;

export interface TestServerOptions {
  now?: string;
  env?: Record<string, string>;
  /** Reuse the storage of an earlier server (its `storageEnv`). */
  storageEnv?: Record<string, string>;
}

/** A real server on a loopback port, on the given engine, with its own empty database. */
export async function startTestServer(engine: EngineName, options: TestServerOptions = {}): Promise<TestServer> {
  let storageEnv = options.storageEnv;
  let cleanup = async () => {};
  if (!storageEnv) {
    if (engine === 'postgres') {
      const db = await createTestDatabase();
      storageEnv = { DATABASE_URL: db.url };
      cleanup = db.drop;
    } else {
      const dir = createDataDir();
      storageEnv = { DATA_DIR: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  }
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...storageEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED: '0',
    // Tests never reach beyond this machine: no background sync of the shipped feeds (a suite may point
    // FEEDS_FILE at a local HTTP server and turn it on).
    SYNC_INTERVAL_MINUTES: '0',
    LOG_LEVEL: 'silent',
    // Every suite sends many requests from 127.0.0.1: limits are off unless a suite sets them (test/limits.test.ts).
    RATE_LIMIT_READS_PER_MINUTE: '0',
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    ...(options.now ? { TECH_EVENTS_NOW: options.now } : {}),
    FEEDS_FILE: CURATED_FEEDS_FILE,
    ...options.env,
  };
  const config = loadConfig(env);
  const service = await startService(config, createLogger(config.logLevel));
  return {
    base: config.baseUrl,
    service,
    storageEnv,
    async createKey(name = 'Test Host', country: Country = 'ch') {
      const { key } = await service.ctx.keys.create(name, country);
      return key;
    },
    async close({ keepData = false } = {}) {
      await service.close();
      if (!keepData) await cleanup();
    },
  };
}
