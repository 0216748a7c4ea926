import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this much heap in use, a percentage of it is a few MB of headroom: a full collection every few hundred requests. */
const LARGE_HEAP_BYTES = 100 * 1024 * 1024;

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent (V8's
 * --heap-growing-percent), for a large heap only. V8 picks up to 100 % by itself, a fit for heaps that are mostly
 * short-lived objects; a large heap here is mostly the read index, kept for the life of the process, and growing by
 * its size again for the garbage of requests held resident memory ~100 MB higher at 100k events (20 %: no loss of
 * throughput there). A small heap keeps V8's choice: at 10k events 20 % cost 9 % of req/s to save 15 MB.
 * Returns whether the limit was set; it holds from the next full collection on. 0 leaves V8's own heuristic.
 */
export function limitHeapGrowth(percent: number): boolean {
  if (percent <= 0 || process.memoryUsage().heapUsed < LARGE_HEAP_BYTES) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}

/**
 * Has V8 compile WebAssembly with its baseline compiler (Liftoff) only, never recompiling hot functions with TurboFan.
 * For PGlite, PostgreSQL as a 9 MB WebAssembly module run in this process: its optimised recompilations, made on
 * background threads, kept some 60 MB resident (the code, and compiler memory those threads' malloc arenas keep) —
 * measured at 100k events: 387 → 326 MB after start-up; 145 instead of 200 MB for PGlite just opened. Point reads
 * and writes took no longer; the one bulk read, of the whole catalogue at start-up, about 10 % longer in PostgreSQL
 * (queries are served from the in-memory index). Process-wide, from the next compilation on; the only other
 * WebAssembly is undici's HTTP parser, used by the feed importers.
 */
export function compileWasmBaselineOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * One full garbage collection. Loading a large catalogue leaves about as much garbage as it keeps (decoded pages,
 * outgrown hash tables), resident until V8's memory reducer collects it once the process has idled for half a
 * minute or more, or the first requests do: at 100k events, some 130 MB. Node offers no call for this without
 * --expose-gc, so the flag is set for the moment it takes to get hold of V8's `gc` function.
 */
export function collectGarbage(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  // Compacting every page, not just the most fragmented: the garbage is spread over all of them, and pages are only
  // given back to the system once empty (measured at 100k events: a heap of 245 MB after a plain collection, 180
  // after this one, for 150 MB live). With an options argument, Node 20's `gc` runs a lesser collection.
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
