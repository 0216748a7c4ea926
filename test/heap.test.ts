import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { collectGarbage, collectWhenIdle, type IdleCollectionReport, SEMI_SPACE_FLAG } from '../src/runtime/heap.js';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy for `ms`, in slices, as a stream of requests would. */
async function busyFor(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const slice = performance.now() + 20;
    while (performance.now() < slice) {
      // work
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!condition() && performance.now() < end) await sleep(20);
}

// A look counts as busy only when the loop was mostly busy (as `busyFor` keeps it): on a loaded machine the looks
// themselves can take more than the production threshold's share of a 50 ms look.
const idleBelow = 0.5;

describe('collecting garbage when the process idles', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('collects the garbage a burst left once the event loop has idled, and only then', async () => {
    collectGarbage();
    let collections = 0;
    const reports: IdleCollectionReport[] = [];
    stop = collectWhenIdle({
      everyMs: 50,
      idleBelow,
      idleLooks: 3,
      minGrowthBytes: 16 * MB,
      maxYoungBytes: Number.POSITIVE_INFINITY,
      collect: () => {
        collections++;
        collectGarbage();
      },
      onCollected: (report) => reports.push(report),
    });
    // A burst: 32 MB of garbage (one large array: only a full collection frees it), and a busy loop.
    let garbage: number[] | undefined = new Array(4_000_000).fill(0.5);
    expect(garbage.length).toBe(4_000_000);
    garbage = undefined;
    const grown = getHeapStatistics().used_heap_size;
    await busyFor(400);
    expect(collections).toBe(0);

    await waitFor(() => collections > 0, 3_000);
    expect(collections).toBe(1);
    expect(getHeapStatistics().used_heap_size).toBeLessThan(grown - 24 * MB);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.heapMbBefore - reports[0]!.heapMbAfter).toBeGreaterThanOrEqual(24);
    // Still idle, but nothing new to collect: once per burst.
    await sleep(400);
    expect(collections).toBe(1);
  });

  it('leaves an idle process whose heap has not grown alone', async () => {
    collectGarbage();
    let collections = 0;
    stop = collectWhenIdle({
      everyMs: 50,
      idleBelow,
      idleLooks: 2,
      minGrowthBytes: 16 * MB,
      maxYoungBytes: Number.POSITIVE_INFINITY,
      collect: () => collections++,
    });
    await sleep(500);
    expect(collections).toBe(0);
  });

  it('collects for an oversized young generation alone at most three times per burst', async () => {
    let collections = 0;
    // A young generation that never shrinks (here: any size counts as oversized).
    stop = collectWhenIdle({ everyMs: 50, idleBelow, idleLooks: 2, maxYoungBytes: -1, collect: () => collections++ });
    await waitFor(() => collections >= 3, 2_000);
    await sleep(400);
    expect(collections).toBe(3);
    await busyFor(200);
    await waitFor(() => collections >= 6, 2_000);
    await sleep(400);
    expect(collections).toBe(6);
  });
});

describe('the young generation the service starts with', () => {
  it('is what npm start and the tech-events command give node', () => {
    const root = new URL('../', import.meta.url);
    const scripts = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts as Record<string, string>;
    expect(scripts.start).toBe(`node ${SEMI_SPACE_FLAG} bin/tech-events.js serve`);
    const shebang = readFileSync(new URL('bin/tech-events.js', root), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${SEMI_SPACE_FLAG}`);
  });
});
