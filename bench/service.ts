/**
 * The bench's service processes: a catalogue prepared through the service's own code, the service started as `npm
 * start` starts it (logging to a file), the bare node:http ceiling, and what is read off them.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from '../scripts/fresh-database.js';
import { serviceNodeFlags } from '../scripts/service-node-flags.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { loadDemoCatalogue } from '../src/demo/load.js';
import { createLogger } from '../src/observability/logger.js';
import { openStorage } from '../src/storage/database.js';
import { KeysRepository } from '../src/storage/keys.repository.js';
import { feedLines } from './mixed.js';

const ROOT = resolve(import.meta.dirname, '..');
/** The instant the bench's catalogues and services take as now. */
export const NOW = '2026-01-05T09:00:00Z';
/** Events of the feed synced during reads (at 100k events and more). */
export const SYNC_EVENTS = 5_000;
export const ADMIN_TOKEN = 'bench-admin-token';

/**
 * The first line of the service's log file that matches, waiting for it to be written. The log goes to a file rather
 * than a pipe into this process: reading ten thousand lines a second here would take time from autocannon, which
 * runs on this thread, and handicap the service against the ceiling (which logs nothing).
 */
export async function waitForLine(child: ChildProcess, logFile: string, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => pattern.test(l));
    if (line) return line;
    if (child.exitCode !== null)
      throw new Error(`service exited with ${child.exitCode}: ${readFileSync(logFile, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resident memory of a process in MB, now or (`VmHWM`) at its peak so far. */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

export async function startCeiling(port: number): Promise<ChildProcess> {
  const child = fork(join(ROOT, 'bench/ceiling.ts'), [String(port)], { execArgv: ['--import', 'tsx'] });
  await new Promise((r) => child.once('message', r));
  return child;
}

/** Where the catalogue lives: the embedded engine (default), or a fresh database on BENCH_DATABASE_URL's server. */
export interface Store {
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function freshStore(): Promise<Store> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) {
    const dir = mkdtempSync(join(tmpdir(), 'tev-bench-'));
    return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database = await createDatabase(server, 'tev_bench');
  return { env: { DATABASE_URL: database.url }, drop: database.drop };
}

/** What the mixed cases need from a prepared catalogue: a host key to write with. */
export interface Prepared {
  eventId: string;
  country: string;
  key: string;
}

export async function prepare(size: number, store: Store): Promise<Prepared> {
  const config = loadConfig({ ...store.env, TECH_EVENTS_NOW: NOW, LOG_LEVEL: 'silent' });
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const ctx = createContext(config, storage, createLogger('silent'));
  const started = performance.now();
  await loadDemoCatalogue(ctx, size);
  const first = (await ctx.events.findById('demo-1'))!;
  const { key } = await new KeysRepository(storage.db).create('Bench writer', 'de');
  await storage.close();
  console.log(`  generated ${size} demo events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { eventId: first.id, country: first.country, key };
}

/** A service process on the catalogue of `store`, logging to a file; with `feed`, FEEDS_FILE names a 5k-event feed. */
export async function startService(
  port: number,
  store: Store,
  feed: boolean,
): Promise<{
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}> {
  const logFile = join(tmpdir(), `tev-bench-${process.pid}-${port}.log`);
  // Without `feed`, an empty feeds file: the service syncs nothing, and not the shipped feeds.json either. A sync
  // reads the file as it is then, so a case may rewrite it (see calendarsSync).
  const feedsFile = feedsFileOf(port);
  const lines = join(tmpdir(), `tev-bench-${process.pid}-feed.jsonl`);
  if (feed) writeFileSync(lines, feedLines(SYNC_EVENTS, new Date(NOW)));
  writeFileSync(feedsFile, JSON.stringify(feed ? [{ source: 'bench-feed', format: 'jsonl', url: lines }] : []));
  const logFd = openSync(logFile, 'w');
  const child = spawn(
    process.execPath,
    [
      // As `npm start` and bin/tech-events.js start it.
      ...serviceNodeFlags(),
      join(ROOT, 'dist/cli/main.js'),
      'serve',
      '--no-seed',
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
    ],
    {
      env: {
        ...process.env,
        ...store.env,
        TECH_EVENTS_NOW: NOW,
        LOG_LEVEL: 'info',
        BASE_URL: `http://127.0.0.1:${port}`,
        // One client address sends everything here: per-client read limits would measure the limiter.
        RATE_LIMIT_READS_PER_MINUTE: '0',
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
        ADMIN_TOKEN,
        FEEDS_FILE: feedsFile,
        SYNC_INTERVAL_MINUTES: '0',
        // The webhooks case's receiver listens on loopback.
        CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8',
      },
      stdio: ['ignore', logFd, 'inherit'],
    },
  );
  closeSync(logFd);
  await waitForLine(child, logFile, /listening/);
  return {
    child,
    logFile,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      // The feed's lines are this service's only when it wrote them: a second node shares the bench's file name.
      for (const file of [logFile, feedsFile, ...(feed ? [lines] : [])]) rmSync(file, { force: true });
    },
  };
}

export const feedsFileOf = (port: number) => join(tmpdir(), `tev-bench-${process.pid}-${port}-feeds.json`);
