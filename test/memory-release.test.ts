import { describe, expect, it } from 'vitest';
import { MemoryRelease } from '../src/runtime/memory.js';
import { runModuleSource } from './helpers/process.js';

describe('giving memory back', () => {
  const memory = new MemoryRelease();

  it('collects now and says what it took and what resident memory was before and after', () => {
    const released = memory.now();
    expect(released.ms).toBeGreaterThanOrEqual(0);
    expect(released.rssBeforeMb).toBeGreaterThan(0);
    expect(released.rssAfterMb).toBeGreaterThan(0);
  });

  it('collects only when resident memory grew by the given amount', () => {
    const now = process.memoryUsage.rss();
    expect(memory.ifGrown(now + 1024 ** 3)).toBeUndefined();
    expect(memory.ifGrown(now - 1, 0)).toBeDefined();
  });

  it('releases once the event loop has been idle, never while it is busy', async () => {
    // In a process of its own: the suite's worker runs other files' leftovers (a pool's timer, a socket closing),
    // whose work on its loop would count as not idle.
    const script = `
      import { MemoryRelease } from './src/runtime/memory.ts';
      const busy = (ms) => { const until = performance.now() + ms; while (performance.now() < until); };
      const releases = [];
      const stop = new MemoryRelease().whenIdle({
        quietMs: 400, checkMs: 200, growthBytes: -(1024 ** 3), onRelease: (r) => releases.push(r.ms),
      });
      // Busy for 800 ms (two quiet spans) in slices, the timer running between them: utilisation far above idle.
      for (let i = 0; i < 16; i++) { busy(45); await new Promise((resolve) => setImmediate(resolve)); }
      const whileBusy = releases.length;
      // Idle from here: two quiet checks release; up to 5 s, as the checks may fire late on a loaded machine.
      for (let waited = 0; waited < 5000 && releases.length === 0; waited += 500)
        await new Promise((resolve) => setTimeout(resolve, 500));
      stop();
      console.log(JSON.stringify({ whileBusy, onceIdle: releases.length }));
    `;
    const stdout = await runModuleSource(script);
    const { whileBusy, onceIdle } = JSON.parse(stdout) as { whileBusy: number; onceIdle: number };
    expect(whileBusy).toBe(0);
    expect(onceIdle).toBeGreaterThan(0);
  });
});
