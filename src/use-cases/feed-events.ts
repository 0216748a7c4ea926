import type { CatalogueEvent } from '../catalogue/event.js';
import type { ServingContext } from '../context.js';
import { MAX_LIMIT, parseSearchParams } from '../query/params.js';
import { ReadIndex, type SearchResult } from '../query/read-index.js';
import { Remembering } from '../runtime/remembered.js';
import { searchEvents } from './read-events.js';

/** A feed looks at up to this many matches of its query, in the query's order, to find the newest of them. */
export const FEED_WINDOW = 500;

/** One entry of a feed: a matching event, or one that matched and was cancelled before it starts. */
export interface FeedEntry {
  event: CatalogueEvent;
  cancelled: boolean;
  /** When its listing last changed in a way a reader cares about: created, cancelled, restored, moved in time or place. */
  updated: Date;
}

export interface FeedAnswer {
  /** The query's first page as the engine answered it: what was searched and how it was understood. */
  result: SearchResult;
  /** Newest to the catalogue first, at most `limit`. */
  entries: FeedEntry[];
}

/**
 * Cancelled events are not in the read index; a feed still shows each that matches its query as an update until it
 * would have started. They are matched by the same engine over an index of their own, which the service remembers
 * (ctx.remembered) and makes again only when the catalogue changed (a cancellation changes a country's version) or
 * the minute did.
 */
interface CancelledIndex {
  versions: string;
  index: ReadIndex;
  byId: Map<string, CatalogueEvent>;
}
const REMEMBERED_AS = new Remembering<CancelledIndex>('cancelled-events');

async function cancelledIndex(ctx: ServingContext): Promise<CancelledIndex> {
  const versions = `${ctx.index.versionOf('ch')}|${ctx.index.versionOf('de')}|${ctx.index.versionOf('at')}`;
  const now = ctx.now().getTime();
  const minute = (ms: number) => Math.floor(ms / 60_000);
  const kept = ctx.remembered.get(REMEMBERED_AS);
  if (kept?.value.versions === versions && minute(kept.at) === minute(now)) return kept.value;
  const cancelled = await ctx.events.listCancelledNotStartedBy(ctx.now());
  const index = new ReadIndex(() => ctx.now());
  // Listed copies, so that the engine matches them as it would have before the cancellation.
  index.load(cancelled.map((event) => ({ ...event, lifecycle: 'listed' as const })));
  const made = { versions, index, byId: new Map(cancelled.map((event) => [event.id, event])) };
  ctx.remembered.set(REMEMBERED_AS, now, made);
  return made;
}

/** When an entry was news: a cancellation when it was cancelled, an event when it came to the catalogue. */
export function newsAt(entry: FeedEntry): Date {
  return entry.cancelled ? entry.event.updatedAt : entry.event.createdAt;
}

/**
 * Any query of the shared grammar as a feed (never near misses): the matches among the first FEED_WINDOW in the
 * query's order and the cancelled events that match it, newest to the catalogue first (a cancellation is news when it happens), at most `limit`.
 */
export async function feedEvents(ctx: ServingContext, query: Record<string, unknown>): Promise<FeedAnswer> {
  const { cursor: _, limit: __, ...rest } = query;
  const limit = parseSearchParams(query).limit;
  const window = { ...rest, limit: String(MAX_LIMIT) };
  const first = await searchEvents(ctx, window);
  const found = new Map<string, FeedEntry>();
  let page: typeof first | undefined = first;
  while (page) {
    for (const { event } of page.events) found.set(event.id, { event, cancelled: false, updated: event.updatedAt });
    page =
      page.nextCursor && found.size < FEED_WINDOW
        ? await searchEvents(ctx, { ...window, cursor: page.nextCursor })
        : undefined;
  }
  const cancelled = await cancelledIndex(ctx);
  for (const { event: copy } of cancelled.index.search({ ...first.params, limit: MAX_LIMIT }, ctx.now()).events) {
    const event = cancelled.byId.get(copy.id);
    if (event && !found.has(event.id)) found.set(event.id, { event, cancelled: true, updated: event.updatedAt });
  }
  const entries = [...found.values()]
    .sort((a, b) => newsAt(b).getTime() - newsAt(a).getTime() || (a.event.id < b.event.id ? -1 : 1))
    .slice(0, limit);
  const noticed = await ctx.events.noticedChanges(entries.map((e) => e.event.id));
  for (const entry of entries) entry.updated = noticed.get(entry.event.id) ?? entry.event.createdAt;
  return { result: { ...first, params: { ...first.params, limit } }, entries };
}
