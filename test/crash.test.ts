import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createDataDir, createTestDatabase, ENGINES } from './helpers/engines.js';
import { allEvents, request } from './helpers/http.js';
import { runCli, spawnServer, waitForExit } from './helpers/process.js';
import { freePort } from './helpers/server.js';

describe.each(ENGINES)('SIGKILL during writes on %s', (engine) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('keeps every acknowledged write after a restart', async () => {
    let env: Record<string, string>;
    if (engine === 'postgres') {
      const db = await createTestDatabase();
      cleanups.push(db.drop);
      env = { DATABASE_URL: db.url };
    } else {
      const dir = createDataDir('tev-crash-');
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      env = { DATA_DIR: dir };
    }
    const key = (await runCli(['keys', 'create', '--name', 'Crash Host'], env)).stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^tev_/);

    const first = await spawnServer(env, await freePort());
    const acknowledged: string[] = [];
    /** Answers other than 201: none may come, the kill ends the server without one. */
    const others: string[] = [];
    let stop = false;
    // A stream of writes; SIGKILL lands while some are in flight.
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await request(`${first.base}/api/events`, {
            key,
            json: {
              title: `Crash ${w}-${i}`,
              startAt: '2030-05-01T10:00:00+02:00',
              city: 'Bern',
              externalId: `crash-${w}-${i}`,
            },
          });
          if (res.status === 201) acknowledged.push(`crash-${w}-${i}`);
          else others.push(`${res.status} ${res.text.slice(0, 200)}`);
        } catch (error) {
          if (stop) return; // the server is gone
          throw error;
        }
      }
    });
    // Some writes acknowledged first (the first ones take longest on a busy machine), then SIGKILL.
    const deadline = Date.now() + 30_000;
    while (acknowledged.length <= 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await waitForExit(first.child);
    expect(acknowledged.length).toBeGreaterThan(5);
    expect(others).toEqual([]);

    const second = await spawnServer(env, await freePort());
    try {
      const mine = await allEvents<{ title: string; city: string; start: string }>(
        `${second.base}/api/events?mine=1&limit=100`,
        { key },
      );
      const stored = new Set(mine.map((e) => `crash-${e.title.slice(6)}`));
      const missing = acknowledged.filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      // Nothing half-written: every stored event is complete and has its revision.
      for (const e of mine) {
        expect(e.city).toBe('Bern');
        expect(e.start).toBe('2030-05-01T08:00:00.000Z');
      }
    } finally {
      second.child.kill('SIGTERM');
      await waitForExit(second.child);
    }
  }, 180_000);
});
