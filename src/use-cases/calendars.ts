import { z } from 'zod';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { HOST_SOURCE, keyOwner } from '../catalogue/event.js';
import { parseOrThrow, requiredText, urlField } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import type { Feed } from '../importers/feeds.js';
import { checkAddress, within } from '../importers/http-reader.js';
import { icalImporter } from '../importers/ical.js';
import type { InputError } from '../importers/input-error.js';
import { resolveCity } from '../places/gazetteer.js';
import type { HostCalendar } from '../storage/calendars.repository.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import type { PartState } from '../storage/source-parts.repository.js';
import type { RunCounts, SourceCounts } from '../storage/sources.repository.js';
import { runCounts } from './import-records.js';
import {
  type CalendarRun,
  type CalendarTarget,
  calendarIdPrefix,
  retireUpcoming,
  syncCalendar,
} from './sync-calendars.js';
import { type SyncOptions, type SyncResult, syncCollection } from './sync-feeds.js';

export const linkCalendarSchema = z.strictObject({
  url: urlField().meta({
    description: 'An iCal feed: https, http or webcal (read as https).',
    examples: ['https://www.meetup.com/zurich-ai-meetup/events/ical/'],
  }),
  city: requiredText(100)
    .trim()
    .optional()
    .meta({
      description:
        'Where the calendar’s events are when they do not say (Meetup’s exports name no place): a city of the key’s ' +
        'country. Such events are listed there, in person, placed at the city’s centre.',
      examples: ['Zürich'],
    }),
});

const countsSchema = z.object({
  listed: z.number().int().describe('Upcoming events of the calendar that are listed'),
  cancelled: z.number().int().describe('Upcoming events of the calendar that are cancelled'),
});

/** A host's linked calendar as the host sees it: where it is, and how its last sync went. */
export const calendarSummarySchema = z.object({
  id: z.string().describe('The calendar’s id (`cal_…`)'),
  url: z.string().describe('The feed, as linked (webcal: read as https:)'),
  createdAt: z.string().describe('When it was linked'),
  city: z.string().nullable().describe('Where its events are when they do not say, as linked'),
  state: z
    .enum(['syncing', 'ok', 'failing', 'gone', 'not synced yet'])
    .describe(
      '`syncing`: its first read is under way; `failing` and `gone` (404/410): its events stay as they were until it reads again',
    ),
  lastAttempt: z.string().nullable(),
  lastSuccess: z.string().nullable().describe('The last read that worked (a 304 included)'),
  lastError: z.string().nullable(),
  failures: z.number().int().describe('Failed reads since the last success'),
  cut: z
    .string()
    .nullable()
    .describe(
      'Set when its last read went over a limit of a read (events, recurring series): it keeps its first events, and this says why',
    ),
  counts: countsSchema,
});
export type CalendarSummary = z.output<typeof calendarSummarySchema>;

/** What a calendar's first read imported (and what a limit of the read left out), or why it failed. */
export const firstReadSchema = z.union([
  z.object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    cancelled: z.number().int(),
    restored: z.number().int(),
    skipped: z.number().int(),
    elsewhere: z.number().int(),
    cut: z.string().optional(),
  }),
  z.object({ error: z.string() }),
]);

/** POST /api/calendars: the calendar, whether it was linked now, and what its first sync did. */
export const linkedCalendarSchema = calendarSummarySchema.extend({
  created: z.boolean().describe('False when the key had this URL linked already (nothing changed)'),
  sync: firstReadSchema
    .optional()
    .describe('What the first sync did, when it ended before the answer (on linking only; else state `syncing`)'),
});

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

function summaryOf(
  calendar: HostCalendar,
  state: PartState | undefined,
  counts: SourceCounts,
  reading: boolean,
): CalendarSummary {
  const gone = state?.lastError && /answered HTTP (404|410)/.test(state.lastError);
  return {
    id: calendar.id,
    url: calendar.url,
    createdAt: calendar.createdAt.toISOString(),
    city: calendar.city,
    state:
      reading && !state ? 'syncing' : !state ? 'not synced yet' : state.lastError ? (gone ? 'gone' : 'failing') : 'ok',
    lastAttempt: iso(state?.lastAttemptAt),
    lastSuccess: iso(state?.lastSuccessAt),
    lastError: state?.lastError ?? null,
    failures: state?.failures ?? 0,
    cut: state?.lastRun?.cut ?? null,
    counts,
  };
}

