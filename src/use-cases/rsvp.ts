import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ServiceError } from '../catalogue/errors.js';
import { type CatalogueEvent, HOST_SOURCE, keyOwner } from '../catalogue/event.js';
import type { Holder } from '../catalogue/holder.js';
import { parseOrThrow } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import { COUNTRIES } from '../places/countries.js';
import type { AttendeesRepository } from '../storage/attendees.repository.js';
import { EventsRepository } from '../storage/events.repository.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import type {
  Registration,
  RegistrationCounts,
  RegistrationStatus,
  RegistrationsRepository,
} from '../storage/registrations.repository.js';
import type { Database } from '../storage/schema.js';
import { getEvent } from './read-events.js';

export interface RsvpResult {
  event: CatalogueEvent;
  registration: Registration;
  /** 1-based place on the waitlist, when waitlisted. */
  waitlistPlace: number | null;
  /** False when the call repeated the current state (RSVPing twice is idempotent). */
  changed: boolean;
  counts: RegistrationCounts;
}

const idSchema = z
  .string({ error: "must be an event's id (its slug, as search_events gives it), at most 200 characters" })
  .max(200, "must be an event's id (its slug), at most 200 characters")
  .describe('Event id');
const countrySchema = z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` }).optional();

/**
 * Registers or withdraws a holder (a host key or an attendee) for an event, honouring its registration mode:
 * - `open`: registered while places are left (no capacity = unlimited), else waitlisted;
 * - `waitlist`: waitlisted, promoted in queue order when places free (a withdrawal, a raised capacity);
 * - `invite`: requested, pending the host (who approves or declines: see decideRsvp).
 * Only host-run events take RSVPs; an imported one is registered for at its source (`registration-at-source`).
 * A cancelled event refuses new registrations but keeps existing ones (and accepts again after a restore).
 * The event row is locked for the whole transaction, so concurrent RSVPs never overfill it.
 */
export const rsvpSchema = z.strictObject({
  id: idSchema,
  country: countrySchema,
  action: z.enum(['register', 'withdraw'], { error: 'must be register or withdraw' }).default('register'),
});

const eventTargetSchema = z.strictObject({ id: idSchema, country: countrySchema });

/** RSVPs that still hold or ask for a place: what a withdrawal ends. */
const ACTIVE: readonly RegistrationStatus[] = ['registered', 'waitlisted', 'requested'];
const isActive = (r: Registration | undefined): boolean => r !== undefined && ACTIVE.includes(r.status);

export async function rsvp(ctx: AppContext, holder: Holder, input: unknown): Promise<RsvpResult> {
  const { id, country, action } = parseOrThrow(rsvpSchema, input);
  // Checked before the transaction: an unknown id, or one in another country, is not found.
  await getEvent(ctx, { id, country });
  const result = await locked(ctx, id, (event, regs) =>
    action === 'register' ? register(regs, event, holder) : withdraw(regs, event, holder),
  );
  keepAttendance(ctx, id, result.counts);
  return result;
}

/** The caller's own RSVP for an event (`rsvp-not-found` without one). */
export async function ownRsvp(ctx: AppContext, holder: Holder, input: unknown): Promise<RsvpResult> {
  const { id, country } = parseOrThrow(eventTargetSchema, input);
  const { event } = await getEvent(ctx, { id, country });
  const regs = ctx.registrations;
  const current = await regs.find(id, holder);
  if (!current) {
    if (event.source !== HOST_SOURCE) throw atSource(event);
    throw new ServiceError('rsvp-not-found', `You have no RSVP for “${event.title}”.`);
  }
  return result(regs, event, current, false);
}

/**
 * Withdraws every active RSVP of a holder, each with the promotion rule (an attendee deleting their identity);
 * returns how many were withdrawn.
 */
export async function withdrawAll(ctx: AppContext, holder: Holder): Promise<number> {
  const active = (await ctx.registrations.ofHolder(holder)).filter(isActive);
  let withdrawn = 0;
  for (const { eventId } of active) {
    const r = await locked(ctx, eventId, (event, regs) => withdraw(regs, event, holder));
    keepAttendance(ctx, eventId, r.counts);
    if (r.changed) withdrawn++;
  }
  return withdrawn;
}

async function register(regs: RegistrationsRepository, event: CatalogueEvent, holder: Holder): Promise<RsvpResult> {
  if (event.source !== HOST_SOURCE) throw atSource(event);
  const current = await regs.find(event.id, holder);
  const active = isActive(current);
  // A cancelled event takes no RSVPs, repeated ones included; the registrations it has are kept for a restore.
  if (event.lifecycle === 'cancelled') {
    throw new ServiceError(
      'event-cancelled',
      `“${event.title}” has been cancelled and takes no registrations.${active ? ` Yours (${current!.status}) is kept in case it is restored.` : ''}`,
    );
  }
  // A host's decline stands: asking again changes nothing.
  if (current && (active || current.status === 'declined')) return result(regs, event, current, false);
  const counts = await regs.counts(event.id);
  const full = event.capacity !== null && counts.registered >= event.capacity;
  const status =
    event.regMode === 'invite' ? 'requested' : event.regMode === 'waitlist' || full ? 'waitlisted' : 'registered';
  return result(regs, event, await regs.put(event.id, holder, status, true), true);
}

async function withdraw(regs: RegistrationsRepository, event: CatalogueEvent, holder: Holder): Promise<RsvpResult> {
  const current = await regs.find(event.id, holder);
  if (!current || !isActive(current)) {
    // Nothing to end: an imported event records nothing (one RSVPed before it refused them can still withdraw),
    // and a declined RSVP stays declined.
    if (!current && event.source !== HOST_SOURCE) throw atSource(event);
    const unchanged = current ?? (await regs.put(event.id, holder, 'withdrawn', false));
    return result(regs, event, unchanged, false);
  }
  const withdrawn = await regs.put(event.id, holder, 'withdrawn', false);
  // A freed place goes to the longest waiting; without a capacity, one place freed is one promotion.
  if (current.status === 'registered') await fillPlaces(regs, event, 1);
  return result(regs, event, withdrawn, true);
}

/**
 * Promotes waitlisted holders in queue order into the places left (all of them without a capacity, at most `most`),
 * registered + promoted never exceeding the capacity. Runs with the event row locked.
 */
async function fillPlaces(regs: RegistrationsRepository, event: CatalogueEvent, most = Infinity): Promise<number> {
  const { registered } = await regs.counts(event.id);
  const free = Math.min(most, event.capacity === null ? Infinity : event.capacity - registered);
  if (free <= 0) return 0;
  const next = await regs.waitlisted(event.id, Number.isFinite(free) ? free : undefined);
  for (const r of next) await regs.put(event.id, r.holder, 'registered', false);
  return next.length;
}

type Db = Kysely<Database>;

/** Runs `work` in a transaction holding the event's row lock, the one every change of its RSVPs takes. */
function locked<T>(
  ctx: AppContext,
  eventId: string,
  work: (event: CatalogueEvent, regs: RegistrationsRepository, events: EventsRepository, trx: Db) => Promise<T>,
): Promise<T> {
  return ctx.storage.db.transaction().execute(async (trx) => {
    const events = new EventsRepository(trx);
    const event = await events.findById(eventId, { forUpdate: true });
    if (!event) throw new ServiceError('event-not-found', `No event with id "${eventId}".`);
    return work(event, ctx.registrations.withDb(trx), events, trx);
  });
}

function keepAttendance(ctx: AppContext, eventId: string, counts: RegistrationCounts): void {
  ctx.index?.setAttendance([[eventId, counts.registered + counts.waitlisted]]);
}

/** The registration of an imported event is its source's: the refusal names where. */
function atSource(event: CatalogueEvent): ServiceError {
  const link = event.url ?? event.sourceUrl;
  return new ServiceError(
    'registration-at-source',
    `“${event.title}” is not run here: register ${link ? `at ${link}` : "on its organiser's own site"}. Nothing was stored.`,
    { registrationUrl: link },
  );
}

async function result(
  regs: RegistrationsRepository,
  event: CatalogueEvent,
  registration: Registration,
  changed: boolean,
): Promise<RsvpResult> {
  const waitlistPlace =
    registration.status === 'waitlisted' ? await regs.waitlistPlace(event.id, registration.queuePosition) : null;
  return { event, registration, waitlistPlace, changed, counts: await regs.counts(event.id) };
}

/* ---- The host's side: who RSVPed, decisions on requests, capacity. ---- */

/** Who manages an event's RSVPs: the host key that owns it, or the operator (the CLI), for any event. */
export type RsvpManager = ApiKeyRecord | 'operator';

export interface HostRsvp {
  /** An attendee's pseudonymous handle, or `key:<keyId>` for a host key's RSVP. */
  handle: string;
  status: Exclude<RegistrationStatus, 'withdrawn'>;
  waitlistPlace: number | null;
  /** When it got its status. */
  since: Date;
}

export interface EventRsvps {
  event: CatalogueEvent;
  counts: RegistrationCounts & { declined: number };
  /** In queue order; withdrawn ones are not listed. */
  rsvps: HostRsvp[];
}

function checkManager(manager: RsvpManager, event: CatalogueEvent): void {
  if (manager !== 'operator' && event.owner !== keyOwner(manager.id)) {
    throw new ServiceError('not-owner', 'This event belongs to another key: only its host sees and answers its RSVPs.');
  }
}

async function managedEvent(ctx: AppContext, manager: RsvpManager, target: { id: string; country?: string }) {
  const { event } = await getEvent(ctx, target);
  checkManager(manager, event);
  return event;
}

/** An event's RSVPs for its host: counts, and each by handle and state (nobody's personal data exists to show). */
export async function eventRsvps(ctx: AppContext, manager: RsvpManager, input: unknown): Promise<EventRsvps> {
  const target = parseOrThrow(eventTargetSchema, input);
  const event = await managedEvent(ctx, manager, target);
  return listOf(ctx.registrations, ctx.attendees, event);
}

/** The list, read with the repositories given (those of the transaction holding the lock, when there is one). */
async function listOf(
  regs: RegistrationsRepository,
  attendees: AttendeesRepository,
  event: CatalogueEvent,
): Promise<EventRsvps> {
  const all = await regs.ofEvent(event.id);
  const attendeeIds = all.flatMap((r) => (r.holder.kind === 'attendee' ? [r.holder.attendeeId] : []));
  const handles = await attendees.handles(attendeeIds);
  const counts = { registered: 0, waitlisted: 0, requested: 0, declined: 0 };
  let place = 0;
  const rsvps = all.flatMap((r): HostRsvp[] => {
    if (r.status === 'withdrawn') return [];
    counts[r.status]++;
    const handle = r.holder.kind === 'key' ? `key:${r.holder.keyId}` : (handles.get(r.holder.attendeeId) ?? '?');
    const waitlistPlace = r.status === 'waitlisted' ? ++place : null;
    return [{ handle, status: r.status, waitlistPlace, since: r.updatedAt }];
  });
  return { event, counts, rsvps };
}

export const decisionSchema = z.strictObject({
  id: idSchema,
  country: countrySchema,
  handle: z
    .string({ error: 'must be the handle of an RSVP, as GET /api/events/<id>/rsvps lists it' })
    .min(1, 'must be the handle of an RSVP')
    .max(200, 'must be at most 200 characters'),
  decision: z.enum(['approve', 'decline'], { error: 'must be approve or decline' }),
});

export interface DecisionResult {
  event: CatalogueEvent;
  handle: string;
  status: RegistrationStatus;
  waitlistPlace: number | null;
  changed: boolean;
  counts: RegistrationCounts;
}

/**
 * A host approves or declines a `requested` RSVP: approved, it is registered while a place is left, else joins the
 * end of the waitlist; declined, it stays so (asking again does not reopen it). Repeating a decision changes nothing.
 */
export async function decideRsvp(ctx: AppContext, manager: RsvpManager, input: unknown): Promise<DecisionResult> {
  const { id, country, handle, decision } = parseOrThrow(decisionSchema, input);
  await managedEvent(ctx, manager, { id, country });
  const outcome = await locked(ctx, id, async (event, regs) => {
    checkManager(manager, event);
    const holder = await regs.holderOfHandle(id, handle);
    const current = holder && (await regs.find(id, holder));
    if (!holder || !current || current.status === 'withdrawn') {
      throw new ServiceError('rsvp-not-found', `“${event.title}” has no RSVP by “${handle}”.`);
    }
    const done = decision === 'approve' ? ['registered', 'waitlisted'] : ['declined'];
    if (done.includes(current.status)) return result(regs, event, current, false);
    if (current.status !== 'requested') {
      throw new ServiceError(
        'rsvp-not-requested',
        `The RSVP by “${handle}” is ${current.status}, not requested: it cannot be ${decision === 'approve' ? 'approved' : 'declined'}.`,
        { status: current.status },
      );
    }
    if (decision === 'decline') return result(regs, event, await regs.put(id, holder, 'declined', false), true);
    const { registered } = await regs.counts(id);
    const placeLeft = event.capacity === null || registered < event.capacity;
    // Approved into a full event: the end of the waitlist, behind those who waited already.
    const status = placeLeft ? 'registered' : 'waitlisted';
    return result(regs, event, await regs.put(id, holder, status, !placeLeft), true);
  });
  keepAttendance(ctx, id, outcome.counts);
  const { event, registration, waitlistPlace, changed, counts } = outcome;
  return { event, handle, status: registration.status, waitlistPlace, changed, counts };
}

export const capacitySchema = z.strictObject({
  id: idSchema,
  country: countrySchema,
  capacity: z
    .number({ error: 'must be a whole number of places (a JSON number, e.g. 80), or null for no limit' })
    .int('must be a whole number of places')
    .positive('must be at least 1')
    .max(10_000_000, 'must be at most 10000000')
    .nullable(),
});

export interface CapacityResult extends EventRsvps {
  /** How many waitlisted holders the change promoted. */
  promoted: number;
  changed: boolean;
}

/**
 * A host sets an event's capacity (null: no limit), kept as a revision like any write; places it frees go to the
 * waitlist in queue order. A lower capacity takes no place from anyone registered: new RSVPs wait instead.
 */
export async function setCapacity(ctx: AppContext, manager: RsvpManager, input: unknown): Promise<CapacityResult> {
  const { id, country, capacity } = parseOrThrow(capacitySchema, input);
  await managedEvent(ctx, manager, { id, country });
  const actor = manager === 'operator' ? 'operator' : `key:${manager.id}`;
  const outcome = await locked(ctx, id, async (current, regs, events, trx) => {
    checkManager(manager, current);
    if (current.source !== HOST_SOURCE) throw atSource(current);
    const changed = current.capacity !== capacity;
    const event = changed
      ? await events.changeLogged(
          current,
          { content: { ...current, capacity }, source: current.source },
          { actor, action: 'update', submission: { capacity } },
        )
      : current;
    // The row is locked: no other write can have moved its revision.
    if (!event) throw new Error(`event ${id} changed while locked`);
    const promoted = await fillPlaces(regs, event);
    return { ...(await listOf(regs, ctx.attendees.withDb(trx), event)), promoted, changed };
  });
  if (outcome.changed) ctx.index?.apply(outcome.event);
  keepAttendance(ctx, id, outcome.counts);
  return outcome;
}

/**
 * After a host's write that changed an event's capacity or registration mode, the places it frees go to the
 * waitlist in queue order, as a capacity set on its own would.
 */
export async function fillAfterWrite(ctx: AppContext, previous: CatalogueEvent | undefined, event: CatalogueEvent) {
  if (!previous || (previous.capacity === event.capacity && previous.regMode === event.regMode)) return;
  const counts = await locked(ctx, event.id, async (current, regs) => {
    await fillPlaces(regs, current);
    return regs.counts(current.id);
  });
  keepAttendance(ctx, event.id, counts);
}
