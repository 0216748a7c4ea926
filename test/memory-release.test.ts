import { describe, expect, it } from 'vitest';
import { releaseIfGrown, releaseMemory, releaseWhenIdle } from '../src/runtime/memory.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('giving memory back', () => {
  it('collects now and says what it took and what resident memory was before and after', () => {
    const released = releaseMemory();
    expect(released.ms).toBeGreaterThanOrEqual(0);
    expect(released.rssBeforeMb).toBeGreaterThan(0);
    expect(released.rssAfterMb).toBeGreaterThan(0);
  });

  it('collects only when resident memory grew by the given amount', () => {
    const now = process.memoryUsage.rss();
    expect(releaseIfGrown(now + 1024 ** 3)).toBeUndefined();
    expect(releaseIfGrown(now - 1, 0)).toBeDefined();
  });

  it('releases once the event loop has been idle, never while it is busy', async () => {
    const releases: number[] = [];
    const stop = releaseWhenIdle({
      quietMs: 100,
      checkMs: 50,
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
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(releases.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
  });
});
