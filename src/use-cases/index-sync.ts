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
  // What is still to be read: changed events, registration counts, or, after a reconnect, everything not ended.
  const pending = new Set<string>();
  const attendance = new Set<string>();
  let everything = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let retryMs = RETRY_FIRST_MS;
  let closed = false;
  const since = () => new Date(ctx.now().getTime() - 86_400_000);

  const refresh = async () => {
    const all = everything;
    const ids = [...pending];
    const counts = [...attendance];
    everything = false;
    pending.clear();
    attendance.clear();
    try {
      if (all) {
        for (const event of await ctx.events.listNotEndedSince(since())) ctx.index.apply(event);
        ctx.index.setAttendance(await ctx.registrations.attendanceAll());
      } else {
        if (ids.length > 0) for (const event of await ctx.events.findManyByIds(ids)) ctx.index.apply(event);
        for (const id of counts) {
          const c = await ctx.registrations.counts(id);
          ctx.index.setAttendance([[id, c.registered + c.waitlisted]]);
        }
      }
    } catch (error) {
      // Nothing read is lost: it is read again (applying an event twice changes nothing), and soon.
      everything ||= all;
      for (const id of ids) pending.add(id);
      for (const id of counts) attendance.add(id);
      ctx.metrics.indexRefreshFailures.inc();
      if (ctx.freshness.behindSince === undefined) {
        ctx.freshness.behindSince = Date.now();
        ctx.logger.warn({ err: error }, 'could not refresh the read index; retrying until it has caught up');
      }
      schedule(retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      return;
    }
    if (ctx.freshness.behindSince !== undefined && !everything && pending.size === 0 && attendance.size === 0) {
      ctx.logger.info({ ms: Date.now() - ctx.freshness.behindSince }, 'read index caught up');
      ctx.freshness.behindSince = undefined;
      retryMs = RETRY_FIRST_MS;
    }
  };
  /** A refresh after `ms`, unless one is due already (a retry's backoff is not cut short by new changes). */
  const schedule = (ms: number) => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(refresh);
    }, ms);
  };

  const unlisten = await ctx.storage.listen(
    'events_changed',
    (payload) => {
      // `<revision> <id>`: a revision this node holds already (its own write) needs no reading back.
      const space = payload.indexOf(' ');
      const id = space < 0 ? payload : payload.slice(space + 1);
      if (space > 0 && ctx.index.holds(id, Number(payload.slice(0, space)))) return;
      pending.add(id);
      schedule(BATCH_MS);
    },
    // Notifications sent while the LISTEN connection was down are lost: catch up by re-reading what is current.
    () => {
      everything = true;
      schedule(0);
    },
  );

  const unlistenRegistrations = await ctx.storage.listen('registrations_changed', (id) => {
    attendance.add(id);
    schedule(BATCH_MS);
  });

  const started = performance.now();
  // In the queue with the refreshes: a change announced while the pages arrive is applied after the last one.
  running = running.then(async () => {
    // PostgreSQL prepares pages while this thread indexes; PGlite would run them on this thread anyway.
    const readAhead = ctx.storage.engine === 'postgres' ? 3 : 0;
    await ctx.index.loadPages(ctx.events.pagesNotEndedSince(since(), { readAhead }));
    ctx.index.setAttendance(await ctx.registrations.attendanceAll());
  });
  await running;
  ctx.logger.info({ events: ctx.index.size, ms: Math.round(performance.now() - started) }, 'read index built');
  const preparingFrom = performance.now();
  const preparing = ctx.index
    .prepareAhead(
      () => new Promise((resolve) => setImmediate(resolve)),
      () => closed,
    )
    .then(() => {
      if (!closed) ctx.logger.info({ ms: Math.round(performance.now() - preparingFrom) }, 'read index prepared ahead');
    })
    .catch((error) => {
      // The index still answers (a query computes what it needs on first use): a failure here must not keep the
      // node out of a load balancer for good.
      ctx.index.prepared = true;
      ctx.logger.warn({ err: error }, 'could not prepare the read index ahead');
    });

  return async () => {
    closed = true;
    await preparing;
    if (timer) clearTimeout(timer);
    await unlisten();
    await unlistenRegistrations();
    await running;
  };
}
