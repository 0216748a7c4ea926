import { sourceOwner } from '../catalogue/event.js';
import type { AppContext } from '../context.js';
import { recognizeCalendar } from '../importers/calendar-address.js';
import type { ImportedRecord } from '../importers/importer.js';
import type { Country } from '../places/countries.js';
import type { ProposalRecord } from '../storage/proposals.repository.js';
import { calendarTargets, readCalendarOnce } from './check-calendars.js';
import { inParallel } from './in-turn.js';
import { COMMUNITY_CALENDARS, COMMUNITY_SOURCE, type Preview } from './proposal-schemas.js';
import { type CalendarTarget, calendarIdPrefix, retireUpcoming } from './sync-calendars.js';
import { type SyncOptions, type SyncResult, syncCollection } from './sync-feeds.js';

/**
 * The calendars communities propose: how one is previewed (read once, as the sync would, a few at a time), where
 * the catalogue syncs it already, and how accepted ones sync and are retired.
 */

/** The upcoming events a preview keeps: enough to judge a calendar by. */
const PREVIEW_EVENTS = 20;
/** Previews read at once: a crowd of proposals waits its turn instead of opening reads without bound. */
const PREVIEW_CONCURRENCY = 2;
const PREVIEW_READS = 'proposal-previews';

/** What an accepted community calendar syncs as: the `community` source's, under the proposal's id. */
export function communityTarget(ctx: AppContext, p: ProposalRecord): CalendarTarget {
  return {
    source: COMMUNITY_SOURCE,
    part: p.id,
    url: p.url!,
    owner: sourceOwner(COMMUNITY_SOURCE),
    actor: `proposal:${p.id}`,
    idPrefix: calendarIdPrefix(p.id),
    country: p.country as Country,
    city: p.city ?? undefined,
    organizer: p.name ?? undefined,
    fallbackUrl: p.url!,
    guard: ctx.calendarGuard,
    format: p.format ?? 'ical',
  };
}

/** The feed a synced calendar's URL reads as, to compare with a proposal's; itself when not recognised. */
function normalised(url: string): string {
  try {
    return recognizeCalendar(url).url;
  } catch {
    return url;
  }
}

/** Where the catalogue syncs this calendar already: the feeds file, a host's linked calendar, another proposal. */
export async function syncedAs(ctx: AppContext, url: string, self: string): Promise<Preview['alreadySynced']> {
  const feed = calendarTargets(ctx.feeds, ctx.now()).find((t) => normalised(t.url) === url);
  if (feed) return { source: feed.source, calendar: feed.part };
  const linked = (await ctx.calendars.linked()).find((c) => normalised(c.url) === url);
  if (linked) return { source: 'host', calendar: linked.id };
  const accepted = (await ctx.proposals.list({ state: 'accepted', kind: 'calendar' })).find(
    (p) => p.id !== self && p.url === url,
  );
  return accepted ? { source: COMMUNITY_SOURCE, calendar: accepted.id } : null;
}

const dateOf = (at: { instant: Date } | { date: string }) => ('instant' in at ? at.instant.toISOString() : at.date);

/** A previewed event as the sync would list it: its place, and where that comes from. */
function previewEvent(record: ImportedRecord, target: CalendarTarget): Preview['upcoming'][number] {
  const online = record.format === 'online';
  const city = online ? undefined : (record.city ?? target.city);
  const from = record.placeFrom === 'calendar' && !target.city ? 'unknown' : (record.placeFrom ?? 'unknown');
  const place = [record.venue, city].filter((s) => s?.trim()).join(', ');
  return {
    title: record.title,
    start: dateOf(record.start),
    end: record.end ? dateOf(record.end) : null,
    place: place || null,
    placeFrom: online ? 'online' : from,
    online,
    url: record.url ?? null,
  };
}

/** Reads a proposed calendar once, as the sync would, and keeps what it would list. */
async function previewOf(ctx: AppContext, p: ProposalRecord, signal: AbortSignal): Promise<Preview> {
  const target = communityTarget(ctx, p);
  const readAt = ctx.now();
  const alreadySynced = await syncedAs(ctx, p.url!, p.id);
  try {
    const { check, upcoming } = await readCalendarOnce(target, {
      now: readAt,
      baseUrl: ctx.config.baseUrl,
      timeoutMs: ctx.config.calendars.readTimeoutMs,
      reader: ctx.httpReader,
      signal,
    });
    return {
      readAt: readAt.toISOString(),
      state: check.state,
      error: check.error ?? null,
      events: check.events,
      cut: check.cut ?? null,
      places: check.places,
      upcoming: upcoming.slice(0, PREVIEW_EVENTS).map((r) => previewEvent(r, target)),
      alreadySynced,
    };
  } catch (error) {
    if (signal.aborted) throw error;
    ctx.logger.error({ err: error, proposal: p.id }, 'proposal preview failed');
    return {
      readAt: readAt.toISOString(),
      state: 'failing',
      error: 'the read failed unexpectedly (see the service log)',
      events: 0,
      cut: null,
      places: { event: 0, description: 0, calendar: 0, online: 0, unknown: 0 },
      upcoming: [],
      alreadySynced,
    };
  }
}

/**
 * Reads the previews of proposals still `reading`, a few at a time, in one background job of the process; a job
 * under way picks up what is proposed meanwhile. Called on each proposal and status visit, so that reads a restart
 * interrupted resume.
 */
export function startPreviews(ctx: AppContext): void {
  if (ctx.jobs.running(PREVIEW_READS)) return;
  ctx.jobs.start(PREVIEW_READS, async (_report, signal) => {
    let read = 0;
    for (;;) {
      const batch = await ctx.proposals.list({ state: 'reading', kind: 'calendar', limit: PREVIEW_CONCURRENCY * 4 });
      if (batch.length === 0 || signal.aborted) return read;
      const previewOne = async (i: number) => {
        await ctx.proposals.setPreview(batch[i]!.id, await previewOf(ctx, batch[i]!, signal));
        read++;
      };
      await inParallel(batch.length, PREVIEW_CONCURRENCY, previewOne, () => signal.aborted);
    }
  });
}

/** Retires the upcoming events of a community calendar (their pages stay, as a cancelled event's). */
export async function retireCalendar(ctx: AppContext, id: string): Promise<number> {
  const by = { owner: sourceOwner(COMMUNITY_SOURCE), actor: `proposal:${id}` };
  return (await retireUpcoming(ctx, by, { calendar: id })).length;
}

/** Syncs the accepted community calendars as the feeds are: one run of the `community` source. */
export async function syncCommunityCalendars(ctx: AppContext, options: SyncOptions = {}): Promise<SyncResult> {
  const at = ctx.now();
  const accepted = await ctx.proposals.list({ state: 'accepted', kind: 'calendar' });
  const targets = accepted.map((p) => communityTarget(ctx, p));
  return syncCollection(ctx, COMMUNITY_CALENDARS, at, targets, 'community calendars', options);
}
