import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  sql,
} from 'kysely';
import pg from 'pg';
import { busy, KeyedTurns, Turns, type WaitLimits } from './connection-turns.js';
import { DurableNodeFS, pgliteDurability } from './durable-fs.js';
import { lockDataDirectory } from './lock.js';
import type { Database } from './schema.js';

export type Engine = 'pglite' | 'postgres';

export interface StorageOptions {
  /** A PostgreSQL connection string; without it the embedded engine is used. */
  databaseUrl?: string | undefined;
  /** Where the embedded engine keeps its files. */
  dataDir: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** Whether the embedded engine flushes each commit to disk (default), so an OS crash keeps what it acknowledged. */
  embeddedFsync?: boolean;
}

export interface Storage {
  db: Kysely<Database>;
  engine: Engine;
  /**
   * Calls `onNotify` for every NOTIFY on `channel`. On PostgreSQL the listener re-opens by itself and then calls
   * `onReconnect`: notifications sent in between are lost, so re-read what may have changed.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /**
   * Resolves once every notification of a transaction committed before the call has reached the listeners (a round
   * trip on each LISTEN connection, which delivers what it holds first); false while a listener is re-opening, as
   * what it missed is unknown.
   */
  delivered(): Promise<boolean>;
  /**
   * Runs `work` in one transaction holding the advisory lock `key` (one at a time across nodes); waits its turn in
   * this process without holding a connection, so one key's queue cannot starve the pool. Bounded: 503 `storage-busy`.
   */
  transactionUnder<T>(key: string, work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** Runs `work` (many transactions) holding the lock `key`, a session lock on PostgreSQL; waits without bound. */
  whileHolding<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Whether the database answers a trivial statement now (readiness). */
  answers(): Promise<boolean>;
  close(): Promise<void>;
}

/** Connections go in arrival order, with a bounded wait and queue, else 503 `storage-busy` and Retry-After. */
const CONNECTION_WAIT_MS = 10_000;
const WAITING_PER_CONNECTION = 64;
const MIN_WAITING = 256;
/** Writes under one lock wait this long, here and for another node's turn, before 503; imports wait without bound. */
const LOCK_WAIT: WaitLimits = { maxWaiting: 1_000, maxWaitMs: 15_000 };
const UNBOUNDED: WaitLimits = { maxWaiting: Number.POSITIVE_INFINITY, maxWaitMs: Number.POSITIVE_INFINITY };
/** PostgreSQL's code for a lock not had within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Advisory locks are (LOCK_SPACE, hashtext(name)): never meeting another application's locks on a shared server. */
const LOCK_SPACE = 0x74657673; // "tevs"
const lockOf = (key: string) => sql`${sql.lit(LOCK_SPACE)}, hashtext(${key})`;

/**
 * A pool whose connections are handed out by `turns`: pg-pool bounds its own wait by the connection timeout, so a
 * burst of writes would fail instead of taking turns.
 */
function inTurn(pool: pg.Pool, turns: Turns): PostgresPool {
  return {
    async connect() {
      const leave = await turns.enter();
      try {
        const client = await pool.connect();
        const release = client.release;
        client.release = (error?: Error | boolean) => {
          release.call(client, error);
          leave();
        };
        return client as unknown as PostgresPoolClient;
      } catch (error) {
        leave();
        throw error;
      }
    },
    end: () => pool.end(),
  };
}

function connectionTurns(connections: number): Turns {
  return new Turns(connections, {
    maxWaiting: Math.max(MIN_WAITING, WAITING_PER_CONNECTION * connections),
    maxWaitMs: CONNECTION_WAIT_MS,
  });
}

/** `answers` for both engines: a trivial statement that succeeds. */
const answersOf = (db: Kysely<Database>) => () =>
  sql`select 1`
    .execute(db)
    .then(() => true)
    .catch(() => false);

/** `transactionUnder` for both engines. */
function transactionUnder(db: Kysely<Database>, lines: KeyedTurns) {
  return <T>(key: string, work: (trx: Kysely<Database>) => Promise<T>) =>
    lines.run(key, () =>
      db
        .transaction()
        .execute(async (trx) => {
          await sql`SET LOCAL lock_timeout = ${sql.lit(`${LOCK_WAIT.maxWaitMs}ms`)}`.execute(trx);
          await sql`SELECT pg_advisory_xact_lock(${lockOf(key)})`.execute(trx);
          return work(trx);
        })
        .catch((error: { code?: unknown }) => {
          if (error?.code !== LOCK_NOT_AVAILABLE) throw error;
          throw busy('Earlier writes of this owner, on another node, are still running');
        }),
    );
}

/** int8 (count(*) and friends) as numbers: our counts stay far below 2^53. */
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** Opens the database and migrates it: Kysely over node-postgres for both engines (PGlite through its pg adapter). */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : await openPglite(options.dataDir, options.embeddedFsync ?? true);
  try {
    await migrate(storage.db);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

/**
 * Migrations in migrations/ (`NNNN-what`), applied in name order. Imported here rather than by Kysely's
 * FileMigrationProvider, whose import() inside node_modules cannot load the TypeScript sources that tests run.
 */
const migrationProvider: MigrationProvider = {
  async getMigrations() {
    const folder = join(import.meta.dirname, 'migrations');
    const files = (await readdir(folder)).filter((f) => /^\d{4}-[\w-]+\.[jt]s$/.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.[jt]s$/, '')] = (await import(pathToFileURL(join(folder, file)).href)) as Migration;
    }
    return migrations;
  },
};

