import { ServiceError } from '../catalogue/errors.js';

/** What a refused wait tells the caller: retry after this many seconds. */
const RETRY_AFTER_S = 2;

export interface WaitLimits {
  /** Callers that may wait at once; one more is refused at once (503 `storage-busy`). */
  maxWaiting: number;
  /** How long a caller waits at most before it is refused (503 `storage-busy`). */
  maxWaitMs: number;
}

export const busy = (what: string) =>
  new ServiceError('storage-busy', `${what}; retry in ${RETRY_AFTER_S} s.`, { retryAfter: RETRY_AFTER_S });

/**
 * A fixed number of places taken in arrival order: callers beyond them wait their turn, up to a bound on how many
 * may wait and for how long, and are refused past it rather than left to time out somewhere less clear.
 */
export class Turns {
  private active = 0;
  private readonly waiting: { resolve: () => void; timer: NodeJS.Timeout | undefined }[] = [];

  constructor(
    private readonly places: number,
    private readonly limits: WaitLimits,
    private readonly what = 'The database is busy',
  ) {}

  /** Waits for a place (within `limits`, the queue's own unless given); resolves to the function that gives it back. */
  async enter(limits: WaitLimits = this.limits): Promise<() => void> {
    if (this.active < this.places) {
      this.active++;
      return this.leave();
    }
    if (this.waiting.length >= limits.maxWaiting) throw busy(`${this.what}: ${this.waiting.length} requests wait`);
    await new Promise<void>((resolve, reject) => {
      const waiter = { resolve, timer: undefined as NodeJS.Timeout | undefined };
      if (Number.isFinite(limits.maxWaitMs)) {
        waiter.timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(busy(`${this.what}: no turn within ${Math.round(limits.maxWaitMs / 1000)} s`));
        }, limits.maxWaitMs);
      }
      this.waiting.push(waiter);
    });
    // The place was handed over by the one who left it: `active` counts it still.
    return this.leave();
  }

  async run<T>(work: () => Promise<T>, limits?: WaitLimits): Promise<T> {
    const leave = await this.enter(limits);
    try {
      return await work();
    } finally {
      leave();
    }
  }

  /** Places taken plus callers waiting: nothing when 0. */
  get load(): number {
    return this.active + this.waiting.length;
  }

  private leave(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.resolve();
      } else this.active--;
    };
  }
}

/** One `Turns` of a single place per key: work under one key runs one at a time, in arrival order. */
export class KeyedTurns {
  private readonly lines = new Map<string, Turns>();

  constructor(
    private readonly limits: WaitLimits,
    private readonly what: string,
  ) {}

  /** Runs `work` after the work under `key` queued before it, waiting within `limits` (the lines' own unless given). */
  async run<T>(key: string, work: () => Promise<T>, limits?: WaitLimits): Promise<T> {
    let line = this.lines.get(key);
    if (!line) {
      line = new Turns(1, this.limits, this.what);
      this.lines.set(key, line);
    }
    try {
      return await line.run(work, limits);
    } finally {
      if (line.load === 0 && this.lines.get(key) === line) this.lines.delete(key);
    }
  }
}
