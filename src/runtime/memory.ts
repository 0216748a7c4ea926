import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * V8 hands memory back to the system only in a collection that reduces the footprint: the room the young generation
 * grew to under load, old-generation pages a burst filled, the pages it keeps pooled for reuse. It starts one by
 * itself only once it judges the allocation rate low, which an idle server does not show it (no collection runs to
 * measure it): after minutes of rest, by a watchdog. Until then a process keeps what its last burst needed (the
 * `memory released` log line says how much each release gave back).
 */

export interface Released {
  ms: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** Resident memory grown by this much is worth a collection that stops everything for a moment. */
const WORTH_RELEASING = 32 * 1_048_576;

export interface IdleReleaseOptions {
  /** How long the event loop must have been (nearly) idle. */
  quietMs?: number;
  /** Resident memory grown since the last release (by anyone, or since watching began) that is worth a collection. */
  growthBytes?: number;
  /** How often the loop's utilisation is looked at. */
  checkMs?: number;
  /** Told of every release. */
  onRelease?: (released: Released) => void;
}

/** An event loop busy less than this share of the time counts as idle (a request every few seconds, health checks). */
const IDLE_UTILIZATION = 0.02;

/** V8's `gc` (with `--expose-gc`, asked for here rather than on every command line), made on first use. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: object) => void;
  // "last-resort": full collections that reduce the footprint, and the pooled pages released.
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Gives memory back to the system, for one process: the serving context holds one (ServingContext.memory), so that
 * a release after the index was built and one when idle know of each other.
 */
export class MemoryRelease {
  #collect: (() => void) | undefined;
  /** Resident memory just after the last release. */
  #afterLastRelease: number | undefined;

  /**
   * Collects now and gives back what the heap holds beyond its live data. Everything waits meanwhile (a few hundred
   * ms at 100k events): call it where nobody waits — before the node says it is ready, or when it is idle.
   */
  now(): Released {
    const before = process.memoryUsage.rss();
    const started = performance.now();
    this.#collect ??= collector();
    this.#collect();
    const after = process.memoryUsage.rss();
    this.#afterLastRelease = after;
    return { ms: Math.round(performance.now() - started), rssBeforeMb: mb(before), rssAfterMb: mb(after) };
  }

  /** Releases (see `now`) when resident memory grew by `growthBytes` since `fromRss` (bytes); else nothing. */
  ifGrown(fromRss: number, growthBytes = WORTH_RELEASING): Released | undefined {
    return process.memoryUsage.rss() - fromRss >= growthBytes ? this.now() : undefined;
  }

  /**
   * Gives memory back once a burst of work is over: when the event loop has been idle for `quietMs` and resident
   * memory grew by `growthBytes` since the last release. Under load the loop is never idle, so no request waits for
   * it; a request arriving during the collection waits for it once. Returns the function that stops watching.
   */
  whenIdle({ quietMs = 5_000, growthBytes = WORTH_RELEASING, checkMs = 1_000, onRelease }: IdleReleaseOptions = {}) {
    const watchedFrom = process.memoryUsage.rss();
    let last = performance.eventLoopUtilization();
    let quiet = 0;
    const timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      quiet = utilization < IDLE_UTILIZATION ? quiet + checkMs : 0;
      if (quiet < quietMs) return;
      quiet = 0;
      const released = this.ifGrown(this.#afterLastRelease ?? watchedFrom, growthBytes);
      if (!released) return;
      // The collection itself is not the next interval's work.
      last = performance.eventLoopUtilization();
      onRelease?.(released);
    }, checkMs);
    timer.unref();
    return (): void => clearInterval(timer);
  }
}
