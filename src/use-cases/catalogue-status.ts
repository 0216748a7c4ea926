import type { AppContext } from '../context.js';
import { isEnabled } from '../importers/feeds.js';
import { Remembering, SOURCES_STATE } from '../runtime/remembered.js';
import { scheduledNextTry } from './sync-schedule.js';

/**
 * How old one source's data is: when a read last confirmed it (a successful sync), or, before any, the date of the
 * shipped snapshot it was loaded from; neither when it has not been read yet.
 */
export type SourceFreshness =
  | { source: string; kind: 'synced'; at: Date }
  | { source: string; kind: 'snapshot'; of: string }
  | { source: string; kind: 'not-read'; nextTry?: Date };

/** What every page shows, remembered for a minute by the service (ctx.remembered), or until a sync's run. */
const REMEMBERED_AS = new Remembering<SourceFreshness[]>('catalogue-freshness', SOURCES_STATE);

/**
 * How old the data of each enabled feed is, in the feeds file's order: every page says it in its footer. While the
 * database is away, the last value known.
 */
export async function catalogueFreshness(ctx: AppContext): Promise<SourceFreshness[]> {
  const now = ctx.now().getTime();
  const known = ctx.remembered.get(REMEMBERED_AS);
  if (known && now - known.at < 60_000) return known.value;
  const generation = ctx.remembered.generation;
  try {
    const states = new Map((await ctx.sources.list()).map((s) => [s.source, s]));
    const value = ctx.feeds.filter(isEnabled).map((feed): SourceFreshness => {
      const state = states.get(feed.source);
      if (state?.lastSuccessAt) return { source: feed.source, kind: 'synced', at: state.lastSuccessAt };
      if (state?.snapshotOf) return { source: feed.source, kind: 'snapshot', of: state.snapshotOf };
      const next = scheduledNextTry(state, ctx.config.syncIntervalMinutes);
      return { source: feed.source, kind: 'not-read', ...(next === undefined ? {} : { nextTry: new Date(next) }) };
    });
    // A sync's run that landed meanwhile may have changed what was read: it is not remembered as current.
    if (ctx.remembered.generation === generation) ctx.remembered.set(REMEMBERED_AS, now, value);
    return value;
  } catch {
    return known?.value ?? [];
  }
}
