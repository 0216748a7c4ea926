import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { runCli, type ServerProcess, spawnServer, waitForExit } from './helpers/process.js';
import { freePort } from './helpers/server.js';

/** Polls until `check` holds; returns how long it took. Fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not within ${limitMs} ms`);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two app nodes on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    const env = { DATABASE_URL: db.url };
    key = (await runCli(['keys', 'create', '--name', 'Two Node Host'], env)).stdout.trim().split('\n').at(-1)!;
    [a, b] = await Promise.all([spawnServer(env, await freePort()), spawnServer(env, await freePort())]);
  });
  afterAll(async () => {
    for (const node of [a, b]) {
      node?.child.kill('SIGTERM');
      if (node) await waitForExit(node.child);
    }
    await drop?.();
  });

  const titlesOn = async (node: ServerProcess) =>
    (await request(`${node.base}/api/events?topic=quantum`)).body.events.map(
      (e: { title: string }) => e.title,
    ) as string[];

  it('shows a write, an update, a cancel and a restore made on one node in the other within a second', async () => {
    const event = {
      externalId: 'q1',
      title: 'Quantum Night',
      startAt: '2030-03-01T18:00:00+01:00',
      city: 'Zürich',
      topics: ['quantum'],
    };
    expect((await request(`${a.base}/api/events`, { key, json: event })).status).toBe(201);
    await within(1000, async () => (await titlesOn(b)).includes('Quantum Night'));

    await request(`${a.base}/api/events`, { key, json: { ...event, title: 'Quantum Night, renamed' } });
    await within(1000, async () => (await titlesOn(b)).includes('Quantum Night, renamed'));

    await request(`${b.base}/api/events?externalId=q1`, { key, method: 'DELETE' });
    await within(1000, async () => (await titlesOn(a)).length === 0);

    await request(`${b.base}/api/events`, { key, json: { action: 'restore', externalId: 'q1' } });
    await within(1000, async () => (await titlesOn(a)).includes('Quantum Night, renamed'));
    expect(await titlesOn(b)).toEqual(['Quantum Night, renamed']);
  });
});
