import { z } from 'zod';
import { ServiceError } from '../catalogue/errors.js';
import type { CatalogueEvent } from '../catalogue/event.js';
import { type Holder, keyHolder } from '../catalogue/holder.js';
import { parseOrThrow } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import { COUNTRIES } from '../places/countries.js';
import { EventsRepository } from '../storage/events.repository.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import type { Registration, RegistrationCounts, RegistrationsRepository } from '../storage/registrations.repository.js';
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

/**
 * Registers or withdraws a host key for an event, honouring its registration mode:
 * - `open`: registered while places are left (no capacity = unlimited), else waitlisted;
 * - `waitlist`: waitlisted, promoted in queue order when a registered place frees;
 * - `invite`: requested, pending the host.
 * A withdrawal of a registered place promotes the longest-waiting key while capacity allows.
 * A cancelled event refuses new registrations but keeps existing ones (and accepts again after a restore).
 * The event row is locked for the whole transaction, so concurrent RSVPs never overfill it.
 */
export const rsvpSchema = z.strictObject({
  id: z
    .string({ error: "must be an event's id (its slug, as search_events gives it), at most 200 characters" })
    .max(200, "must be an event's id (its slug), at most 200 characters")
    .describe('Event id'),
  country: z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` }).optional(),
  action: z.enum(['register', 'withdraw'], { error: 'must be register or withdraw' }).default('register'),
});

export function rsvp(ctx: AppContext, host: ApiKeyRecord, input: unknown): Promise<RsvpResult> {
  return rsvpAs(ctx, keyHolder(host.id), input);
}

/** `rsvp` for any holder: a host key or an attendee (the MCP tool's caller). */
export async function rsvpAs(ctx: AppContext, holder: Holder, input: unknown): Promise<RsvpResult> {
  const { id, country, action } = parseOrThrow(rsvpSchema, input);
  // Checked before the transaction: an unknown id, or one in another country, is not found.
  await getEvent(ctx, { id, country });
  const result = await register(ctx, holder, id, action);
  ctx.index?.setAttendance([[id, result.counts.registered + result.counts.waitlisted]]);
  return result;
}

function register(
  ctx: AppContext,
  holder: Holder,
  eventId: string,
  action: 'register' | 'withdraw',
): Promise<RsvpResult> {
  return ctx.storage.db.transaction().execute(async (trx) => {
    const events = new EventsRepository(trx);
    const regs = ctx.registrations.withDb(trx);
    const event = await events.findById(eventId, { forUpdate: true });
    if (!event) throw new ServiceError('event-not-found', `No event with id "${eventId}".`);
    const current = await regs.find(eventId, holder);
    const active = current && current.status !== 'withdrawn';

    if (action === 'register') {
      // A cancelled event takes no RSVPs, repeated ones included; the registrations it has are kept for a restore.
      if (event.lifecycle === 'cancelled') {
        throw new ServiceError(
          'event-cancelled',
          `“${event.title}” has been cancelled and takes no registrations.${active ? ` Yours (${current.status}) is kept in case it is restored.` : ''}`,
        );
      }
      if (active) return result(regs, event, current, false);
      const counts = await regs.counts(eventId);
      const full = event.capacity !== null && counts.registered >= event.capacity;
      const status =
        event.regMode === 'invite' ? 'requested' : event.regMode === 'waitlist' || full ? 'waitlisted' : 'registered';
      return result(regs, event, await regs.put(eventId, holder, status, true), true);
    }

    if (!active) {
      const withdrawn = current ?? (await regs.put(eventId, holder, 'withdrawn', false));
      return result(regs, event, withdrawn, false);
    }
    const withdrawn = await regs.put(eventId, holder, 'withdrawn', false);
    if (current.status === 'registered') {
      const next = await regs.firstWaitlisted(eventId);
      const counts = await regs.counts(eventId);
      if (next && (event.capacity === null || counts.registered < event.capacity))
        await regs.put(eventId, next.holder, 'registered', false);
    }
    return result(regs, event, withdrawn, true);
  });
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
