import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { allEvents, type Response, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Writes of one host that decide on what they read — above all a batch with `complete: true`, which cancels what it
 * does not name — run one at a time across app nodes: any set of concurrent requests ends as some serial order of
 * them would. On PostgreSQL the requests go to two nodes on one database; on PGlite, where one process owns the
 * database, to the one node.
 */

const NOW = '2026-11-23T09:00:00Z';
const event = (externalId: string, title: string) => ({
  externalId,
  title,
  startAt: '2027-02-10T18:30:00+01:00',
  city: 'Bern',
});

type State = Map<string, { title: string; lifecycle: 'listed' | 'cancelled' }>;
type Op =
  | { kind: 'batch'; complete: boolean; items: [string, string][] }
  | { kind: 'upsert'; xid: string; title: string }
  | { kind: 'cancel'; xid: string }
  | { kind: 'restore'; xid: string };

/** What one request does to the host's events when it runs alone, and what it answers (as compared below). */
function applyOp(state: State, op: Op): string {
  const upsert = (xid: string, title: string) => {
    const current = state.get(xid);
    state.set(xid, { title, lifecycle: current?.lifecycle ?? 'listed' });
    return !current;
  };
  switch (op.kind) {
    case 'upsert':
      return `created:${upsert(op.xid, op.title)}`;
    case 'cancel':
    case 'restore': {
      const current = state.get(op.xid)!;
      const lifecycle = op.kind === 'cancel' ? 'cancelled' : 'listed';
      state.set(op.xid, { ...current, lifecycle });
      return `changed:${current.lifecycle !== lifecycle}`;
    }
    case 'batch': {
      const created = op.items.map(([xid, title]) => upsert(xid, title));
      if (!op.complete) return `created:${created.join()}`;
      const named = new Set(op.items.map(([xid]) => xid));
      for (const xid of named) state.set(xid, { ...state.get(xid)!, lifecycle: 'listed' });
      const cancelled = [...state].filter(([xid, e]) => !named.has(xid) && e.lifecycle === 'listed').map(([x]) => x);
      for (const xid of cancelled) state.set(xid, { ...state.get(xid)!, lifecycle: 'cancelled' });
      return `created:${created.join()} cancelled:${cancelled.sort().join()}`;
    }
  }
}

function answerOf(op: Op, res: Response): string {
  if (op.kind === 'upsert') return `created:${res.body.created}`;
  if (op.kind === 'cancel' || op.kind === 'restore') return `changed:${res.body.detail === undefined}`;
  const created = res.body.results.map((r: { created: boolean }) => r.created).join();
  if (!op.complete) return `created:${created}`;
  const cancelled = res.body.cancelled.map((c: { externalId: string }) => c.externalId).sort();
  return `created:${created} cancelled:${cancelled.join()}`;
}

function* permutations<T>(items: T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (let i = 0; i < items.length; i++) {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) yield [items[i]!, ...rest];
  }
}

/** A serial order of `ops` from `start` that ends in `final` and answers every request as it was answered. */
function serialOrderOf(start: State, ops: Op[], answers: string[], final: State): number[] | undefined {
  const same = (a: State, b: State) =>
    a.size === b.size &&
    [...a].every(([xid, e]) => b.get(xid)?.title === e.title && b.get(xid)?.lifecycle === e.lifecycle);
  for (const order of permutations(ops.map((_, i) => i))) {
    const state: State = new Map([...start].map(([xid, e]) => [xid, { ...e }]));
    if (order.every((i) => applyOp(state, ops[i]!) === answers[i]) && same(state, final)) return order;
  }
  return undefined;
}