/** What a host's calendar syncs as: the host's own events, under its name, apart from those it pushes. */
function targetOf(
  ctx: AppContext,
  calendar: HostCalendar,
  host: Pick<ApiKeyRecord, 'name' | 'country'>,
): CalendarTarget {
  return {
    source: HOST_SOURCE,
    part: calendar.id,
    url: calendar.url,
    owner: keyOwner(calendar.keyId),
    actor: `calendar:${calendar.id}`,
    idPrefix: calendarIdPrefix(calendar.id),
    country: host.country,
    city: calendar.city ?? undefined,
    organizer: host.name,
    guard: ctx.calendarGuard,
    keepOthersCancels: true,
  };
}

/**
 * An absolute http(s) URL without credentials, else a ValidationError on `url`. With `webcal`, how calendars publish
 * subscriptions, `webcal:` is taken too, meaning https.
 */
export function httpUrl(input: string, kinds: 'http(s)' | 'http(s) or webcal'): string {
  const invalid = (message: string) => new ValidationError([{ field: 'url', message }]);
  let url: URL;
  try {
    url = new URL(kinds === 'http(s)' ? input : input.replace(/^webcal:/i, 'https:'));
  } catch {
    throw invalid(`must be an absolute ${kinds} URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`must be an ${kinds} URL, not ${url.protocol}`);
  if (url.username || url.password) throw invalid('must not carry a user name or password');
  return url.toString();
}

/** How long linking waits for the first read before it answers that the read goes on: a healthy calendar is read by then. */
const LINK_ANSWER_MS = 800;
const FIRST_READ = 'calendar-read';

/** A link's first read went wrong: the problem the host gets, naming the field. */
function refusedLink(run: Pick<CalendarRun, 'error' | 'failedAs'>): ValidationError {
  const message =
    run.failedAs === 'refused'
      ? `is refused: ${run.error}`
      : run.failedAs === 'not-calendar'
        ? `is not an iCal feed: ${run.error}`
        : `could not be read: ${run.error}`;
  return new ValidationError([{ field: 'url', message }]);
}

/** The calendar's first read, in the background under the limits of every calendar read (see CALENDAR_LIMITS). */
function startFirstRead(ctx: AppContext, calendar: HostCalendar, host: ApiKeyRecord) {
  return ctx.jobs.start(
    FIRST_READ,
    (_report, signal) =>
      syncCalendar(ctx, targetOf(ctx, calendar, host), undefined, {
        importer: icalImporter,
        signal,
        background: ctx.index !== undefined,
      }),
    calendar.id,
  );
}

/**
 * Links an iCal feed to a host's key, to be imported as the host's own and synced from then on. The URL and where it
 * leads are checked at once (public addresses only, unless the operator allows more); the first read runs in the
 * background, and linking waits `waitMs` for it: a read that ends by then and fails unlinks the calendar again and
 * is refused here; one still going is `syncing` in listCalendars, its outcome there once it ends. Linking the same URL
 * again answers with that calendar.
 */
export async function linkCalendar(
  ctx: AppContext,
  host: ApiKeyRecord,
  input: unknown,
  options: { waitMs?: number } = {},
): Promise<{ calendar: CalendarSummary; created: boolean; sync?: CalendarRun }> {
  const parsed = parseOrThrow(linkCalendarSchema, input);
  const url = httpUrl(parsed.url, 'http(s) or webcal');
  const city = parsed.city === undefined ? undefined : resolveCity(parsed.city, host.country);
  if (parsed.city !== undefined && !city)
    throw new ValidationError([{ field: 'city', message: `is not a known place in ${host.country}` }]);
  const linked = await ctx.calendars.linked(host.id);
  const existing = linked.find((c) => c.url === url);
  if (existing)
    return { calendar: (await listCalendars(ctx, host)).find((c) => c.id === existing.id)!, created: false };
  if (linked.length >= ctx.config.calendars.perKey)
    throw new ServiceError(
      'too-many-calendars',
      `This key has ${linked.length} linked calendars, the most it may have; unlink one first.`,
    );
  try {
    await checkAddress(url, ctx.calendarGuard);
  } catch (error) {
    throw refusedLink({
      error: (error as Error).message,
      failedAs: (error as InputError).refused ? 'refused' : undefined,
    });
  }
  const calendar = await ctx.calendars.link(host.id, url, city?.name);
  if (!calendar) return linkCalendar(ctx, host, input, options); // linked by a concurrent request: answer as a resend
  const job = startFirstRead(ctx, calendar, host);
  await within(job.settled, options.waitMs ?? LINK_ANSWER_MS);
  const sync = job.state === 'done' ? job.result : undefined;
  if (sync && (sync.outcome === 'failed' || sync.outcome === 'gone')) {
    await ctx.calendars.unlink(calendar.id, ctx.now());
    throw refusedLink(sync);
  }
  const summary = (await listCalendars(ctx, host)).find((c) => c.id === calendar.id)!;
  return { calendar: summary, created: true, ...(sync ? { sync } : {}) };
}

/** The calendars a host has linked, oldest first, each with the state of its last sync. */
export async function listCalendars(ctx: AppContext, host: ApiKeyRecord): Promise<CalendarSummary[]> {
  const [calendars, states, counts] = await Promise.all([
    ctx.calendars.linked(host.id),
    ctx.sourceParts.list(HOST_SOURCE),
    ctx.sources.countsByCalendar(keyOwner(host.id), ctx.now()),
  ]);
  const stateOf = new Map(states.map((s) => [s.part, s]));
  return calendars.map((c) =>
    summaryOf(
      c,
      stateOf.get(c.id),
      counts.get(c.id) ?? { listed: 0, cancelled: 0 },
      ctx.jobs.running(FIRST_READ, c.id) !== undefined,
    ),
  );
}

/** Unlinks a host's calendar and retires its upcoming events (pages stay); another key's calendar is not found. */
export async function unlinkCalendar(
  ctx: AppContext,
  host: ApiKeyRecord,
  id: string,
): Promise<{ id: string; unlinked: true; retired: number }> {
  const calendar = await ctx.calendars.find(id);
  if (!calendar || calendar.keyId !== host.id || calendar.unlinkedAt)
    throw new ServiceError('calendar-not-found', `This key has no linked calendar “${id}”.`);
  await ctx.calendars.unlink(id, ctx.now());
  const retired = await retireUpcoming(ctx, { owner: keyOwner(host.id), actor: `calendar:${id}` }, { calendar: id });
  return { id, unlinked: true, retired: retired.length };
}

/** The calendars hosts linked, as the sync schedule and `/api/sources` name them: the `host` source's. */
export const LINKED_CALENDARS = {
  source: HOST_SOURCE,
  format: 'ical',
  url: 'calendars linked by hosts (POST /api/calendars)',
} as const satisfies Feed;

/** Syncs hosts' calendars (of live keys) as the feeds are: one run of the `host` source, failing only if all fail. */
export async function syncLinkedCalendars(ctx: AppContext, options: SyncOptions = {}): Promise<SyncResult> {
  const at = ctx.now();
  const calendars = await ctx.calendars.linked();
  const hosts = new Map((await ctx.keys.list()).map((k) => [k.id, k]));
  const targets = calendars.flatMap((c) => {
    const host = hosts.get(c.keyId);
    return host && !host.revokedAt ? [targetOf(ctx, c, host)] : [];
  });
  return syncCollection(ctx, LINKED_CALENDARS, at, targets, 'linked calendars', options);
}

/** The operator's side (the CLI, by key id): the active key, or `invalid-key`. */
async function activeKey(ctx: AppContext, keyId: string): Promise<ApiKeyRecord> {
  const host = await ctx.keys.find(keyId);
  if (!host || host.revokedAt) throw new ServiceError('invalid-key', `No active key “${keyId}”.`);
  return host;
}

/** What an operator's link did: the calendar, and its first sync's counts or error. */
export interface OperatorLink {
  id: string;
  keyId: string;
  created: boolean;
  counts?: RunCounts;
  /** Its first read went over a limit on events: what was left out. */
  cut?: string;
  error?: string;
}

/** Links a calendar to a key by the key's id, as its host would (see linkCalendar), waiting for its first read. */
export async function linkCalendarForKey(ctx: AppContext, keyId: string, url: string): Promise<OperatorLink> {
  const { calendar, created, sync } = await linkCalendar(
    ctx,
    await activeKey(ctx, keyId),
    { url },
    { waitMs: Number.POSITIVE_INFINITY },
  );
  return {
    id: calendar.id,
    keyId,
    created,
    ...(sync?.report ? { counts: runCounts(sync.report) } : {}),
    ...(sync?.cut ? { cut: sync.cut } : {}),
    ...(sync?.error ? { error: sync.error } : {}),
  };
}

/** The linked calendars of one key, or of every active key. */
export async function listCalendarsByKey(
  ctx: AppContext,
  keyId?: string,
): Promise<{ keyId: string; calendars: CalendarSummary[] }[]> {
  const keys = keyId ? [await activeKey(ctx, keyId)] : (await ctx.keys.list()).filter((k) => !k.revokedAt);
  return Promise.all(keys.map(async (key) => ({ keyId: key.id, calendars: await listCalendars(ctx, key) })));
}

/** Unlinks a calendar by its id, whichever key linked it (see unlinkCalendar). */
export async function unlinkCalendarById(ctx: AppContext, id: string): Promise<{ id: string; retired: number }> {
  const calendar = await ctx.calendars.find(id);
  if (!calendar) throw new ServiceError('calendar-not-found', `No linked calendar “${id}”.`);
  const { retired } = await unlinkCalendar(ctx, await activeKey(ctx, calendar.keyId), id);
  return { id, retired };
}
