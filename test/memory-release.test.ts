import { describe, expect, it } from 'vitest';
import { MemoryRelease } from '../src/runtime/memory.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

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
    const releases: number[] = [];
    const stop = memory.whenIdle({
      quietMs: 400,
      checkMs: 200,
      growthBytes: -(1024 ** 3),
      onRelease: (r) => releases.push(r.ms),
    });
    try {
      // Busy for 400 ms in slices, the timer running between them: utilisation far above idle.
      for (let i = 0; i < 8; i++) {
        busy(45);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(releases).toEqual([]);
      // Idle from here: two quiet checks release. Few wake-ups, as a callback slowed by a loaded machine counts as
      // busy; up to 4 s, as the checks may fire late there.
      for (let waited = 0; waited < 4000 && releases.length === 0; waited += 500)
        await new Promise((resolve) => setTimeout(resolve, 500));
      expect(releases.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
  });
});
