/**
 * CPU-heavy work (ranking a new prompt) queued to run in short turns, in arrival order, polling I/O between turns:
 * Node handles every ready connection in one pass, so fifty such requests together would hold up a write's database
 * replies and cached reads until all were done.
 */
export class TurnQueue {
  private readonly jobs: (() => void)[] = [];
  private scheduled = false;
  /** Jobs run per millisecond of wall time while a backlog waited: how fast the queue drains (moving average). */
  private drainRate: number | undefined;
  private lastTurn: { at: number; ran: number } | undefined;

  constructor(private readonly budgetMs = 2) {}

  /**
   * Runs `work` after what was queued before. With `maxWaitMs`, work that would wait longer at the queue's drain
   * rate is refused at once, and work that waited longer anyway is refused at its turn (`QueueTooLong`).
   */
  run<T>(work: () => T, maxWaitMs = Number.POSITIVE_INFINITY): Promise<T> {
    const waitMs = this.expectedWaitMs();
    if (waitMs > maxWaitMs) return Promise.reject(new QueueTooLong(waitMs));
    const queuedAt = performance.now();
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => {
        const waited = performance.now() - queuedAt;
        if (waited > maxWaitMs) return reject(new QueueTooLong(waited));
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.turn);
      }
    });
  }

  /** Jobs waiting for a turn. */
  get waiting(): number {
    return this.jobs.length;
  }

  /** How long a job queued now would wait for its turn (0 while no backlog has been measured). */
  expectedWaitMs(): number {
    return this.jobs.length === 0 || this.drainRate === undefined ? 0 : this.jobs.length / this.drainRate;
  }

  private readonly turn = () => {
    const started = performance.now();
    // A turn that follows a turn which left jobs waiting measures how fast a backlog drains: the jobs that turn ran,
    // over the wall time from its start to this one's, which includes the I/O the loop handled in between.
    if (this.lastTurn) {
      const sample = this.lastTurn.ran / Math.max(started - this.lastTurn.at, 0.01);
      this.drainRate = this.drainRate === undefined ? sample : 0.9 * this.drainRate + 0.1 * sample;
    }
    let ran = 0;
    do {
      this.jobs.shift()!();
      ran++;
    } while (this.jobs.length > 0 && performance.now() - started < this.budgetMs);
    // A job queued by this turn's own continuations waits for the next turn, after the loop's poll.
    if (this.jobs.length > 0) {
      this.lastTurn = { at: started, ran };
      setImmediate(this.turn);
    } else {
      this.lastTurn = undefined;
      this.scheduled = false;
    }
  };
}

/** Work refused by a TurnQueue because it would wait longer than its caller allows. */
export class QueueTooLong extends Error {
  constructor(readonly waitMs: number) {
    super(`the queue would take ${Math.round(waitMs)} ms to reach this work`);
  }
}
