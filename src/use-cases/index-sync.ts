import type { ServingContext } from '../context.js';

/** How long to gather notifications before fetching the changed rows in one query. */
const BATCH_MS = 15;
/** A refresh that failed is tried again after this, doubling up to RETRY_MAX_MS, until it succeeds. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * Fills the read index from the database and keeps it in step with writes made by any app node: every change to
 * `events` is announced by a trigger (NOTIFY events_changed, `<revision> <id>`), and this node re-reads those rows.
 * Local writes also apply their result directly, so a node reads its own writes at once.
 *
 * A refresh that fails (the database busy or out of reach) keeps what it was to read and is tried again with
 * backoff until it succeeds, without waiting for another change; meanwhile the node counts as behind
 * (`ctx.freshness`, which /readyz and /metrics report).
 */
export async function startIndexSync(ctx: ServingContext): Promise<() => Promise<void>> {
  const follower = new IndexFollower(ctx);
  const rssBefore = process.memoryUsage.rss();
  await follower.listen();
  await follower.build();
  ctx.freshness.applied = (maxWaitMs) => follower.caughtUp(maxWaitMs);
  const preparing = prepareAhead(ctx, () => follower.closed, rssBefore);
  return async () => {
    follower.closed = true;
    ctx.freshness.applied = undefined;
    await preparing;
    await follower.stop();
  };
}

/** Gathers change notifications and reads the changed rows back into the index, one refresh at a time. */
class IndexFollower {
  // What is still to be read: changed events, registration counts, or, after a reconnect, everything not ended.
  private readonly pending = new Set<string>();
  private readonly attendance = new Set<string>();
  private everything = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private retryMs = RETRY_FIRST_MS;
  // Changes announced that need reading (notifications, reconnects), and how many of the first ones are applied.
  private announced = 0;
  private applied = 0;
  private unlisten: (() => Promise<void>)[] = [];
  closed = false;

  constructor(private readonly ctx: ServingContext) {}

  private since(): Date {
    return new Date(this.ctx.now().getTime() - 86_400_000);
  }

  async listen(): Promise<void> {
    const { ctx } = this;
    this.unlisten.push(
      await ctx.storage.listen(
        'events_changed',
        (payload) => {
          // `<revision> <id>`: a revision this node holds already (its own write) needs no reading back.
          const space = payload.indexOf(' ');
          const id = space < 0 ? payload : payload.slice(space + 1);
          if (space > 0 && ctx.index.holds(id, Number(payload.slice(0, space)))) return;
          this.announced++;
          this.pending.add(id);
          this.schedule(BATCH_MS);
        },
        // Notifications sent while the LISTEN connection was down are lost: catch up by re-reading what is current.
        () => {
          this.announced++;
          this.everything = true;
          this.schedule(0);
        },
      ),
    );
    this.unlisten.push(
      await ctx.storage.listen('registrations_changed', (id) => {
        this.announced++;
        this.attendance.add(id);
        this.schedule(BATCH_MS);
      }),
    );
  }

  /** Loads every event not yet ended, page by page, then the attendance counts. */
  async build(): Promise<void> {
    const { ctx } = this;
    const started = performance.now();
    // In the queue with the refreshes: a change announced while the pages arrive is applied after the last one.
    this.running = this.running.then(async () => {
      // PostgreSQL prepares pages while this thread indexes; PGlite would run them on this thread anyway.
      const readAhead = ctx.storage.engine === 'postgres' ? 3 : 0;
      await ctx.index.loadPages(ctx.events.pagesNotEndedSince(this.since(), { readAhead }));
      ctx.index.setAttendance(await ctx.registrations.attendanceAll());
    });
    await this.running;
    ctx.logger.info(
      { events: ctx.index.status.events, ms: Math.round(performance.now() - started) },
      'read index built',
    );
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    for (const unlisten of this.unlisten) await unlisten();
    await this.running;
  }

  /** A refresh after `ms`, unless one is due already (a retry's backoff is not cut short by new changes). */
  private schedule(ms: number): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.running.then(() => this.refresh());
    }, ms);
  }

  /**
   * Whether every change announced before the call is applied: the notifications on their way are taken in first,
   * then the refreshes they scheduled are waited for, at most `maxWaitMs` and not while refreshes fail.
   */
  async caughtUp(maxWaitMs: number): Promise<boolean> {
    if (!(await this.ctx.storage.delivered())) return false;
    const target = this.announced;
    const deadline = Date.now() + maxWaitMs;
    while (this.applied < target) {
      if (this.closed || this.ctx.freshness.behindSince !== undefined || Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  }

  private async refresh(): Promise<void> {
    const upTo = this.announced;
    const all = this.everything;
    const ids = [...this.pending];
    const counts = [...this.attendance];
    this.everything = false;
    this.pending.clear();
    this.attendance.clear();
    try {
      await this.read(all, ids, counts);
    } catch (error) {
      this.failed(error, all, ids, counts);
      return;
    }
    this.applied = Math.max(this.applied, upTo);
    const { freshness, logger } = this.ctx;
    if (
      freshness.behindSince !== undefined &&
      !this.everything &&
      this.pending.size === 0 &&
      this.attendance.size === 0
    ) {
      logger.info({ ms: Date.now() - freshness.behindSince }, 'read index caught up');
      freshness.behindSince = undefined;
      this.retryMs = RETRY_FIRST_MS;
    }
  }

  private async read(all: boolean, ids: string[], counts: string[]): Promise<void> {
    const { ctx } = this;
    if (all) {
      for (const event of await ctx.events.listNotEndedSince(this.since())) ctx.index.apply(event);
      ctx.index.setAttendance(await ctx.registrations.attendanceAll());
      return;
    }
    if (ids.length > 0) for (const event of await ctx.events.findManyByIds(ids)) ctx.index.apply(event);
    for (const id of counts) {
      const c = await ctx.registrations.counts(id);
      ctx.index.setAttendance([[id, c.registered + c.waitlisted]]);
    }
  }

  /** Nothing read is lost: it is read again (applying an event twice changes nothing), and soon. */
  private failed(error: unknown, all: boolean, ids: string[], counts: string[]): void {
    const { ctx } = this;
    this.everything ||= all;
    for (const id of ids) this.pending.add(id);
    for (const id of counts) this.attendance.add(id);
    ctx.metrics.indexRefreshFailures.inc();
    if (ctx.freshness.behindSince === undefined) {
      ctx.freshness.behindSince = Date.now();
      ctx.logger.warn({ err: error }, 'could not refresh the read index; retrying until it has caught up');
    }
    this.schedule(this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}

/** Lets the index compute ahead what its first queries would, yielding to requests between slices. */
function prepareAhead(ctx: ServingContext, closed: () => boolean, rssBeforeBuild: number): Promise<void> {
  const preparingFrom = performance.now();
  return ctx.index
    .prepareAhead(() => new Promise((resolve) => setImmediate(resolve)), closed)
    .then(() => {
      if (closed()) return;
      ctx.logger.info({ ms: Math.round(performance.now() - preparingFrom) }, 'read index prepared ahead');
      // What building and preparing left behind goes back to the system now, in the same turn as the index became
      // prepared: before the node answers ready (/readyz), so no request waits for the collection.
      const released = ctx.memory.ifGrown(rssBeforeBuild);
      if (released) ctx.logger.info(released, 'memory released after the read index was built');
    })
    .catch((error) => {
      // The index still answers (a query computes what it needs on first use) and says it is ready: a failure here
      // must not keep the node out of a load balancer for good.
      ctx.logger.warn({ err: error }, 'could not prepare the read index ahead');
    });
}
