import { basename } from 'node:path';
import { HOST_SOURCE, sourceOwner } from '../catalogue/event.js';
import type { AppContext } from '../context.js';
import { type Feed, type FeedPart, feedParts, isEnabled } from '../importers/feeds.js';
import { importerFor, isUrl } from '../importers/registry.js';
import type { ProposalRecord } from '../storage/proposals.repository.js';
import type { PartState } from '../storage/source-parts.repository.js';
import type { RunCounts, SourceCounts } from '../storage/sources.repository.js';
import { COMMUNITY_CALENDARS, COMMUNITY_SOURCE } from './proposals.js';
import { scheduledNextTry } from './sync-schedule.js';

/** One source as `GET /api/sources` and the sources page show it. */
export interface SourceView {
  source: string;
  /** The format it is read in (`confs-tech`, `devopsdays`, `ical`…), or `host` for events pushed by hosts. */
  kind: string;
  /** In the feeds file, and synced (false: listed there but switched off). */
  feed: boolean;
  enabled: boolean;
  /** Where it is read: the feed's URL template(s), or the input of its last import. */
  url: string | null;
  /** The URLs a sync reads now (a feed's templates filled in). */
  urls: string[];
  licence: string | null;
  about: string | null;
  lastAttempt: string | null;
  lastSuccess: string | null;
  lastError: string | null;
  /** Failed runs since the last success. */
  failures: number;
  lastRun: RunCounts | null;
  /** The shipped snapshot loaded for it: the date of its data, and when it was loaded. */
  snapshot: { of: string | null; loadedAt: string } | null;
  /**
   * How old its data is: when a read last confirmed it (a successful sync, a 304 included), else the date of the
   * shipped snapshot it was loaded from (YYYY-MM-DD); null when it holds no data yet.
   */
  dataAsOf: string | null;
  /**
   * When the service reads it next (a feed synced on the schedule): the earliest time of the next try, as its last
   * attempt and failures set it; now when it has not been tried yet. Null for what is not synced here.
   */
  nextTry: string | null;
  /** Its events not over yet. */
  counts: SourceCounts;
  /** A feed of several calendars: each one's state, by its id in the feed. */
  calendars?: CalendarView[];
}

/** One calendar of a feed of calendars, as `GET /api/sources` shows it. */
export interface CalendarView {
  /** Its id in the feed (a Meetup group's name): the values of `each` it was made with. */
  id: string;
  /** The group's name, city and country where the feeds file gives them. */
  name: string | null;
  city: string | null;
  country: string | null;
  url: string;
  /** `ok`, `failing` (its events stay as they were), `gone` (404/410; its events stay) or `not synced yet`. */
  state: 'ok' | 'failing' | 'gone' | 'not synced yet';
  lastAttempt: string | null;
  lastSuccess: string | null;
  /** The last read that brought new content (a 304 confirms, but does not change). */
  lastChanged: string | null;
  lastError: string | null;
  failures: number;
  /** Set when its last read went over a limit of a calendar read and kept its first events: what was left out. */
  cut: string | null;
  counts: SourceCounts;
  /** A calendar its community proposed (POST /api/calendars/proposals): `community`, and when it was accepted. */
  proposedBy?: 'community';
  acceptedAt?: string;
}

export interface SourcesView {
  /** Minutes between syncs in this service (0: off). */
  syncIntervalMinutes: number;
  /** When the catalogue last took in a source's data (a successful sync or a loaded snapshot). */
  lastRefreshed: string | null;
  sources: SourceView[];
}

/**
 * Shown publicly, so without what may be private: a file path becomes its file name, and a URL loses its query
 * string and credentials (private calendar links carry their token there).
 */
export function publicLocation(location: string): string {
  if (!isUrl(location)) return `file:${basename(location)}`;
  try {
    const url = new URL(location.replace(/\{/g, '%7B').replace(/\}/g, '%7D'));
    return `${url.protocol}//${url.host}${url.pathname}`.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
  } catch {
    return location.split('?')[0]!;
  }
}

