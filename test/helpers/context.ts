import { rmSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStorage } from '../../src/storage/database.js';
import { createDataDir, createTestDatabase, type EngineName } from './engines.js';

export interface TestContext {
  ctx: AppContext;
  /** The same context with another "now" (time passing between imports). */
  at(now: string): AppContext;
  close(): Promise<void>;
}

/** A use-case context (no HTTP) on the given engine, with its own empty database and a fixed "now". */
export async function openTestContext(engine: EngineName, now: string): Promise<TestContext> {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (engine === 'postgres') {
    const db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
    cleanup = db.drop;
  } else {
    const dir = createDataDir('tev-import-');
    env = { DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const config = loadConfig({ ...env, TECH_EVENTS_NOW: now, LOG_LEVEL: 'silent' });
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const ctx = createContext(config, storage, createLogger('silent'));
  return {
    ctx,
    at: (other) => ({ ...ctx, now: () => new Date(other) }),
    async close() {
      await ctx.httpReader.close();
      await storage.close();
      await cleanup();
    },
  };
}
