import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
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
 * How large V8's young generation may grow under load, per semi-space in MB (V8's --max-semi-space-size; 16 by
 * default). A read allocates about 0.4 MB at 100k events (candidates scored, a page rendered), and each young
 * collection moves what is still in use at that moment (the requests in flight) to the old generation: at V8's
 * default, several young collections a second under half the distinct-prompt load promoted enough for a full
 * collection of the whole heap (read index and all) every 6–7 s, and requests queued behind each one. Four times as
 * large, a quarter as many young collections promote a quarter as much, and full collections come a third as often
 * (figures in docs/performance.md). An idle service shrinks the young generation again (`collectWhenIdle`), so
 * memory at rest is unchanged. V8 reads it only as the process starts: `npm start` and the `tech-events` command
 * give it (package.json, bin/tech-events.js; test/heap.test.ts checks that they say this value), and `serve` warns
 * when it was not given.
 */
export const SEMI_SPACE_MB = 64;
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** Whether the process was started with a size for the young generation, on the command line or in NODE_OPTIONS. */
export function youngGenerationSized(): boolean {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((arg) => arg.startsWith('--max-semi-space-size'));
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
 * A full garbage collection, made to give memory back. Loading a large catalogue leaves about as much garbage as it
 * keeps (decoded pages, outgrown hash tables), and a burst of requests leaves plenty more; V8's memory reducer
 * collects it only once the process has idled for half a minute or more (measured after the bench's run at 100k
 * events: nothing within 18 s, even with --gc-memory-reducer-start-delay-ms=1000). Node offers no call for this
 * without --expose-gc, so the flag is set for the moment it takes to get hold of V8's `gc` function.
 *
 * Two collections under --optimize-for-size, V8's compaction for a process that favours memory over speed: the
 * first frees the garbage, the second moves the objects of the pages it left sparse so they can be given back, and,
 * with next to nothing allocated in between, shrinks the young generation. Measured at 100k events after the bench's
 * run: ~360 MB resident at rest, against ~390–410 MB after one plain collection (~25 MB of sparse pages, the young
 * generation kept at 32 MB) and ~360 MB after compacting every page (--compact-on-every-full-gc), which copies the
 * whole live heap before the old pages are given back: peaks of ~540 MB at start-up and ~590 MB after a run, against
 * ~430–470 MB here. At 100k events the pair takes 100–250 ms.
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
  setFlagsFromString('--optimize-for-size');
  try {
    gc();
    gc();
  } finally {
    setFlagsFromString('--no-optimize-for-size');
  }
}

export interface IdleCollection {
  /** How often to look, in ms. */
  everyMs: number;
  /** Event-loop utilisation (0–1) over a look below which the process counts as idle … */
  idleBelow: number;
  /** … and for how many looks in a row it must have been idle. */
  idleLooks: number;
  /** How much the heap must have grown since the last collection, in bytes, and at least … */
  minGrowthBytes: number;
  /** … this share of what that collection kept. */
  minGrowthShare: number;
  /** Without such growth: the young generation must hold more than this many bytes. */
  maxYoungBytes: number;
  /** The collection to run (tests observe it). */
  collect: () => void;
  /** Told of each collection made: how long it took and the heap in use and young generation before and after. */
  onCollected: (report: IdleCollectionReport) => void;
}

export interface IdleCollectionReport {
  ms: number;
  heapMbBefore: number;
  heapMbAfter: number;
  youngMbBefore: number;
  youngMbAfter: number;
}

const toMb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Collections per burst for an oversized young generation alone (see `collectWhenIdle`). */
const MAX_YOUNG_TRIES = 3;

/**
 * Collects the garbage a burst of requests left behind as soon as the process idles, instead of when V8's memory
 * reducer gets round to it (see `collectGarbage`): measured at 100k events after the bench's run, a heap of 250 MB
 * holding 175 MB live kept ~430 MB resident until then, ~360 MB once collected.
 *
 * Looks every `everyMs`; once the event loop has been idle for `idleLooks` looks in a row, collects if the heap grew
 * by both thresholds since what the previous collection kept (once per burst), or if the young generation is still
 * as large as the burst made it (V8 grows it up to 128 MB under load, see SEMI_SPACE_MB, and shrinks it in a
 * collection only when little was allocated over its last 5 s or so of measurement, which the first collections after
 * a burst may not see: at most three tries, 5 s apart, per burst for it alone).
 * A full collection of a large heap pauses the loop for a few hundred ms, which is why it waits for idleness: under
 * steady traffic V8 collects on its own schedule. Returns a function that stops it.
 */
export function collectWhenIdle(options: Partial<IdleCollection> = {}): () => void {
  const {
    everyMs = 1_000,
    idleBelow = 0.02,
    idleLooks = 5,
    minGrowthBytes = 16 * 1024 * 1024,
    minGrowthShare = 0.1,
    maxYoungBytes = 4 * 1024 * 1024,
    collect = collectGarbage,
    onCollected = () => {},
  } = options;
  let kept = getHeapStatistics().used_heap_size;
  let last = performance.eventLoopUtilization();
  let idleFor = 0;
  let youngTries = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    if (performance.eventLoopUtilization(now, last).utilization < idleBelow) idleFor++;
    else idleFor = youngTries = 0;
    last = now;
    const used = getHeapStatistics().used_heap_size;
    // V8's own full collections lower the heap in use; follow them down, so growth is measured from the latest.
    if (used < kept) kept = used;
    if (idleFor < idleLooks) return;
    const grown = used - kept >= Math.max(minGrowthBytes, kept * minGrowthShare);
    if (!grown) {
      if (youngTries >= MAX_YOUNG_TRIES || youngGenerationBytes() <= maxYoungBytes) return;
      youngTries++;
    }
    const youngBefore = youngGenerationBytes();
    const started = performance.now();
    collect();
    kept = getHeapStatistics().used_heap_size;
    onCollected({
      ms: Math.round(performance.now() - started),
      heapMbBefore: toMb(used),
      heapMbAfter: toMb(kept),
      youngMbBefore: toMb(youngBefore),
      youngMbAfter: toMb(youngGenerationBytes()),
    });
    last = performance.eventLoopUtilization();
    idleFor = 0;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Resident bytes of V8's young generation (new space), which a busy process grows up to 128 MB (SEMI_SPACE_MB). */
function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0;
}
