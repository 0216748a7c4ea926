import type { ServingContext } from '../context.js';

/** How long to gather notifications before fetching the changed rows in one query. */
const BATCH_MS = 15;

/**
 * Fills the read index from the database and keeps it in step with writes made by any app node: every change to
 * `events` is announced by a trigger (NOTIFY events_changed, `<revision> <id>`), and this node re-reads those rows.
 * Local writes also apply their result directly, so a node reads its own writes at once.
 */
export async function startIndexSync(ctx: ServingContext): Promise<() => Promise<void>> {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const flush = () => {
    timer = undefined;
    const ids = [...pending];
    pending.clear();
    running = running
      .then(async () => {
        for (const event of await ctx.events.findManyByIds(ids)) ctx.index.apply(event);
      })
      .catch((error) =>
        ctx.logger.warn({ err: error }, 'could not refresh the read index; will catch up on the next change'),
      );
  };
  const since = () => new Date(ctx.now().getTime() - 86_400_000);
  const unlisten = await ctx.storage.listen(
    'events_changed',
    (payload) => {
      // `<revision> <id>`: a revision this node holds already (its own write) needs no reading back.
      const space = payload.indexOf(' ');
      const id = space < 0 ? payload : payload.slice(space + 1);
      if (space > 0 && ctx.index.holds(id, Number(payload.slice(0, space)))) return;
      pending.add(id);
      timer ??= setTimeout(flush, BATCH_MS);
    },
    // Notifications sent while the LISTEN connection was down are lost: catch up by re-reading what is current.
    () => {
      running = running
        .then(async () => {
          for (const event of await ctx.events.listNotEndedSince(since())) ctx.index.apply(event);
          ctx.index.setAttendance(await ctx.registrations.attendanceAll());
        })
        .catch((error) => ctx.logger.warn({ err: error }, 'could not resync the read index after reconnecting'));
    },
  );

  const unlistenRegistrations = await ctx.storage.listen('registrations_changed', (id) => {
    running = running
      .then(async () => {
        const c = await ctx.registrations.counts(id);
        ctx.index.setAttendance([[id, c.registered + c.waitlisted]]);
      })
      .catch((error) => ctx.logger.warn({ err: error }, 'could not refresh registration counts'));
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
  let closed = false;
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
