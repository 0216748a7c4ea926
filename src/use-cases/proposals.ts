import { z } from 'zod';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { sourceOwner } from '../catalogue/event.js';
import { parseOrThrow, requiredText } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import { recognizeCalendar } from '../importers/calendar-address.js';
import type { Feed } from '../importers/feeds.js';
import { checkAddress } from '../importers/http-reader.js';
import type { ImportedRecord } from '../importers/importer.js';
import type { InputError } from '../importers/input-error.js';
import { importerFor } from '../importers/registry.js';
import { COUNTRIES, type Country } from '../places/countries.js';
import { resolveCity } from '../places/gazetteer.js';
import type { ProposalRecord } from '../storage/proposals.repository.js';
import { calendarTargets, readCalendarOnce } from './check-calendars.js';
import { runCounts } from './import-records.js';
import { retireByExternalIds } from './store-many.js';
import {
  type CalendarRun,
  type CalendarTarget,
  calendarIdPrefix,
  sumReports,
  syncCalendar,
  syncCalendars,
} from './sync-calendars.js';
import { recordRun, type SyncOptions, type SyncResult } from './sync-feeds.js';

/** The source of accepted community calendars' events, in `/api/sources` and on every event. */
export const COMMUNITY_SOURCE = 'community';

/** Kinds of proposal: a calendar to sync, or a request for a host key. */
export const PROPOSAL_KINDS = ['calendar', 'key'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

/**
 * `reading`: its calendar is being read for the preview; `waiting`: for the operator; then `accepted`, `rejected`
 * (with a reason) or `removed` (an accepted calendar taken out again, its upcoming events retired).
 */
export const PROPOSAL_STATES = ['reading', 'waiting', 'accepted', 'rejected', 'removed'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/** Who decided: the command line, the admin API, the admin page. */
export const MODERATION_ACTORS = ['cli', 'admin-api', 'admin-page'] as const;
export type ModerationActor = (typeof MODERATION_ACTORS)[number];

/** Where a previewed event's place comes from, as the sync would place it. */
export const PLACE_ORIGINS = ['event', 'description', 'calendar', 'online', 'unknown'] as const;

const countryField = z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` });

export const proposeCalendarSchema = z.strictObject({
  url: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(2000)
    .meta({
      description:
        'The calendar: a Meetup group’s page, a Google calendar’s embed or share link, a Luma calendar’s or any ' +
        'other iCal address (https, http or webcal).',
      examples: ['https://www.meetup.com/zurich-ai-meetup/'],
    }),
  city: requiredText(100)
    .trim()
    .optional()
    .meta({ description: 'Where its events are when they do not say (a city of `country`).', examples: ['Zürich'] }),
  country: countryField.optional().describe('The country of its events (default ch).'),
  name: requiredText(200)
    .trim()
    .optional()
    .meta({ description: 'The community’s name: its events’ organizer.', examples: ['Zurich AI Meetup'] }),
});

export const requestKeySchema = z.strictObject({
  organisation: requiredText(200)
    .trim()
    .meta({ description: 'The organisation that will push events: its name is their organizer.' }),
  country: countryField.describe('The country of its events.'),
  plans: requiredText(2000)
    .trim()
    .meta({ description: 'What it will push: which events, how often, from what system.' }),
  website: z
    .string()
    .trim()
    .max(2000)
    .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'must be an http(s) URL')
    .optional()
    .describe('Where the operator can see who it is.'),
});

const previewEventSchema = z.object({
  title: z.string(),
  start: z.string().describe('ISO 8601 instant, or a date YYYY-MM-DD for an all-day event'),
  end: z.string().nullable(),
  place: z.string().nullable().describe('The place as the event would be listed (venue, city), or null'),
  placeFrom: z.enum(PLACE_ORIGINS).describe('Where the place comes from'),
  online: z.boolean(),
  url: z.string().nullable().describe('The event’s own link'),
});

export const previewSchema = z.object({
  readAt: z.string(),
  state: z
    .enum(['ok', 'empty', 'gone', 'failing', 'not iCal'])
    .describe('What the read found, as `GET /api/admin/calendars/check` says it'),
  error: z.string().nullable(),
  events: z.number().int().describe('Upcoming events it shows'),
  cut: z.string().nullable().describe('Set when the read went over a limit and kept its first events'),
  places: z.object({
    event: z.number().int(),
    description: z.number().int(),
    calendar: z.number().int(),
    online: z.number().int(),
    unknown: z.number().int(),
  }),
  upcoming: z.array(previewEventSchema).describe('The first upcoming events (at most 20)'),
  alreadySynced: z
    .object({ source: z.string(), calendar: z.string() })
    .nullable()
    .describe('Set when the catalogue syncs this calendar already: the source and the calendar’s id there'),
});
export type Preview = z.output<typeof previewSchema>;

export const proposalViewSchema = z.object({
  id: z.string().describe('`prp_` and 32 hex digits: whoever knows it can see the proposal'),
  kind: z.enum(PROPOSAL_KINDS),
  state: z.enum(PROPOSAL_STATES),
  createdAt: z.string(),
  decidedAt: z.string().nullable().describe('When it was accepted, rejected or removed'),
  reason: z.string().nullable().describe('Why it was rejected or removed'),
  statusUrl: z.string().describe('Where to see it: `GET` answers this view'),
  calendar: z
    .object({
      given: z.string().describe('The address as proposed'),
      url: z.string().describe('The feed read (a group page becomes its iCal export)'),
      platform: z.enum(['meetup', 'luma', 'google', 'bevy', 'ical']),
      format: z.string().describe('The importer that reads it'),
      name: z.string().nullable(),
      city: z.string().nullable(),
      country: z.enum(COUNTRIES),
      preview: previewSchema.nullable().describe('Null while it is being read'),
    })
    .optional()
    .describe('A calendar proposal'),
  keyRequest: z
    .object({
      organisation: z.string(),
      country: z.enum(COUNTRIES),
      plans: z.string(),
      website: z.string().nullable(),
      keyId: z.string().nullable().describe('The key issued on acceptance'),
      key: z.string().optional().describe('The key itself, on the first visit after acceptance only'),
      keyShownAt: z.string().nullable().describe('When the key was shown; it is never shown again'),
    })
    .optional()
    .describe('A request for a host key'),
});
export type ProposalView = z.output<typeof proposalViewSchema>;

/** The operator's view: the public one with its audit log. */
export const proposalDetailSchema = proposalViewSchema.extend({
  sync: z
    .union([
      z.object({
        created: z.number().int(),
        updated: z.number().int(),
        unchanged: z.number().int(),
        cancelled: z.number().int(),
        restored: z.number().int(),
        skipped: z.number().int(),
        elsewhere: z.number().int(),
      }),
      z.object({ error: z.string() }),
    ])
    .optional()
    .describe(
      'On acceptance of a calendar: what its first read imported, or why it failed (it is read again on the schedule)',
    ),
  log: z.array(
    z.object({
      at: z.string(),
      actor: z.enum(MODERATION_ACTORS),
      action: z.enum(['accept', 'reject', 'remove']),
      reason: z.string().nullable(),
    }),
  ),
});
export type ProposalDetail = z.output<typeof proposalDetailSchema>;

/** Who proposes: their address, for the per-address limit only (kept in memory, never stored). */
export interface ProposalClient {
  address: string;
}

/** What creating a proposal answers: its view, and whether it is new (202) or the same URL's earlier one (200). */
export interface Proposed {
  proposal: ProposalView;
  created: boolean;
}

export interface ProposalFilter {
  state?: ProposalState;
  kind?: ProposalKind;
}

/** The calendars communities proposed and the operator accepted, as the schedule and `/api/sources` name them. */
export const COMMUNITY_CALENDARS = {
  source: COMMUNITY_SOURCE,
  format: 'ical',
  url: 'calendars proposed by their communities (POST /api/calendars/proposals)',
} as const satisfies Feed;

/** Proposals waiting (for a read or the operator) beyond which no more are taken: spam cannot fill the database. */
export const MAX_PENDING_PROPOSALS = 500;
/** The upcoming events a preview keeps: enough to judge a calendar by. */
const PREVIEW_EVENTS = 20;
/** Previews read at once: a crowd of proposals waits its turn instead of opening reads without bound. */
const PREVIEW_CONCURRENCY = 2;
const PREVIEW_READS = 'proposal-previews';

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const statusUrlOf = (ctx: AppContext, id: string) => `${ctx.config.baseUrl}/api/proposals/${id}`;

const notFound = (id: string) => new ServiceError('proposal-not-found', `No proposal “${id}”.`);

/** The public view of a proposal; `key` is an accepted key request's key, given out this once. */
function viewOf(ctx: AppContext, p: ProposalRecord, key?: string): ProposalView {
  const view: ProposalView = {
    id: p.id,
    kind: p.kind,
    state: p.state,
    createdAt: p.createdAt.toISOString(),
    decidedAt: iso(p.decidedAt),
    reason: p.reason,
    statusUrl: statusUrlOf(ctx, p.id),
  };
  if (p.kind === 'calendar')
    view.calendar = {
      given: p.given ?? p.url!,
      url: p.url!,
      platform: p.platform as NonNullable<ProposalView['calendar']>['platform'],
      format: p.format ?? 'ical',
      name: p.name,
      city: p.city,
      country: p.country as Country,
      preview: (p.preview as Preview | null) ?? null,
    };
  else
    view.keyRequest = {
      organisation: p.organisation!,
      country: p.country as Country,
      plans: p.plans!,
      website: p.website,
      keyId: p.keyId,
      ...(key ? { key } : {}),
      keyShownAt: iso(p.keyShownAt),
    };
  return view;
}

/** Refuses a new proposal while too many wait (503 with Retry-After). */
async function ensureRoom(ctx: AppContext): Promise<void> {
  const pending = await ctx.proposals.pending();
  if (pending >= MAX_PENDING_PROPOSALS)
    throw new ServiceError(
      'proposals-full',
      `${pending} proposals wait for the operator; no more are taken until they have been looked at.`,
      { retryAfter: 3600 },
    );
}

/** What an accepted community calendar syncs as: the `community` source's, under the proposal's id. */
function communityTarget(ctx: AppContext, p: ProposalRecord): CalendarTarget {
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
async function syncedAs(ctx: AppContext, url: string, self: string): Promise<Preview['alreadySynced']> {
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
      format: p.format ?? 'ical',
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
function startPreviews(ctx: AppContext): void {
  if (ctx.jobs.running(PREVIEW_READS)) return;
  ctx.jobs.start(PREVIEW_READS, async (_report, signal) => {
    let read = 0;
    for (;;) {
      const batch = await ctx.proposals.list({ state: 'reading', kind: 'calendar', limit: PREVIEW_CONCURRENCY * 4 });
      if (batch.length === 0 || signal.aborted) return read;
      let next = 0;
      const worker = async () => {
        while (next < batch.length && !signal.aborted) {
          const p = batch[next++]!;
          await ctx.proposals.setPreview(p.id, await previewOf(ctx, p, signal));
          read++;
        }
      };
      await Promise.all(Array.from({ length: PREVIEW_CONCURRENCY }, worker));
    }
  });
}

/**
 * Proposes a calendar, keyless: the address is recognised (a Meetup group's page is its iCal export…), refused at
 * once when it leads to a private address, and read once in the background for the preview (`reading` until
 * then). The same calendar proposed again answers with its proposal (`created` false), whatever its state.
 * `client` is who asks, for the log; nothing of it is stored.
 */
export async function proposeCalendar(ctx: AppContext, input: unknown, client: ProposalClient): Promise<Proposed> {
  const parsed = parseOrThrow(proposeCalendarSchema, input);
  const calendar = recognizeCalendar(parsed.url);
  const country = parsed.country ?? 'ch';
  const city = parsed.city === undefined ? undefined : resolveCity(parsed.city, country);
  if (parsed.city !== undefined && !city)
    throw new ValidationError([{ field: 'city', message: `is not a known place in ${country}` }]);
  const existing = await ctx.proposals.findByUrl(calendar.url);
  if (existing) return { proposal: viewOf(ctx, existing), created: false };
  try {
    await checkAddress(calendar.url, ctx.calendarGuard);
  } catch (error) {
    const refused = (error as InputError).refused === true;
    const message = (error as Error).message;
    throw new ValidationError([{ field: 'url', message: refused ? `is refused: ${message}` : message }]);
  }
  await ensureRoom(ctx);
  const created = await ctx.proposals.create({
    kind: 'calendar',
    state: 'reading',
    country,
    given: parsed.url,
    url: calendar.url,
    platform: calendar.platform,
    format: calendar.format,
    name: parsed.name ?? null,
    city: city?.name ?? null,
  });
  // Proposed by a concurrent request: answer as a resend.
  if (!created) return proposeCalendar(ctx, input, client);
  ctx.logger.info({ proposal: created.id, kind: 'calendar', client: client.address }, 'calendar proposed');
  startPreviews(ctx);
  return { proposal: viewOf(ctx, created), created: true };
}

/** Asks for a host key, keyless: waits for the operator, whose acceptance issues it (see proposalStatus). */
export async function requestKey(ctx: AppContext, input: unknown, client: ProposalClient): Promise<Proposed> {
  const parsed = parseOrThrow(requestKeySchema, input);
  await ensureRoom(ctx);
  const created = await ctx.proposals.create({
    kind: 'key',
    state: 'waiting',
    country: parsed.country,
    organisation: parsed.organisation,
    plans: parsed.plans,
    website: parsed.website ?? null,
  });
  if (!created) throw new Error('a key request was not stored');
  ctx.logger.info({ proposal: created.id, kind: 'key', client: client.address }, 'key requested');
  return { proposal: viewOf(ctx, created), created: true };
}

/**
 * A proposal as its proposer sees it. An accepted key request shows its key on the first visit only: of concurrent
 * visitors exactly one gets it (the key's secret is made then, see ProposalsRepository.claimKey); later visits say
 * when it was shown.
 */
export async function proposalStatus(ctx: AppContext, id: string): Promise<ProposalView> {
  const p = await ctx.proposals.find(id);
  if (!p) throw notFound(id);
  if (p.state === 'reading') startPreviews(ctx);
  if (p.kind === 'key' && p.state === 'accepted' && !p.keyShownAt) {
    const key = await ctx.proposals.claimKey(id, ctx.now());
    return viewOf(ctx, (await ctx.proposals.find(id))!, key);
  }
  return viewOf(ctx, p);
}

const filterSchema = z.strictObject({
  state: z.enum(PROPOSAL_STATES).optional(),
  kind: z.enum(PROPOSAL_KINDS).optional(),
});

/** Proposals for the operator, oldest first: all, or of a state and kind. */
export async function listProposals(ctx: AppContext, filter: ProposalFilter = {}): Promise<ProposalView[]> {
  const { state, kind } = parseOrThrow(filterSchema, filter);
  return (await ctx.proposals.list({ ...(state ? { state } : {}), ...(kind ? { kind } : {}) })).map((p) =>
    viewOf(ctx, p),
  );
}

async function detailOf(
  ctx: AppContext,
  p: ProposalRecord,
  extra: Partial<ProposalDetail> = {},
): Promise<ProposalDetail> {
  const log = (await ctx.proposals.log(p.id)).map((e) => ({
    at: e.at.toISOString(),
    actor: e.actor as ModerationActor,
    action: e.action,
    reason: e.reason,
  }));
  return { ...viewOf(ctx, p), ...extra, log };
}

/** A proposal for the operator: its view and every decision on it. */
export async function showProposal(ctx: AppContext, id: string): Promise<ProposalDetail> {
  const p = await ctx.proposals.find(id);
  if (!p) throw notFound(id);
  return detailOf(ctx, p);
}

async function decided(ctx: AppContext, id: string, verb: string): Promise<never> {
  const p = await ctx.proposals.find(id);
  if (!p) throw notFound(id);
  throw new ServiceError('proposal-decided', `Proposal ${id} is ${p.state}: it cannot be ${verb}.`, {
    state: p.state,
  });
}

const reasonSchema = requiredText(1000).trim();
const parseReason = (reason: unknown) => parseOrThrow(z.strictObject({ reason: reasonSchema }), { reason }).reason;

/** What the first read of an accepted calendar did, as the operator sees it. */
function syncOf(run: CalendarRun): ProposalDetail['sync'] {
  if (run.report) return runCounts(run.report);
  return { error: run.error ?? `the calendar answered ${run.outcome}` };
}

/**
 * Accepts a waiting proposal. A calendar joins the synced set (read once now, then on the schedule after the
 * feeds), unless the catalogue syncs it already (`already-synced`). A key request gets its key, shown once at its
 * status URL.
 */
export async function acceptProposal(ctx: AppContext, id: string, actor: ModerationActor): Promise<ProposalDetail> {
  const p = await ctx.proposals.find(id);
  if (!p) throw notFound(id);
  if (p.state !== 'waiting') return decided(ctx, id, 'accepted');
  const entry = { at: ctx.now(), actor, action: 'accept' as const, reason: null };
  if (p.kind === 'key') {
    // The key exists from now on, but its secret is made (and shown) at the first status visit only.
    const { record } = await ctx.keys.create(p.organisation!, p.country as Country);
    const accepted = await ctx.proposals.decide(id, ['waiting'], 'accepted', entry, { keyId: record.id });
    if (!accepted) {
      await ctx.keys.revoke(record.id);
      return decided(ctx, id, 'accepted');
    }
    ctx.logger.info({ proposal: id, actor, key: record.id }, 'key request accepted');
    return detailOf(ctx, accepted);
  }
  const synced = await syncedAs(ctx, p.url!, p.id);
  if (synced)
    throw new ServiceError(
      'already-synced',
      `The catalogue syncs ${p.url} already, as ${synced.calendar} of the source ${synced.source}.`,
      { alreadySynced: synced },
    );
  const accepted = await ctx.proposals.decide(id, ['waiting'], 'accepted', entry);
  if (!accepted) return decided(ctx, id, 'accepted');
  ctx.logger.info({ proposal: id, actor, url: p.url }, 'calendar proposal accepted');
  const importer = importerFor(accepted.format ?? 'ical');
  if (!importer) return detailOf(ctx, accepted, { sync: { error: `no importer reads ${accepted.format}` } });
  const run = await syncCalendar(ctx, communityTarget(ctx, accepted), undefined, {
    importer,
    background: ctx.index !== undefined,
  });
  return detailOf(ctx, accepted, { sync: syncOf(run) });
}

/** Rejects a proposal not decided yet, with the reason its proposer reads at the status URL. */
export async function rejectProposal(
  ctx: AppContext,
  id: string,
  reason: string,
  actor: ModerationActor,
): Promise<ProposalDetail> {
  const why = parseReason(reason);
  const rejected = await ctx.proposals.decide(id, ['reading', 'waiting'], 'rejected', {
    at: ctx.now(),
    actor,
    action: 'reject',
    reason: why,
  });
  if (!rejected) return decided(ctx, id, 'rejected');
  ctx.logger.info({ proposal: id, actor }, 'proposal rejected');
  return detailOf(ctx, rejected);
}

/** Retires the upcoming events of a community calendar (their pages stay, as a cancelled event's). */
async function retireCalendar(ctx: AppContext, id: string): Promise<number> {
  const owner = sourceOwner(COMMUNITY_SOURCE);
  const now = ctx.now();
  const upcoming = (await ctx.events.listByOwner(owner, calendarIdPrefix(id))).filter(
    (e) => e.lifecycle === 'listed' && (e.end ?? e.start) >= now,
  );
  const retired = await retireByExternalIds(
    ctx.storage,
    { owner, actor: `proposal:${id}` },
    upcoming.map((e) => e.externalId!),
  );
  for (const event of retired) {
    ctx.index?.apply(event);
    ctx.metrics?.writes.inc({ action: 'cancel' });
  }
  return retired.length;
}

/**
 * Takes an accepted proposal back: a calendar leaves the synced set and its upcoming events are retired; a key is
 * revoked (its events stay, as a revoked key's do).
 */
export async function removeProposal(
  ctx: AppContext,
  id: string,
  reason: string | undefined,
  actor: ModerationActor,
): Promise<ProposalDetail & { retired: number }> {
  const why = reason === undefined ? null : parseReason(reason);
  const removed = await ctx.proposals.decide(id, ['accepted'], 'removed', {
    at: ctx.now(),
    actor,
    action: 'remove',
    reason: why,
  });
  if (!removed) return decided(ctx, id, 'removed');
  let retired = 0;
  if (removed.kind === 'calendar') retired = await retireCalendar(ctx, id);
  else if (removed.keyId) await ctx.keys.revoke(removed.keyId);
  ctx.logger.info({ proposal: id, actor, retired }, 'proposal removed');
  return { ...(await detailOf(ctx, removed)), retired };
}

/** Syncs the accepted community calendars as the feeds are: one run of the `community` source. */
export async function syncCommunityCalendars(ctx: AppContext, options: SyncOptions = {}): Promise<SyncResult> {
  const at = ctx.now();
  const accepted = await ctx.proposals.list({ state: 'accepted', kind: 'calendar' });
  const result: SyncResult = { feed: COMMUNITY_CALENDARS, at, urls: accepted.length, missing: 0 };
  if (accepted.length === 0) return result;
  const runs: CalendarRun[] = [];
  for (const format of new Set(accepted.map((p) => p.format ?? 'ical'))) {
    const importer = importerFor(format);
    const targets = accepted.filter((p) => (p.format ?? 'ical') === format).map((p) => communityTarget(ctx, p));
    if (!importer) {
      runs.push(
        ...targets.map((target) => ({ target, outcome: 'failed' as const, error: `no importer reads ${format}` })),
      );
      continue;
    }
    runs.push(
      ...(await syncCalendars(ctx, targets, {
        importer,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        background: options.background,
      })),
    );
  }
  result.calendars = runs;
  result.missing = runs.filter((r) => r.outcome === 'gone').length;
  const failed = runs.filter((r) => r.outcome === 'failed' || r.outcome === 'gone');
  if (failed.length === runs.length)
    result.error = `all ${runs.length} community calendars failed, e.g. ${failed[0]!.error}`;
  else
    result.report = sumReports(
      COMMUNITY_SOURCE,
      'ical',
      runs.flatMap((r) => (r.report ? [r.report] : [])),
    );
  if (!options.signal?.aborted) await recordRun(ctx, result);
  return result;
}
