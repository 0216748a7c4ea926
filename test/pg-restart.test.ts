import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEvents, request } from './helpers/http.js';
import { runCli, type ServerProcess, spawnServer, waitForExit } from './helpers/process.js';
import { freePort } from './helpers/server.js';

/**
 * PostgreSQL restarting under a running service: requests that need the database answer 503 problem+json
 * (`storage-unavailable`, with Retry-After) instead of hanging or crashing, the in-memory reads keep answering,
 * and everything recovers by itself when the database returns — including the LISTEN connection that keeps the
 * read index in step with writes made elsewhere. A private PostgreSQL instance is started for this (never the
 * shared server other suites use).
 */

const PG_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? join(root, version, 'bin') : undefined;
})();

if (!PG_BIN) {
  console.warn('pg-restart.test.ts skipped: no /usr/lib/postgresql/*/bin/initdb on this machine');
}

/** initdb and pg_ctl refuse to run as root: run them as the postgres user then. */
function pgTool(tool: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN!, tool), ...args]]
    : [join(PG_BIN!, tool), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms: number,
): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < ms) {
    try {
      const value = await probe();
      if (value !== undefined) return { value, ms: Date.now() - started };
    } catch (error) {
      last = error;
    }
    await wait(100);
  }
  throw new Error(`${what} did not happen within ${ms} ms (${String(last)})`);
}

describe.skipIf(!PG_BIN)('PostgreSQL restarting under the service', () => {
  let dir: string;
  let dataDir: string;
  let port: number;
  let url: string;
  let server: ServerProcess | undefined;
  let key: string;

  const pgStart = () =>
    pgTool('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(dir, 'postgres.log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
  const pgStop = () => pgTool('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tev-pg-'));
    dataDir = join(dir, 'data');
    if (process.getuid?.() === 0)
      chownSync(
        dir,
        Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      );
    pgTool('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
    port = await freePort();
    pgStart();
    url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const created = await runCli(['keys', 'create', '--name', 'Restart Host'], { DATABASE_URL: url });
    key = created.stdout.trim().split('\n').at(-1)!;
    expect(key, created.stderr).toMatch(/^tev_/);
    server = await spawnServer({ DATABASE_URL: url }, await freePort());
  }, 120_000);

  afterAll(async () => {
    if (server) {
      server.child.kill('SIGKILL');
      await waitForExit(server.child);
    }
    try {
      pgTool('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, keeps in-memory reads up, and recovers by itself', async () => {
    const base = server!.base;
    const api = `${base}/api/events`;
    const event = (externalId: string) => ({
      title: `Restart ${externalId}`,
      startAt: '2030-05-01T18:00:00+02:00',
      city: 'Bern',
      externalId,
    });
    const first = await request(api, { key, json: event('before') });
    expect(first.status).toBe(201);

    // A stream of writes across the whole outage: each is acknowledged or refused cleanly, never a 500.
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let streaming = true;
    const writers = Array.from({ length: 3 }, async (_, w) => {
      for (let i = 0; streaming; i++) {
        const externalId = `stream-${w}-${i}`;
        const res = await request(api, { key, json: event(externalId) }).catch(() => ({
          status: 0,
          text: 'no answer',
        }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) acknowledged.push(externalId);
        else await wait(50); // checked at the end: only 201 and 503 may appear
      }
    });
    await wait(300);

    pgStop();
    const down = Date.now();

    // Everything that needs the database: 503 problem+json, storage-unavailable, Retry-After.
    const needsDb: [string, Parameters<typeof request>[1]][] = [
      [api, { key, json: event('during') }],
      [`${api}?externalId=before`, { key, method: 'DELETE' }],
      [api, { key, json: { action: 'cancel', externalId: 'before' } }],
      [`${api}?mine=1`, { key }],
    ];
    const tail = () =>
      server!
        .output()
        .split('\n')
        .filter((l) => !l.includes('"level":30'))
        .slice(-15)
        .join('\n');
    for (const [target, init] of needsDb) {
      const res = await request(target, init).catch((error) => {
        throw new Error(`${target}: ${String(error)}; server: exit ${server!.child.exitCode}\n${tail()}`);
      });
      expect(res.status, `${target}: ${res.text}`).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 503, code: 'storage-unavailable' });
      expect(res.headers.get('retry-after')).toBe('5');
    }
    expect((await request(`${base}/readyz`)).status).toBe(503);
    expect((await request(`${base}/healthz`)).status, 'alive while the database is away').toBe(200);
    expect(Date.now() - down, 'failing fast, not hanging').toBeLessThan(10_000);

    // The in-memory read index keeps serving the public catalogue.
    const listing = await request(`${api}?country=ch`);
    expect(listing.status).toBe(200);
    expect(listing.body.events.map((e: { id: string }) => e.id)).toContain(first.body.id);
    expect((await request(`${base}/ch.md`)).status).toBe(200);
    expect((await request(`${base}/api/calendar?country=ch`)).status).toBe(200);
    expect((await request(first.body.url)).status).toBe(200);
    expect((await request(`${base}/ch/events/${first.body.id}.ics`)).status).toBe(200);

    await wait(1500); // an outage of a couple of seconds
    // (A pg client that loses its server between two statements of a transaction emitted an unhandled 'error'
    // and killed the process, until src/storage/database.ts gave every pooled client a listener.)
    expect(server!.child.exitCode, `the service is still running:\n${tail()}`).toBeNull();

    pgStart();
    const back = await until(
      'a write to succeed again',
      async () => {
        const res = await request(api, { key, json: event('after') });
        return res.status === 201 || res.status === 200 ? res : undefined;
      },
      15_000,
    );
    console.log(`pg-restart: writes succeeded again ${back.ms} ms after PostgreSQL was back`);
    // Ready again once the read index caught up too (its LISTEN connection comes back with backoff, then it
    // re-reads what changed): soon after the first write, not necessarily at once.
    await until(
      '/readyz to answer 200',
      async () => ((await request(`${base}/readyz`)).status === 200 ? true : undefined),
      15_000,
    );
    streaming = false;
    await Promise.all(writers);

    // Nothing acknowledged was lost, nothing refused was stored.
    const mine = await allEvents<{ externalId: string }>(`${api}?mine=1&limit=100`, { key });
    const stored = new Set(mine.map((e) => e.externalId));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.has('during')).toBe(false);
    expect(stored.has('before')).toBe(true);
    expect(stored.has('after')).toBe(true);
    console.log(`pg-restart: write statuses during the run ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()].every((s) => s === 201 || s === 503)).toBe(true);

    // The LISTEN connection came back too: a change made by another process reaches this server's read index.
    const file = join(dir, 'import.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ title: 'Imported After Restart', startAt: '2030-06-01T18:00:00+02:00', city: 'Basel', externalId: 'imp-1' })}\n`,
    );
    const imported = await runCli(['import', file, '--format', 'jsonl', '--source', 'restart-feed'], {
      DATABASE_URL: url,
    });
    expect(imported.status, imported.stderr + imported.stdout).toBe(0);
    const seen = await until(
      'the imported event to reach the read index',
      async () => {
        const res = await request(`${api}?country=ch&q=${encodeURIComponent('Imported After Restart')}`);
        return res.body.events?.some((e: { title: string }) => e.title === 'Imported After Restart') ? true : undefined;
      },
      15_000,
    );
    expect(seen.value).toBe(true);
    expect(server!.child.exitCode, tail()).toBeNull();
    expect(server!.output()).not.toMatch(/unhandled|uncaught/i);
  });
});
