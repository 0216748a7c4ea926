/**
 * CPU-heavy work (ranking a new prompt) queued to run in short turns, polling I/O between turns: Node handles every
 * ready connection in one pass, so fifty such requests together would hold up a write's database replies and cached
 * reads until all were done.
 *
 * Two lanes, each in arrival order: a newcomer's work (a client its caller has not seen lately) goes first, so a
 * crowd of clients asking back to back cannot lock a new one out; the rest follows. Work that would wait longer than
 * its caller allows is refused at once, and work still waiting when its time is up is refused then, not later.
 */
export class TurnQueue {
  private readonly lanes: { newcomers: Job[]; others: Job[] } = { newcomers: [], others: [] };
  private scheduled = false;
  /** Jobs run per millisecond of wall time while a backlog waited: how fast the queue drains (moving average). */
  private drainRate: number | undefined;
  private lastTurn: { at: number; ran: number } | undefined;

  constructor(
    private readonly budgetMs = 2,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * Runs `work` after what was queued before it in its lane. With `maxWaitMs`, work that would wait longer at the
   * queue's drain rate is refused at once, and work that waited longer anyway is refused then (`QueueTooLong`).
   * A `newcomer`'s work goes in the newcomers' lane, ahead of the rest.
   */
  run<T>(work: () => T, maxWaitMs = Number.POSITIVE_INFINITY, newcomer = false): Promise<T> {
    const lane = newcomer ? this.lanes.newcomers : this.lanes.others;
    const waitMs = this.expectedWaitMs(newcomer);
    if (waitMs > maxWaitMs) return Promise.reject(new QueueTooLong(waitMs));
    const queuedAt = this.clock();
    return new Promise<T>((resolve, reject) => {
      lane.push({
        deadline: queuedAt + maxWaitMs,
        run: () => {
          try {
            resolve(work());
          } catch (error) {
            reject(error);
          }
        },
        refuse: () => reject(new QueueTooLong(this.clock() - queuedAt)),
      });
      this.schedule();
    });
  }

  /** Jobs waiting for a turn. */
  get waiting(): number {
    return this.lanes.newcomers.length + this.lanes.others.length;
  }

  /** How long a job queued now would wait for its turn (0 while no backlog has been measured). */
  expectedWaitMs(newcomer = false): number {
    const ahead = newcomer ? this.lanes.newcomers.length : this.waiting;
    return ahead === 0 || this.drainRate === undefined ? 0 : ahead / this.drainRate;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  /** The next job to run, after refusing every job whose time is up (a scan of each lane: cheap next to a ranking). */
  private next(now: number): Job | undefined {
    for (const lane of [this.lanes.newcomers, this.lanes.others]) {
      if (!lane.some((job) => job.deadline < now)) continue;
      const waiting = lane.filter((job) => job.deadline >= now);
      for (const job of lane) if (job.deadline < now) job.refuse();
      lane.splice(0, lane.length, ...waiting);
    }
    return this.lanes.newcomers.shift() ?? this.lanes.others.shift();
  }

  private readonly turn = () => {
    const started = this.clock();
    // A turn that follows a turn which left jobs waiting measures how fast a backlog drains: the jobs that turn ran,
    // over the wall time from its start to this one's, which includes the I/O the loop handled in between.
    if (this.lastTurn) {
      const sample = this.lastTurn.ran / Math.max(started - this.lastTurn.at, 0.01);
      this.drainRate = this.drainRate === undefined ? sample : 0.9 * this.drainRate + 0.1 * sample;
    }
    let ran = 0;
    for (
      let job = this.next(started);
      job;
      job = this.clock() - started < this.budgetMs ? this.next(this.clock()) : undefined
    ) {
      job.run();
      ran++;
    }
    // A job queued by this turn's own continuations waits for the next turn, after the loop's poll.
    if (this.waiting > 0) {
      this.lastTurn = { at: started, ran };
      setImmediate(this.turn);
    } else {
      this.lastTurn = undefined;
      this.scheduled = false;
    }
  };
}

interface Job {
  /** When it stops being worth running (its caller's limit), on the queue's clock. */
  deadline: number;
  run(): void;
  refuse(): void;
}

/** The Retry-After (whole seconds, 1 to 30) for a caller refused a wait of `waitMs`. */
export const secondsToRetry = (waitMs: number) => Math.min(30, Math.max(1, Math.ceil(waitMs / 1000)));

/** Work refused by a TurnQueue because it would wait longer than its caller allows. */
export class QueueTooLong extends Error {
  constructor(readonly waitMs: number) {
    super(`the queue would take ${Math.round(waitMs)} ms to reach this work`);
  }
}
