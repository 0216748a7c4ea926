import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../src/catalogue/errors.js';
import { createContext } from '../src/context.js';
import { cancelEvent, restoreEvent } from '../src/use-cases/event-lifecycle.js';
import { requireHost } from '../src/use-cases/keys.js';
import { submitEvent } from '../src/use-cases/submit-event.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * A node whose read index cannot read another writer's changes back (the database busy or away) retries until it
 * has caught up, without waiting for another change, and says it is behind meanwhile (/readyz, /metrics). The other
 * writer is a second node on PostgreSQL, and on PGlite, whose database one process owns, a writer in that process
 * without a read index (as the command line writes). Failures are injected into the node's reads of changed rows.
 */

type Op = { kind: 'upsert'; xid: string; title: string } | { kind: 'cancel' | 'restore'; xid: string };
interface Writer {
  write(op: Op): Promise<void>;
}

/**
 * The one refusal a write of the property may meet: cancelling or restoring an externalId never yet written (404).
 * The writers are the node's inputs, so any other failure of theirs fails the test instead of being left unseen.
 */
function expectUnknown(op: Op, status: number, code: unknown): void {
  expect({ status, code }, JSON.stringify(op)).toEqual({ status: 404, code: 'event-not-found' });
}

describe.each(ENGINES)('a read index catching up on %s', (engine) => {
  let node: TestServer;
  let other: TestServer | undefined;
  let writer: Writer;
  let owner: string;
  let hostName: string;
  /** Whether each of the node's next reads of changed rows fails; once used up, they succeed. */
  let failures: boolean[] = [];

  beforeAll(async () => {
    node = await startTestServer(engine, { now: '2026-11-23T09:00:00Z' });
    hostName = 'Catch-up Host';
    const key = await node.createKey(hostName, 'ch');
    const body = (op: Op & { kind: 'upsert' }) => ({
      externalId: op.xid,
      title: op.title,
      startAt: '2027-01-20T18:30:00+01:00',
      city: 'Basel',
    });
    if (engine === 'postgres') {
      other = await startTestServer(engine, { now: '2026-11-23T09:00:00Z', storageEnv: node.storageEnv });
      const api = `${other.base}/api/events`;
      writer = {
        async write(op) {
          if (op.kind === 'upsert') {
            const res = await request(api, { key, json: body(op) });
            expect([200, 201], `${JSON.stringify(op)} → ${res.text}`).toContain(res.status);
          } else {
            const res = await request(api, { key, json: { action: op.kind, externalId: op.xid } });
            if (res.status !== 200) expectUnknown(op, res.status, res.body?.code);
          }
        },
      };
    } else {
      const { config, storage, logger } = node.service.ctx;
      const headless = createContext(config, storage, logger);
      const host = await requireHost(headless, key);
      writer = {
        async write(op) {
          if (op.kind === 'upsert') await submitEvent(headless, key, body(op));
          else {
            const change = op.kind === 'cancel' ? cancelEvent : restoreEvent;
            await change(headless, host, { externalId: op.xid }).catch((error: unknown) => {
              if (!(error instanceof ServiceError)) throw error;
              expectUnknown(op, error.status, error.code);
            });
          }
        },
      };
    }
    owner = `key:${(await requireHost(node.service.ctx, key)).id}`;
    // Fault injection: the node's reads of changed rows fail as scheduled (as they do when the pool is exhausted).
    const events = node.service.ctx.events;
    for (const method of ['findManyByIds', 'listNotEndedSince'] as const) {
      const original = events[method].bind(events) as (arg: never) => Promise<never>;
      events[method] = ((arg: never) =>
        failures.shift()
          ? Promise.reject(Object.assign(new Error('injected: timeout exceeded when trying to connect'), {}))
          : original(arg)) as never;
    }
  });
  afterAll(async () => {
    await other?.close({ keepData: true });
    await node?.close();
  });

  /** The host's listed events as the database holds them, and as each node lists them. */
  const inDatabase = async () =>
    (
      await sql<{ title: string }>`select title from events where owner = ${owner} and lifecycle = 'listed'`.execute(
        node.service.ctx.storage.db,
      )
    ).rows
      .map((r) => r.title)
      .sort();
  const listedOn = async (server: TestServer) =>
    (await request(`${server.base}/api/events?country=ch&org=${encodeURIComponent(hostName)}&limit=100`)).body.events
      .map((e: { title: string }) => e.title)
      .sort();
  const converged = async () => {
    const want = JSON.stringify(await inDatabase());
    for (const server of [node, ...(other ? [other] : [])]) {
      if (JSON.stringify(await listedOn(server)) !== want) return false;
      if ((await request(`${server.base}/readyz`)).status !== 200) return false;
    }
    return true;
  };
  const until = async (check: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return check();
  };

  it('retries a failed refresh by itself until caught up, and says it is behind meanwhile', async () => {
    failures = [true, true, true];
    await writer.write({ kind: 'upsert', xid: 'lonely', title: 'Lonely Change' });
    // No other change follows: the node must catch up by retrying.
    expect(
      await until(async () => {
        const ready = await request(`${node.base}/readyz`);
        return ready.status === 503 && ready.body.checks.caughtUp === false && ready.body.behindSeconds >= 0;
      }, 2_000),
      '/readyz says behind',
    ).toBe(true);
    const metrics = (await request(`${node.base}/metrics`)).text;
    expect(Number(/^read_index_refresh_failures_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(metrics).toMatch(/^read_index_behind_seconds \d/m);
    expect(await until(converged, 5_000), 'caught up').toBe(true);
    expect(failures).toEqual([]);
    expect((await request(`${node.base}/readyz`)).body.checks.caughtUp).toBe(true);
    expect((await request(`${node.base}/metrics`)).text).toMatch(/^read_index_behind_seconds 0$/m);
  });

  it('converges to the database after any writes with any failures of its refreshes', async () => {
    const xid = fc.constantFrom('a', 'b', 'c', 'd');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('upsert' as const), xid, title: fc.constantFrom('One', 'Two', 'Three') }),
      fc.record({ kind: fc.constantFrom('cancel' as const, 'restore' as const), xid }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { maxLength: 5 }),
        fc.boolean(),
        async (ops, schedule, together) => {
          run++;
          failures = [...schedule];
          const titled = ops.map((o) => (o.kind === 'upsert' ? { ...o, title: `${o.title} ${run}` } : o));
          if (together) await Promise.all(titled.map((o) => writer.write(o)));
          else for (const o of titled) await writer.write(o);
          expect(await until(converged, 8_000), `${JSON.stringify(titled)} with failures ${schedule}`).toBe(true);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 12) },
    );
  });
});
