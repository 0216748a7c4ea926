/**
 * Work that takes a processor for milliseconds — ranking a new prompt over a large catalogue — queued to run in
 * short turns of the event loop, in arrival order, with the loop polling for I/O between turns.
 *
 * Why: Node handles every connection that is ready in one pass of its event loop. When fifty such requests arrive
 * together, whatever became ready meanwhile waits for all of them: the database's reply to a write in progress, which
 * needs several replies, or a read the response cache answers in microseconds. Queued here, the same work runs at the
 * same total cost, but never more than about `budgetMs` of it (or one job, if longer) before the loop looks at I/O.
 */
export class TurnQueue {
  private readonly jobs: (() => void)[] = [];
  private scheduled = false;
  /** Jobs run per millisecond of wall time while a backlog waited: how fast the queue drains (moving average). */
  private drainRate: number | undefined;
  private lastTurn: { at: number; ran: number } | undefined;

  constructor(private readonly budgetMs = 2) {}

  /**
   * Runs `work` in a later turn, after the work queued before it; its result or its error. With `maxWaitMs`, work
   * that would wait longer than that for its turn, at the rate the queue has drained while backlogged, is refused at
   * once, and work that has waited longer all the same (a crowd arriving before the rate was known) is refused when
   * its turn comes instead of run: the promise rejects with a `QueueTooLong` saying how long the wait is.
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
