import type { AppContext } from '../context.js';
import { CALENDAR_LIMITS } from '../importers/calendar-limits.js';
import { type Feed, feedParts, isEnabled } from '../importers/feeds.js';
import type { HttpReader } from '../importers/http-reader.js';
import { type ImportedRecord, unusableInput } from '../importers/importer.js';
import { importerFor, readInput, userAgentOf } from '../importers/registry.js';
import { inParallel } from './in-turn.js';
import { type CalendarTarget, calendarWindow, fullWindowEnd } from './sync-calendars.js';
import { calendarTarget, readFeedsFile } from './sync-feeds.js';

/** What one read of a calendar found: what an operator pastes into an issue. */
export type CheckState = 'ok' | 'empty' | 'gone' | 'failing' | 'not iCal';

export interface CalendarCheck {
  source: string;
  /** The calendar's id in its feed (a Meetup group's urlname), or its URL. */
  calendar: string;
  url: string;
  state: CheckState;
  /** Why it is gone, failing or not iCal. */
  error?: string;
  /** Upcoming events the calendar shows now. */
  events: number;
  /** The most it shows at once, when known; `full` when it shows that many (later events are not in this read). */
  window?: number;
  full: boolean;
  /** Set when the read went over a limit of CALENDAR_LIMITS and kept its first events: what was left out, and why. */
  cut?: string;
  /** Where the upcoming events' places come from: their own LOCATION/GEO, their description, the calendar's entry. */
  places: { event: number; description: number; calendar: number; online: number; unknown: number };
  next?: { title: string; start: string };
}

export interface CheckOptions {
  now: Date;
  /** The service's public address: the User-Agent names it, as the sync's does. */
  baseUrl: string;
  /** Each read's deadline, as the sync's (CALENDAR_READ_TIMEOUT_MS). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Reads at once (the HTTP reader keeps to a few per host in any case). */
  concurrency?: number;
  /** Whose reads these are: they take turns at each host with the reader's others (a service's, its syncs'). */
  reader: HttpReader;
  onDone?: (check: CalendarCheck) => void;
}

const startOf = (start: { instant: Date } | { date: string }) =>
  'instant' in start ? start.instant : new Date(`${start.date}T00:00:00Z`);

/** What one read of a calendar found, with its upcoming events in start order (see readCalendarOnce). */
export interface CalendarReadOnce {
  check: CalendarCheck;
  upcoming: ImportedRecord[];
}

/**
 * Reads one calendar as the sync would: the same reader, limits, the target's address rules and its importer
 * (`format`, iCal by default); imports nothing. Its upcoming events are placed as the sync would place them.
 */
export async function readCalendarOnce(target: CalendarTarget, options: CheckOptions): Promise<CalendarReadOnce> {
  const window = calendarWindow(target.url, target.window);
  const check: CalendarCheck = {
    source: target.source,
    calendar: target.part,
    url: target.url,
    state: 'ok',
    events: 0,
    ...(window ? { window } : {}),
    full: false,
    places: { event: 0, description: 0, calendar: 0, online: 0, unknown: 0 },
  };
  let text: string;
  try {
    text = await readInput(target.url, {
      timeoutMs: options.timeoutMs,
      maxBytes: CALENDAR_LIMITS.maxBytes,
      signal: options.signal,
      reader: options.reader,
      userAgent: userAgentOf(options.baseUrl),
      guard: target.guard,
    });
  } catch (error) {
    const gone = (error as { notFound?: boolean }).notFound === true;
    return { check: { ...check, state: gone ? 'gone' : 'failing', error: (error as Error).message }, upcoming: [] };
  }
  const format = target.format ?? 'ical';
  const importer = importerFor(format);
  if (!importer) return { check: { ...check, state: 'failing', error: `no importer reads ${format}` }, upcoming: [] };
  const parsed = importer.parse(text, { now: options.now, defaultCountry: target.country, inputName: target.url });
  const broken = unusableInput(parsed);
  if (broken) return { check: { ...check, state: 'not iCal', error: broken.message }, upcoming: [] };
  const upcoming = parsed.records
    .filter((r) => startOf(r.end ?? r.start) >= options.now)
    .sort((a, b) => startOf(a.start).getTime() - startOf(b.start).getTime());
  for (const record of upcoming) {
    // As the sync places it: an event that says nothing is in its calendar's city, if the calendar has one.
    const from = record.placeFrom === 'calendar' && !target.city ? 'unknown' : (record.placeFrom ?? 'unknown');
    if (record.format === 'online') check.places.online++;
    else check.places[from]++;
  }
  const next = upcoming[0];
  return {
    check: {
      ...check,
      state: upcoming.length === 0 ? 'empty' : 'ok',
      events: upcoming.length,
      full: fullWindowEnd(parsed.records, window) !== undefined,
      ...(parsed.cut ? { cut: parsed.cut } : {}),
      ...(next ? { next: { title: next.title, start: startOf(next.start).toISOString() } } : {}),
    },
    upcoming,
  };
}

/** The calendars of the feeds of calendars (iCal feeds), as the sync reads them. */
export function calendarTargets(feeds: readonly Feed[], now: Date): CalendarTarget[] {
  return feeds
    .filter((feed) => isEnabled(feed) && importerFor(feed.format)?.calendar)
    .flatMap((feed) => feedParts(feed, now).map((part) => calendarTarget(feed, part)));
}

/**
 * Reads every calendar of the feeds once, without importing or recording anything: its state, its upcoming events,
 * where their places come from and the next one. In the feeds' order.
 */
export async function checkCalendars(feeds: readonly Feed[], options: CheckOptions): Promise<CalendarCheck[]> {
  const targets = calendarTargets(feeds, options.now);
  const checks: CalendarCheck[] = new Array(targets.length);
  const checkOne = async (i: number) => {
    checks[i] = (await readCalendarOnce(targets[i]!, options)).check;
    options.onDone?.(checks[i]!);
  };
  await inParallel(targets.length, options.concurrency ?? 4, checkOne, () => options.signal?.aborted === true);
  return checks;
}

/** Checks the calendars of the configured feeds file as it is now: what `GET /api/admin/calendars/check` does. */
export async function checkConfiguredCalendars(
  ctx: AppContext,
  options: Pick<CheckOptions, 'signal'> = {},
): Promise<{ checkedAt: Date; calendars: CalendarCheck[] }> {
  const { path, named } = ctx.config.feedsFile;
  const feeds = await readFeedsFile(path, !named);
  const checkedAt = ctx.now();
  const calendars = await checkCalendars(feeds, {
    now: checkedAt,
    baseUrl: ctx.config.baseUrl,
    timeoutMs: ctx.config.calendars.readTimeoutMs,
    reader: ctx.httpReader,
    ...options,
  });
  return { checkedAt, calendars };
}
