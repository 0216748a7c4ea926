import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueTooLong, TurnQueue } from '../src/runtime/turns.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('TurnQueue', () => {
  it('runs work in arrival order and delivers each result or error to its caller', async () => {
    const turns = new TurnQueue();
    const order: number[] = [];
    const results = await Promise.allSettled([
      turns.run(() => order.push(1)),
      turns.run(() => {
        order.push(2);
        throw new Error('bad prompt');
      }),
      turns.run(() => order.push(3) * 10),
    ]);
    expect(order).toEqual([1, 2, 3]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 1 });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: new Error('bad prompt') });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 30 });
    expect(turns.waiting).toBe(0);
  });

  it('lets the event loop handle timers and I/O between jobs longer than its budget', async () => {
    const turns = new TurnQueue(2);
    const log: string[] = [];
    const jobs = [1, 2, 3].map((n) =>
      turns.run(() => {
        busy(60);
        log.push(`job ${n}`);
      }),
    );
    setTimeout(() => log.push('timer'), 0);
    const io = stat(import.meta.filename).then(() => log.push('I/O'));
    await Promise.all([...jobs, io]);
    // Without turns the three jobs would run back to back and the timer and the I/O reply would wait for all three.
    expect(log.indexOf('timer')).toBeLessThan(log.indexOf('job 2'));
    expect(log.indexOf('I/O')).toBeLessThan(log.indexOf('job 3'));
    expect(log.filter((l) => l.startsWith('job'))).toEqual(['job 1', 'job 2', 'job 3']);
  });

  it('runs short jobs together in one turn, up to its budget', async () => {
    const turns = new TurnQueue(50);
    const log: string[] = [];
    const jobs = [1, 2, 3, 4, 5].map((n) => turns.run(() => log.push(`job ${n}`)));
    setTimeout(() => log.push('timer'), 0);
    await Promise.all(jobs);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Whether a timer set now fires before the first turn or after it is Node's choice (timers and immediates set
    // outside an I/O callback have no fixed order); what the queue decides is that it never fires between the jobs.
    expect(log.filter((l) => l !== 'timer')).toEqual(['job 1', 'job 2', 'job 3', 'job 4', 'job 5']);
    expect([0, 5]).toContain(log.indexOf('timer'));
  });
});

describe('a TurnQueue too long to wait in', () => {
  it('refuses work at once when the backlog would take longer than its caller allows, at the rate it drains', async () => {
    const turns = new TurnQueue(2);
    // Ten jobs of 20 ms: one per turn, so the queue learns it drains about one job per 20 ms.
    const jobs = Array.from({ length: 10 }, () => turns.run(() => busy(20)));
    await new Promise((resolve) => setTimeout(resolve, 90));
    expect(turns.waiting).toBeGreaterThan(3);
    expect(turns.expectedWaitMs()).toBeGreaterThan(40);
    const refused = turns.run(() => 'ranked', 10);
    await expect(refused).rejects.toBeInstanceOf(QueueTooLong);
    await expect(refused).rejects.toMatchObject({ waitMs: expect.any(Number) });
    // Without a bound, or with one it fits in, work still queues and runs.
    await expect(turns.run(() => 'ranked', 60_000)).resolves.toBe('ranked');
    await Promise.all(jobs);
    // An empty queue refuses nothing.
    expect(turns.expectedWaitMs()).toBe(0);
    await expect(turns.run(() => 'ranked', 1)).resolves.toBe('ranked');
  });

  it('refuses work that waited longer than its caller allows when its turn comes, instead of running it', async () => {
    const turns = new TurnQueue(2);
    // Queued together before the queue knows how fast it drains: nothing is refused on arrival.
    const ahead = Array.from({ length: 5 }, () => turns.run(() => busy(20)));
    let ran = false;
    const late = turns.run(() => {
      ran = true;
    }, 30);
    await expect(late).rejects.toMatchObject({ waitMs: expect.any(Number) });
    await expect(late).rejects.toBeInstanceOf(QueueTooLong);
    expect(ran).toBe(false);
    await Promise.all(ahead);
  });
});

describe('a TurnQueue under a crowd', () => {
  it('runs a newcomer’s work before the backlog of the crowd', async () => {
    const turns = new TurnQueue(2);
    const order: string[] = [];
    const crowd = Array.from({ length: 20 }, (_, c) => turns.run(() => order.push(`crowd-${c}`) && busy(5)));
    const newcomer = turns.run(() => order.push('newcomer'), Number.POSITIVE_INFINITY, true);
    await Promise.all([...crowd, newcomer]);
    expect(order.indexOf('newcomer')).toBe(0);
  });

  it('refuses work whose time is up while it still waits, without waiting for its turn to come', async () => {
    const turns = new TurnQueue(2);
    const ahead = Array.from({ length: 20 }, () => turns.run(() => busy(20)));
    const started = performance.now();
    const late = turns.run(() => 'ranked', 50);
    await expect(late).rejects.toBeInstanceOf(QueueTooLong);
    // Its turn would have come after the twenty ahead (400 ms of work): refused at its limit instead.
    expect(performance.now() - started).toBeLessThan(300);
    await Promise.all(ahead);
  });
});

describe('reads whose client has gone', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
  });
  afterAll(() => server?.close());

  it('are not ranked when their turn comes, and answered ones still are', async () => {
    const turns = server.service.ctx.turns;
    const run = turns.run.bind(turns);
    const outcomes: string[] = [];
    // The first request is abandoned once its read is queued, not after a fixed time: on a busy machine a fixed
    // timeout can fire before the request reaches the route, and then there is nothing to leave unranked.
    let queued = () => {};
    const reachedQueue = new Promise<void>((resolve) => {
      queued = resolve;
    });
    // Each read waits 300 ms for its turn, as behind a queue of prompts at 100k events.
    turns.run = (<T>(work: () => T) => {
      queued();
      return new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        run(() => {
          try {
            const result = work();
            outcomes.push('ranked');
            return result;
          } catch (error) {
            outcomes.push((error as { code?: string }).code ?? 'error');
            throw error;
          }
        }),
      );
    }) as typeof turns.run;
    try {
      const url = `${server.base}/api/events?country=ch&q=devops`;
      const client = new AbortController();
      const abandoned = fetch(url, { signal: client.signal });
      await reachedQueue;
      client.abort();
      await expect(abandoned).rejects.toThrow();
      const answered = await fetch(url);
      expect(answered.status).toBe(200);
      expect(outcomes).toEqual(['client-gone', 'ranked']);
    } finally {
      turns.run = run;
    }
  });
});
