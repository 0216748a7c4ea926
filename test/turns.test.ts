import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnQueue } from '../src/runtime/turns.js';
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
