import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataDirectory } from './lock.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

export type Engine = 'pglite' | 'postgres';

export interface StorageOptions {
  /** A PostgreSQL connection string; without it the embedded engine is used. */
  databaseUrl?: string | undefined;
  /** Where the embedded engine keeps its files. */
  dataDir: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

export interface Storage {
  db: Kysely<Database>;
  engine: Engine;
  /** Calls `onNotify` with the payload of every NOTIFY on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** int8 (count(*) and friends) as numbers: our counts stay far below 2^53. */
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/**
 * Opens the database and brings its schema up to date. One code path for both engines:
 * Kysely over a node-postgres pool, which PGlite serves through its own node-postgres adapter.
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : await openPglite(options.dataDir);
  try {
    await migrate(storage.db);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

async function openPostgres(connectionString: string, max: number): Promise<Storage> {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its server (a restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    engine: 'postgres',
    async listen(channel, onNotify) {
      // A dedicated connection: LISTEN is per session, and pooled sessions come and go.
      const client = new pg.Client({ connectionString });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    async close() {
      await db.destroy();
    },
  };
}

async function openPglite(dataDir: string): Promise<Storage> {
  const unlock = lockDataDirectory(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(join(dataDir, 'pglite'));
  } catch (error) {
    unlock();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool(createPgConfig(pglite)) }) });
  return {
    db,
    engine: 'pglite',
    async listen(channel, onNotify) {
      return pglite.listen(channel, onNotify);
    },
    async close() {
      await db.destroy();
      await pglite.close();
      unlock();
    },
  };
}
