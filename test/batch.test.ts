import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { allEvents, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** POST /api/events/batch: many events per request, each stored and refused on its own, idempotent per item. */
const event = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  title: `Batch Meetup ${externalId}`,
  startAt: '2026-12-10T18:30:00+01:00',
  city: 'Zürich',
  ...extra,
});

interface Result {
  externalId?: string;
  id?: string;
  url?: string;
  created?: boolean;
  error?: { status: number; code: string; errors?: { field: string }[] };
}

describe.each(ENGINES)('batch pushes on %s', (engine) => {
  let server: TestServer;
  let key: string;
  const batch = (body: unknown, as = key) => request(`${server.base}/api/events/batch`, { key: as, json: body });
  const mine = (as = key) =>
    allEvents<{ externalId: string; lifecycle: string }>(`${server.base}/api/events?mine=1&limit=100`, { key: as });

  beforeAll(async () => {
    server = await startTestServer(engine, {
      now: '2026-11-23T09:00:00Z',
      env: { RATE_LIMIT_WRITES_PER_MINUTE: '0', RATE_LIMIT_BATCH_ITEMS_PER_MINUTE: '0' },
    });
    key = await server.createKey('Platform', 'ch');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores every good item and refuses a bad one alone, in request order', async () => {
    const res = await batch({
      events: [event('a'), event('b', { title: '' }), event('', { externalId: undefined }), event('c')],
    });
    expect(res.status).toBe(200);
    const results: Result[] = res.body.results;
    expect(results.map((r) => r.externalId)).toEqual(['a', 'b', undefined, 'c']);
    expect(results[0]).toMatchObject({
      id: 'batch-meetup-a',
      created: true,
      url: `${server.base}/ch/events/batch-meetup-a`,
    });
    expect(results[1]!.error).toMatchObject({ status: 422, code: 'invalid-request' });
    expect(results[1]!.error!.errors![0]!.field).toBe('events[1].title');
    expect(results[2]!.error!.errors![0]!.field).toBe('events[2].externalId');
    expect(results[3]).toMatchObject({ created: true });
    const listed = await request(`${server.base}/api/events?country=ch&q=batch+meetup`);
    expect(listed.body.events.map((e: { id: string }) => e.id).sort()).toEqual(['batch-meetup-a', 'batch-meetup-c']);
  });

  it('is idempotent per item: a resend creates nothing and duplicates nothing', async () => {
    const items = ['r1', 'r2', 'r3'].map((id) => event(id));
    expect((await batch({ events: items })).body.results.every((r: Result) => r.created === true)).toBe(true);
    const again = await batch({ events: items });
    expect(again.body.results.map((r: Result) => r.created)).toEqual([false, false, false]);
    const changed = await batch({ events: [event('r1', { title: 'Batch Meetup r1 moved' })] });
    expect(changed.body.results[0]).toMatchObject({ id: 'batch-meetup-r1', created: false });
    const ids = (await mine()).map((e) => e.externalId).filter((id) => id.startsWith('r'));
    expect(ids.sort()).toEqual(['r1', 'r2', 'r3']);
  });

  it('with complete: true cancels what the batch leaves out, and a later complete batch restores it', async () => {
    const host = await server.createKey('Complete Platform', 'ch');
    const all = Array.from({ length: 10 }, (_, i) => event(`c${i}`, { title: `Complete Meetup ${i}` }));
    await batch({ events: all, complete: true }, host);
    const half = await batch({ events: all.slice(0, 5), complete: true }, host);
    expect(half.body.cancelled.map((c: { externalId: string }) => c.externalId).sort()).toEqual([
      'c5',
      'c6',
      'c7',
      'c8',
      'c9',
    ]);
    const states = Object.fromEntries((await mine(host)).map((e) => [e.externalId, e.lifecycle]));
    expect(states.c4).toBe('listed');
    expect(states.c7).toBe('cancelled');
    expect((await request(`${server.base}/api/events?country=ch&q=complete&limit=20`)).body.total).toBe(5);
    const back = await batch({ events: all, complete: true }, host);
    expect(back.body.cancelled).toEqual([]);
    expect((await mine(host)).every((e) => e.lifecycle === 'listed')).toBe(true);
    expect((await request(`${server.base}/api/events?country=ch&q=complete&limit=20`)).body.total).toBe(10);
  });

  it('with complete: true also retires the host’s events sent without an externalId, which no batch can name', async () => {
    const host = await server.createKey('Complete Platform Without Ids', 'ch');
    const loose = await request(`${server.base}/api/events`, {
      key: host,
      json: { title: 'Loose Meetup', startAt: '2026-12-12T18:30:00+01:00', city: 'Bern' },
    });
    expect(loose.status).toBe(201);
    const res = await batch({ events: [event('kept')], complete: true }, host);
    expect(res.status).toBe(200);
    expect(res.body.cancelled).toEqual([{ externalId: null, id: loose.body.id }]);
    const states = Object.fromEntries((await mine(host)).map((e) => [e.externalId, e.lifecycle]));
    expect(states).toEqual({ kept: 'listed', null: 'cancelled' });
    // Restored like any event: by id.
    const back = await request(`${server.base}/api/events`, {
      key: host,
      json: { action: 'restore', id: loose.body.id },
    });
    expect(back.body).toMatchObject({ restored: true });
  });

  it('with complete: true cancels nothing when not one item is usable (a broken list, not an empty one)', async () => {
    const host = await server.createKey('Broken List Platform', 'ch');
    await batch({ events: [event('p1'), event('p2')], complete: true }, host);
    const broken = await batch({ events: [event('p3', { startAt: 'next tuesday' })], complete: true }, host);
    expect(broken.status).toBe(200);
    expect(broken.body.results[0].error).toMatchObject({ status: 422 });
    expect(broken.body.cancelled).toEqual([]);
    expect((await mine(host)).map((e) => e.lifecycle)).toEqual(['listed', 'listed']);
    // One usable item is a list: the rest is cancelled, the refused item (named) is left alone.
    const one = await batch({ events: [event('p1'), event('p2', { title: '' })], complete: true }, host);
    expect(one.body.cancelled).toEqual([]);
    const single = await batch({ events: [event('p1')], complete: true }, host);
    expect(single.body.cancelled.map((c: { externalId: string }) => c.externalId)).toEqual(['p2']);
  });

  it('answers 100 concurrent batches of 20 events all with 200, in turn, and duplicates nothing they share', async () => {
    // Half from one platform (its batches take turns under its lock), half from ten others (they take turns for the
    // database's connections): not one is refused.
    const platform = await server.createKey('Racing Platform', 'ch');
    const others = await Promise.all(Array.from({ length: 10 }, (_, i) => server.createKey(`Other ${i}`, 'ch')));
    const pool = Array.from({ length: 400 }, (_, i) => `race-${i}`);
    const items = (b: number) => Array.from({ length: 20 }, (_, i) => event(pool[(b * 13 + i * 7) % pool.length]!));
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, b) =>
        batch({ events: items(b) }, b % 2 === 0 ? platform : others[(b >> 1) % 10]!),
      ),
    );
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.results.every((r: Result) => r.id)).toBe(true);
    }
    const sent = new Set(
      answers.filter((_, b) => b % 2 === 0).flatMap((r) => r.body.results.map((x: Result) => x.externalId)),
    );
    const stored = (await mine(platform)).map((e) => e.externalId);
    expect(stored.length).toBe(new Set(stored).size);
    expect(new Set(stored)).toEqual(sent);
  });

  it('refuses a malformed envelope whole', async () => {
    const tooMany = await batch({ events: Array.from({ length: 1001 }, (_, i) => event(`m${i}`)) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0].field).toBe('events');
    expect((await batch({ events: [] })).status).toBe(422);
    expect((await batch({ items: [event('x')] })).status).toBe(422);
    expect((await request(`${server.base}/api/events/batch`, { json: { events: [event('x')] } })).status).toBe(401);
    const big = await request(`${server.base}/api/events/batch`, {
      key,
      body: JSON.stringify({ events: [event('x', { description: 'x'.repeat(6 * 1024 * 1024) })] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
  });
});

describe('batch rate limits', () => {
  it('counts each item of a batch against the key’s items per minute, and refuses a batch that does not fit', async () => {
    const server = await startTestServer('pglite', {
      now: '2026-11-23T09:00:00Z',
      env: { RATE_LIMIT_BATCH_ITEMS_PER_MINUTE: '30' },
    });
    try {
      const key = await server.createKey('Limited Platform', 'ch');
      const send = (prefix: string, n: number) =>
        request(`${server.base}/api/events/batch`, {
          key,
          json: { events: Array.from({ length: n }, (_, i) => event(`${prefix}${i}`)) },
        });
      expect((await send('first', 20)).status).toBe(200);
      const refused = await send('second', 20);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate-limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.detail).toMatch(/10 of 30 batch items/);
      // Nothing of the refused batch was stored; a batch that fits still goes through.
      expect((await request(`${server.base}/api/events?mine=1`, { key })).body.total).toBe(20);
      expect((await send('third', 10)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