async function migrate(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** How long opening a PostgreSQL connection may take before the request fails (503) instead of hanging. */
const CONNECT_TIMEOUT_MS = 5_000;

async function openPostgres(connectionString: string, max: number): Promise<Storage> {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A client losing its server must not crash the process: pg-pool only listens for idle clients' errors, so a
  // checked-out client gets its own listener; the statement fails (503) and the pool drops the client on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: inTurn(pool, connectionTurns(max)) }) });
  const listeners = new Set<Listener>();
  const lines = new KeyedTurns(LOCK_WAIT, 'Earlier writes of this owner are still waiting');
  return {
    db,
    engine: 'postgres',
    delivered: async () => (await Promise.all([...listeners].map((listener) => listener.delivered()))).every(Boolean),
    transactionUnder: transactionUnder(db, lines),
    answers: answersOf(db),
    whileHolding: (key, work) =>
      lines.run(
        key,
        () =>
          db.connection().execute(async (connection) => {
            await sql`SELECT pg_advisory_lock(${lockOf(key)})`.execute(connection);
            try {
              return await work();
            } finally {
              await sql`SELECT pg_advisory_unlock(${lockOf(key)})`.execute(connection).catch(() => {});
            }
          }),
        UNBOUNDED,
      ),
    async listen(channel, onNotify, onReconnect) {
      const listener = await listenWithReconnect(connectionString, channel, onNotify, onReconnect);
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      await db.destroy();
    },
  };
}

interface Listener {
  stop(): Promise<void>;
  /** A round trip on the LISTEN connection: the notifications it held have been handled when it returns. */
  delivered(): Promise<boolean>;
}

/**
 * LISTEN on a dedicated connection (LISTEN is per session) that re-opens with backoff when the server goes away,
 * then calls `onReconnect`. The first connect must succeed, so a wrong DATABASE_URL fails at start-up.
 */
async function listenWithReconnect(
  connectionString: string,
  channel: string,
  onNotify: (payload: string) => void,
  onReconnect: (() => void) | undefined,
): Promise<Listener> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = 250;

  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('error', () => {}); // surfaces as 'end' below
    try {
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    client.once('end', () => {
      if (current === client) current = undefined;
      if (!stopped) schedule();
    });
    return client;
  };

  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        const client = await connect();
        if (stopped) {
          await client.end().catch(() => {});
          return;
        }
        current = client;
        delay = 250;
        onReconnect?.();
      } catch {
        delay = Math.min(delay * 2, 5_000);
        schedule();
      }
    }, delay);
    retry.unref();
  };

  current = await connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await current?.end().catch(() => {});
    },
    delivered: async () =>
      current
        ? current.query('SELECT 1').then(
            () => true,
            () => false,
          )
        : false,
  };
}

/**
 * PGlite's page cache: it touches all of PostgreSQL's default at start-up, in memory that never shrinks, while reads
 * are served by the in-memory index and the OS caches the files anyway.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

async function openPglite(dataDir: string, fsync: boolean): Promise<Storage> {
  const unlock = lockDataDirectory(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      fs: new DurableNodeFS(join(dataDir, 'pglite')),
      startParams: [
        ...pgliteDurability(fsync, PGlite.defaultStartParams),
        ...['-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
      ],
    });
    // What the engine wrote before its flushes reached the host (a new data directory) goes to disk now.
    if (fsync) await pglite.exec('CHECKPOINT');
  } catch (error) {
    unlock();
    throw error;
  }
  // One connection (PGlite is one session); requests take turns for it as for PostgreSQL's pool.
  const pool = new pg.Pool(createPgConfig(pglite));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: inTurn(pool, connectionTurns(1)) }) });
  const lines = new KeyedTurns(LOCK_WAIT, 'Earlier writes of this owner are still waiting');
  return {
    db,
    engine: 'pglite',
    transactionUnder: transactionUnder(db, lines),
    answers: answersOf(db),
    // One process writes the embedded database, and PGlite hands its notifications over as each statement ends.
    delivered: async () => true,
    // One process owns the embedded database; a session lock would hold its only connection and block the work.
    whileHolding: (key, work) => lines.run(key, work, UNBOUNDED),
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
