import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { allEvents, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Concurrency: racing first writes of one externalId make exactly one event; racing updates, cancels and restores
 * of one event end in a state that some serial order of the same requests gives, with a complete revision log.
 */

type Op = { kind: 'update'; title: string } | { kind: 'cancel' } | { kind: 'restore' };
type Snapshot = { title: string; lifecycle: string; revision: number; venue: string | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom('Race A', 'Race B', 'Race C').map((title) => ({ kind: 'update' as const, title })),
  fc.constant({ kind: 'cancel' as const }),
  fc.constant({ kind: 'restore' as const }),
);

describe.each(ENGINES)('races on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let api: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-01-15T12:00:00Z' });
    key = await server.createKey('Race Host', 'ch');
    api = `${server.base}/api/events`;
  });
  afterAll(() => server?.close());

  const body = (externalId: string, title: string) => ({
    title,
    startAt: '2026-05-01T18:00:00+02:00',
    city: 'Bern',
    venue: 'Progr',
    externalId,
  });

  const eventRows = async (externalId: string) => {
    const { rows } = await sql<{ id: string }>`select id from events where external_id = ${externalId}`.execute(
      server.service.ctx.storage.db,
    );
    return rows;
  };

  it('makes exactly one event and one create revision from 100 concurrent identical creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () => request(api, { key, json: body('same-100', 'Hundred') })),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const rows = await eventRows('same-100');
    expect(rows).toHaveLength(1);
    const log = await server.service.ctx.events.revisions(rows[0]!.id);
    expect(log.map((r) => [r.revision, r.action])).toEqual([[1, 'create']]);
    const mine = await allEvents<{ externalId: string }>(`${api}?mine=1&limit=100`, { key });
    expect(mine.filter((e) => e.externalId === 'same-100')).toHaveLength(1);
  });

  it('makes exactly one event from 100 concurrent different creates of one externalId, every change logged', async () => {
    const titles = Array.from({ length: 100 }, (_, i) => `Variant ${i}`);
    const results = await Promise.all(titles.map((t) => request(api, { key, json: body('diff-100', t) })));
    expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const rows = await eventRows('diff-100');
    expect(rows).toHaveLength(1);
    const log = await server.service.ctx.events.revisions(rows[0]!.id);
    expect(log.map((r) => r.revision)).toEqual(log.map((_, i) => i + 1));
    expect(log[0]!.action).toBe('create');
    expect(log.slice(1).every((r) => r.action === 'update')).toBe(true);
    // Each revision is one of the submissions, none twice in a row; the stored event is the last one.
    for (const r of log) expect(titles).toContain((r.snapshot as Snapshot).title);
    for (let i = 1; i < log.length; i++) {
      expect((log[i]!.snapshot as Snapshot).title).not.toBe((log[i - 1]!.snapshot as Snapshot).title);
    }
    const event = await server.service.ctx.events.findById(rows[0]!.id);
    expect(event!.title).toBe((log.at(-1)!.snapshot as Snapshot).title);
    expect(event!.revision).toBe(log.length);
  });

  it('ends concurrent updates, cancels and restores in a serial state with a gapless revision log', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 24 }), async (ops) => {
        const externalId = `mix-${n++}`;
        const created = await request(api, { key, json: body(externalId, 'Race A') });
        expect(created.status).toBe(201);
        const id: string = created.body.id;

        const responses = await Promise.all(
          ops.map((o) =>
            o.kind === 'update'
              ? request(api, { key, json: body(externalId, o.title) })
              : o.kind === 'cancel'
                ? request(`${api}?externalId=${externalId}`, { key, method: 'DELETE' })
                : request(api, { key, json: { action: 'restore', externalId } }),
          ),
        );
        for (const r of responses) expect(r.status, r.text).toBe(200);

        const log = await server.service.ctx.events.revisions(id);
        const event = await server.service.ctx.events.findById(id);
        // Complete: revisions 1..n, the event carries n, and the last snapshot is the stored state.
        expect(log.map((r) => r.revision)).toEqual(log.map((_, i) => i + 1));
        expect(event!.revision).toBe(log.length);
        const last = log.at(-1)!.snapshot as Snapshot;
        expect({ title: event!.title, lifecycle: event!.lifecycle }).toEqual({
          title: last.title,
          lifecycle: last.lifecycle,
        });

        // Each revision applies exactly its action to the previous state (a valid serial execution)…
        const states: { title: string; lifecycle: string }[] = [{ title: 'Race A', lifecycle: 'listed' }];
        for (const r of log.slice(1)) {
          const prev = states.at(-1)!;
          const snap = r.snapshot as Snapshot;
          const next = { title: snap.title, lifecycle: snap.lifecycle };
          if (r.action === 'update') {
            expect(next.lifecycle).toBe(prev.lifecycle);
            expect(next.title).not.toBe(prev.title);
            expect((r.submission as { title: string }).title).toBe(snap.title);
          } else {
            expect(r.action === 'cancel' ? prev.lifecycle : next.lifecycle).toBe('listed');
            expect(r.action === 'cancel' ? next.lifecycle : prev.lifecycle).toBe('cancelled');
            expect(next.title).toBe(prev.title);
          }
          states.push(next);
        }

        // …made of exactly the requests that reported a change, and every request that changed nothing fits
        // somewhere in that order where it would change nothing.
        const count = (action: string) => log.filter((r) => r.action === action).length;
        const changedCancels = ops.filter((o, i) => o.kind === 'cancel' && !responses[i]!.body.detail).length;
        const changedRestores = ops.filter((o, i) => o.kind === 'restore' && !responses[i]!.body.detail).length;
        expect(count('cancel')).toBe(changedCancels);
        expect(count('restore')).toBe(changedRestores);
        expect(count('update')).toBeLessThanOrEqual(ops.filter((o) => o.kind === 'update').length);
        ops.forEach((o, i) => {
          const r = responses[i]!;
          if (o.kind === 'cancel' && r.body.detail) expect(states.some((s) => s.lifecycle === 'cancelled')).toBe(true);
          if (o.kind === 'restore' && r.body.detail) expect(states.some((s) => s.lifecycle === 'listed')).toBe(true);
          if (o.kind === 'update') expect(states.some((s) => s.title === o.title)).toBe(true);
        });

        // The read index agrees with the database.
        const mine = await allEvents<{ id: string; title: string; lifecycle: string }>(`${api}?mine=1&limit=100`, {
          key,
        });
        const listed = mine.find((e) => e.id === id)!;
        expect({ title: listed.title, lifecycle: listed.lifecycle }).toEqual({
          title: event!.title,
          lifecycle: event!.lifecycle,
        });
        const pub = await request(`${api}?country=ch&limit=100`);
        const inIndex = pub.body.events.some((e: { id: string }) => e.id === id);
        expect(inIndex).toBe(event!.lifecycle === 'listed');
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  });
});
