import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Requests take turns for the database's connections: while every connection is busy, a write waits for one instead
 * of failing, and only a full queue is refused, at once, with 503 `storage-busy` and Retry-After.
 */
describe.each(ENGINES)('turns for the database on %s', (engine) => {
  let server: TestServer;
  const POOL = 2;
  // Longer than PostgreSQL's connect timeout (5 s), which pooled connections were once waited for under.
  const HOLD_MS = engine === 'postgres' ? 6_000 : 1_000;

  beforeAll(async () => {
    server = await startTestServer(engine, {
      now: '2026-11-23T09:00:00Z',
      env: { DATABASE_POOL_SIZE: String(POOL), RATE_LIMIT_BATCH_ITEMS_PER_MINUTE: '0' },
    });
  });
  afterAll(() => server?.close());

  /** Takes every connection of the node for `ms` (an open transaction each; PGlite has one). */
  const holdEveryConnection = (ms: number) =>
    Promise.all(
      Array.from({ length: engine === 'postgres' ? POOL : 1 }, () =>
        server.service.ctx.storage.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await new Promise((r) => setTimeout(r, ms));
        }),
      ),
    );
  const items = (prefix: string) =>
    Array.from({ length: 20 }, (_, i) => ({
      externalId: `${prefix}-${i}`,
      title: `Queued ${prefix} ${i}`,
      startAt: '2026-12-10T18:30:00+01:00',
      city: 'Zürich',
    }));

  it('lets batches wait for a connection while every one is busy, and answers them all with 200', async () => {
    const keys = await Promise.all([1, 2, 3].map((i) => server.createKey(`Waiting Platform ${i}`, 'ch')));
    const held = holdEveryConnection(HOLD_MS);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const answers = await Promise.all(
      keys.map((key, i) => request(`${server.base}/api/events/batch`, { key, json: { events: items(`w${i}`) } })),
    );
    await held;
    expect(Date.now() - started).toBeGreaterThanOrEqual(HOLD_MS - 200);
    for (const res of answers) expect(res.status, res.text).toBe(200);
  });

  it('refuses at once with 503 storage-busy and Retry-After when the queue is full, changing nothing', async () => {
    const key = await server.createKey('Refused Platform', 'ch');
    const held = holdEveryConnection(HOLD_MS);
    await new Promise((r) => setTimeout(r, 50));
    // Fill the queue (256 waiting: the least it holds) with statements of the node's own.
    const waiting = Array.from({ length: 256 }, () =>
      sql`select 1`.execute(server.service.ctx.storage.db).then(
        () => 'ran',
        (error: { code?: string }) => error.code ?? String(error),
      ),
    );
    const started = Date.now();
    const refused = await request(`${server.base}/api/events/batch`, { key, json: { events: items('r') } });
    expect(Date.now() - started).toBeLessThan(HOLD_MS / 2);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.code).toBe('storage-busy');
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await held;
    // What queued ran once its turn came (a statement of the node's own may have taken a place first, leaving one
    // of the filling ones refused like the batch); the refused batch stored nothing.
    const outcomes = await Promise.all(waiting);
    expect(outcomes.filter((o) => o !== 'ran' && o !== 'storage-busy')).toEqual([]);
    expect(outcomes.filter((o) => o === 'ran').length).toBeGreaterThan(250);
    expect((await request(`${server.base}/api/events?mine=1`, { key })).body.total).toBe(0);
  });
});