/** An error message as shown publicly: the URLs and file paths in it as `publicLocation` shows them. */
export function publicError(message: string): string {
  return message
    .replace(/\b(?:https?|webcal):\/\/[^\s)]+?(?=[.,;:]?(?:\s|\)|$))/gi, publicLocation)
    .replace(/(^|[\s(])(\/[^\s:)]+)/g, (_, before: string, path: string) => `${before}${publicLocation(path)}`);
}

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** Every source: the feeds of the feeds file first (in its order), then any other source that has events or state. */
export async function listSources(ctx: AppContext): Promise<SourcesView> {
  const now = ctx.now();
  const [states, counts, lastRefreshed, partStates] = await Promise.all([
    ctx.sources.list(),
    ctx.sources.counts(now),
    ctx.sources.lastRefreshed(),
    ctx.sourceParts.list(),
  ]);
  const stateOf = new Map(states.map((s) => [s.source, s]));
  const none: SourceCounts = { listed: 0, cancelled: 0 };
  const view = (source: string, kind: string): SourceView => {
    const state = stateOf.get(source);
    return {
      source,
      kind,
      feed: false,
      enabled: false,
      url: state?.url ? state.url.split(' ').map(publicLocation).join(' ') : null,
      urls: [],
      licence: state?.licence ?? null,
      about: null,
      lastAttempt: iso(state?.lastAttemptAt),
      lastSuccess: iso(state?.lastSuccessAt),
      lastError: state?.lastError ? publicError(state.lastError) : null,
      failures: state?.failures ?? 0,
      lastRun: state?.lastRun ?? null,
      snapshot: state?.seededAt ? { of: state.snapshotOf, loadedAt: state.seededAt.toISOString() } : null,
      dataAsOf: iso(state?.lastSuccessAt) ?? state?.snapshotOf ?? null,
      nextTry: null,
      counts: counts.get(source) ?? none,
    };
  };
  const interval = ctx.config.syncIntervalMinutes;
  // A feed the schedule has not tried yet is tried now.
  const nextTry = (feed: Feed) =>
    isEnabled(feed) && interval > 0
      ? new Date(scheduledNextTry(stateOf.get(feed.source), interval) ?? now.getTime()).toISOString()
      : null;
  const sources: SourceView[] = await Promise.all(
    ctx.feeds.map(async (feed) => {
      const templates = Array.isArray(feed.url) ? feed.url : [feed.url];
      const feedPartsNow = feedParts(feed, now);
      const isCalendars = importerFor(feed.format)?.calendar === true && feedPartsNow.length > 1;
      return {
        ...view(feed.source, feed.format),
        feed: true,
        enabled: isEnabled(feed),
        url: templates.map(publicLocation).join(' '),
        urls: feedPartsNow.map((p) => publicLocation(p.url)),
        licence: feed.licence ?? null,
        about: feed.about ?? null,
        nextTry: nextTry(feed),
        ...(isCalendars ? { calendars: await calendarViews(ctx, feed, feedPartsNow, partStates, now) } : {}),
      };
    }),
  );
  const listed = new Set(sources.map((s) => s.source));
  const others = new Set([...stateOf.keys(), ...counts.keys()].filter((s) => !listed.has(s)));
  const accepted = await ctx.proposals.list({ state: 'accepted', kind: 'calendar' });
  if (accepted.length > 0) others.add(COMMUNITY_SOURCE);
  for (const source of [...others].sort()) {
    const kind = source === HOST_SOURCE ? 'host' : (stateOf.get(source)?.format ?? 'import');
    if (source !== COMMUNITY_SOURCE) sources.push(view(source, kind));
    else
      sources.push({
        ...view(source, 'ical'),
        calendars: await communityViews(ctx, accepted, partStates, now),
        nextTry: accepted.length > 0 ? nextTry(COMMUNITY_CALENDARS) : null,
      });
  }
  return { syncIntervalMinutes: ctx.config.syncIntervalMinutes, lastRefreshed: iso(lastRefreshed), sources };
}

/** The calendars communities proposed and the operator accepted, in the order they were proposed. */
async function communityViews(
  ctx: AppContext,
  accepted: readonly ProposalRecord[],
  states: readonly PartState[],
  now: Date,
): Promise<CalendarView[]> {
  const counts = await ctx.sources.countsByCalendar(sourceOwner(COMMUNITY_SOURCE), now);
  const stateOf = new Map(states.filter((s) => s.source === COMMUNITY_SOURCE).map((s) => [s.part, s]));
  return accepted.map((p) => {
    const state = stateOf.get(p.id);
    return {
      ...calendarView(p.id, state, counts.get(p.id)),
      name: p.name,
      city: p.city,
      country: p.country,
      url: publicLocation(p.url!),
      proposedBy: 'community',
      acceptedAt: p.decidedAt!.toISOString(),
    };
  });
}

/** A calendar's state as `GET /api/sources` shows it, from what its last reads recorded. */
function calendarView(id: string, state: PartState | undefined, counts: SourceCounts | undefined) {
  const gone = state?.lastError && /answered HTTP (404|410)/.test(state.lastError);
  return {
    id,
    state: !state ? 'not synced yet' : state.lastError ? (gone ? 'gone' : 'failing') : 'ok',
    lastAttempt: iso(state?.lastAttemptAt),
    lastSuccess: iso(state?.lastSuccessAt),
    lastChanged: iso(state?.lastChangedAt),
    lastError: state?.lastError ? publicError(state.lastError) : null,
    failures: state?.failures ?? 0,
    cut: state?.lastRun?.cut ?? null,
    counts: counts ?? { listed: 0, cancelled: 0 },
  } satisfies Partial<CalendarView>;
}

/** The state of each calendar of a feed of calendars, in the feed's order. */
async function calendarViews(
  ctx: AppContext,
  feed: Feed,
  parts: readonly FeedPart[],
  states: readonly PartState[],
  now: Date,
): Promise<CalendarView[]> {
  const counts = await ctx.sources.countsByCalendar(sourceOwner(feed.source), now);
  const stateOf = new Map(states.filter((s) => s.source === feed.source).map((s) => [s.part, s]));
  return parts.map((part) => {
    const id = part.key || part.url;
    return {
      ...calendarView(id, stateOf.get(id), counts.get(part.key)),
      name: part.entry?.name ?? null,
      city: part.entry?.city ?? null,
      country: part.entry?.country ?? feed.country ?? null,
      url: publicLocation(part.url),
    };
  });
}
