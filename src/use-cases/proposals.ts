import { z } from 'zod';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { parseOrThrow, requiredText } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import { recognizeCalendar } from '../importers/calendar-address.js';
import { checkAddress } from '../importers/http-reader.js';
import type { InputError } from '../importers/input-error.js';
import { importerFor } from '../importers/registry.js';
import type { Country } from '../places/countries.js';
import { resolveCity } from '../places/gazetteer.js';
import type { ModerationEntry, ProposalRecord } from '../storage/proposals.repository.js';
import { communityTarget, retireCalendar, startPreviews, syncedAs } from './community-calendars.js';
import { runCounts } from './import-records.js';
import {
  type ModerationActor,
  PROPOSAL_KINDS,
  PROPOSAL_STATES,
  type Preview,
  type ProposalClient,
  type ProposalDetail,
  type ProposalFilter,
  type ProposalView,
  type Proposed,
  proposeCalendarSchema,
  requestKeySchema,
} from './proposal-schemas.js';
import { type CalendarRun, syncCalendar } from './sync-calendars.js';

export { syncCommunityCalendars } from './community-calendars.js';
export * from './proposal-schemas.js';

/** Proposals waiting (for a read or the operator) beyond which no more are taken: spam cannot fill the database. */
export const MAX_PENDING_PROPOSALS = 500;

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const statusUrlOf = (ctx: AppContext, id: string) => `${ctx.config.baseUrl}/api/proposals/${id}`;

const notFound = (id: string) => new ServiceError('proposal-not-found', `No proposal “${id}”.`);
const PROPOSAL_ID = /^prp_[0-9a-f]{32}$/;

/** The proposal of an id, or `proposal-not-found`; what cannot be one is not looked for. */
async function find(ctx: AppContext, id: string): Promise<ProposalRecord> {
  const p = PROPOSAL_ID.test(id) ? await ctx.proposals.find(id) : undefined;
  if (!p) throw notFound(id);
  return p;
}

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
 * when it was shown. `showKey: false` (a HEAD request, which has no body to carry it) leaves it for the next visit.
 */
export async function proposalStatus(
  ctx: AppContext,
  id: string,
  options: { showKey?: boolean } = {},
): Promise<ProposalView> {
  const p = await find(ctx, id);
  if (p.state === 'reading') startPreviews(ctx);
  if (p.kind === 'key' && p.state === 'accepted' && !p.keyShownAt && options.showKey !== false) {
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

/** A decision as the log shows it. */
const logEntry = (e: ModerationEntry) => ({
  at: e.at.toISOString(),
  actor: e.actor as ModerationActor,
  action: e.action,
  reason: e.reason,
});

/** The operator's log: the latest `limit` decisions on any proposal, newest first. */
export async function recentDecisions(ctx: AppContext, limit = 20) {
  return (await ctx.proposals.recentLog(limit)).map((e) => ({
    ...logEntry(e),
    proposal: { id: e.proposalId, kind: e.kind },
  }));
}

async function detailOf(
  ctx: AppContext,
  p: ProposalRecord,
  extra: Partial<ProposalDetail> = {},
): Promise<ProposalDetail> {
  const log = (await ctx.proposals.log(p.id)).map(logEntry);
  return { ...viewOf(ctx, p), ...extra, log };
}

/** A proposal for the operator: its view and every decision on it. */
export async function showProposal(ctx: AppContext, id: string): Promise<ProposalDetail> {
  const p = await find(ctx, id);
  return detailOf(ctx, p);
}

async function decided(ctx: AppContext, id: string, verb: string): Promise<never> {
  const p = await find(ctx, id);
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
  const p = await find(ctx, id);
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
  if (!PROPOSAL_ID.test(id)) throw notFound(id);
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
  if (!PROPOSAL_ID.test(id)) throw notFound(id);
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