describe.each(ENGINES)('serial writes of one host on %s', (engine) => {
  let a: TestServer;
  let b: TestServer;
  let hosts = 0;

  beforeAll(async () => {
    a = await startTestServer(engine, { now: NOW });
    // A second node on the same database: PostgreSQL only (the embedded database belongs to one process).
    b = engine === 'postgres' ? await startTestServer(engine, { now: NOW, storageEnv: a.storageEnv }) : a;
  });
  afterAll(async () => {
    if (b !== a) await b?.close({ keepData: true });
    await a?.close();
  });

  /** A new host with x1, x2, y1, y2 (or the given ids) listed. */
  const newHost = async (ids: string[]) => {
    const name = `Serial Host ${++hosts}`;
    const key = await a.createKey(name, 'ch');
    const seeded = await request(`${a.base}/api/events/batch`, {
      key,
      json: { complete: true, events: ids.map((id) => event(id, `${name} ${id}`)) },
    });
    expect(seeded.status, seeded.text).toBe(200);
    return { key, name };
  };
  const stateOf = async (key: string): Promise<State> => {
    const mine = await allEvents<{ externalId: string; title: string; lifecycle: 'listed' | 'cancelled' }>(
      `${a.base}/api/events?mine=1&limit=100`,
      { key },
    );
    return new Map(mine.map((e) => [e.externalId, { title: e.title, lifecycle: e.lifecycle }]));
  };
  /** Polls until both nodes list exactly the host's listed events (the other node follows within a second). */
  const expectNodesToShow = async (name: string, state: State) => {
    const want = [...state.values()]
      .filter((e) => e.lifecycle === 'listed')
      .map((e) => e.title)
      .sort();
    for (const node of new Set([a, b])) {
      const url = `${node.base}/api/events?country=ch&org=${encodeURIComponent(name)}&limit=100`;
      let titles: string[] = [];
      for (let tries = 0; tries < 40; tries++) {
        titles = (await request(url)).body.events.map((e: { title: string }) => e.title).sort();
        if (JSON.stringify(titles) === JSON.stringify(want)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(titles, node.base).toEqual(want);
    }
  };

  it('ends two concurrent complete batches as one serial order: the later list stays listed, the other is cancelled', async () => {
    for (let trial = 0; trial < 6; trial++) {
      const { key, name } = await newHost(['x1', 'x2', 'y1', 'y2']);
      const [xs, ys] = await Promise.all([
        request(`${a.base}/api/events/batch`, {
          key,
          json: { complete: true, events: [event('x1', `${name} x1`), event('x2', `${name} x2`)] },
        }),
        request(`${b.base}/api/events/batch`, {
          key,
          json: { complete: true, events: [event('y1', `${name} y1`), event('y2', `${name} y2`)] },
        }),
      ]);
      expect([xs.status, ys.status]).toEqual([200, 200]);
      const state = await stateOf(key);
      const listed = [...state].filter(([, e]) => e.lifecycle === 'listed').map(([xid]) => xid);
      expect(
        [
          ['x1', 'x2'],
          ['y1', 'y2'],
        ],
        `trial ${trial}: listed ${listed}`,
      ).toContainEqual(listed.sort());
      // Each batch cancelled the other's pair: the one that ran first found it listed, the later one found its own
      // pair restored by it… and the earlier's pair listed.
      const cancelledBy = (res: Response) => res.body.cancelled.map((c: { externalId: string }) => c.externalId).sort();
      expect(cancelledBy(xs)).toEqual(['y1', 'y2']);
      expect(cancelledBy(ys)).toEqual(['x1', 'x2']);
      await expectNodesToShow(name, state);
    }
  });

  it('ends any concurrent batches, complete batches, updates, cancels and restores as some serial order', async () => {
    const xid = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const title = fc.constantFrom('T1', 'T2', 'T3');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('batch' as const),
        complete: fc.boolean(),
        items: fc.uniqueArray(fc.tuple(xid, title), { minLength: 1, maxLength: 3, selector: ([x]) => x }),
      }),
      fc.record({ kind: fc.constant('upsert' as const), xid, title }),
      fc.record({ kind: fc.constantFrom('cancel' as const, 'restore' as const), xid: fc.constantFrom('a', 'b', 'c') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 5 }), async (ops) => {
        const { key, name } = await newHost(['a', 'b', 'c']);
        const start = await stateOf(key);
        const titled = (t: string) => `${name} ${t}`;
        const send = (o: Op, i: number) => {
          const node = i % 2 === 0 ? a : b;
          if (o.kind === 'batch')
            return request(`${node.base}/api/events/batch`, {
              key,
              json: { complete: o.complete, events: o.items.map(([x, t]) => event(x, titled(t))) },
            });
          if (o.kind === 'upsert')
            return request(`${node.base}/api/events`, { key, json: event(o.xid, titled(o.title)) });
          return request(`${node.base}/api/events`, { key, json: { action: o.kind, externalId: o.xid } });
        };
        const responses = await Promise.all(ops.map(send));
        for (const r of responses) expect([200, 201], r.text).toContain(r.status);
        const final = await stateOf(key);
        const modelOps = ops.map((o): Op => {
          if (o.kind === 'batch') return { ...o, items: o.items.map(([x, t]) => [x, titled(t)]) };
          if (o.kind === 'upsert') return { ...o, title: titled(o.title) };
          return o;
        });
        const answers = ops.map((o, i) => answerOf(o, responses[i]!));
        const order = serialOrderOf(start, modelOps, answers, final);
        expect(
          order,
          `no serial order of ${JSON.stringify(modelOps)} answers ${answers} and ends in ${JSON.stringify([...final])}`,
        ).toBeDefined();
        await expectNodesToShow(name, final);
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 15),
        ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      },
    );
  });
});
