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

  constructor(private readonly budgetMs = 2) {}

  /** Runs `work` in a later turn, after the work queued before it; its result or its error. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => {
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

  private readonly turn = () => {
    const started = performance.now();
    do this.jobs.shift()!();
    while (this.jobs.length > 0 && performance.now() - started < this.budgetMs);
    // A job queued by this turn's own continuations waits for the next turn, after the loop's poll.
    if (this.jobs.length > 0) setImmediate(this.turn);
    else this.scheduled = false;
  };
}
