import type { AppContext } from '../context.js';
import { EventsRepository } from '../storage/events.repository.js';
import type { Registration, RegistrationCounts, RegistrationsRepository } from '../storage/registrations.repository.js';
import { ServiceError } from './errors.js';
import type { CatalogueEvent } from './event.js';

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
export async function rsvp(
  ctx: AppContext,
  keyId: string,
  eventId: string,
  action: 'register' | 'withdraw',
): Promise<RsvpResult> {
  return ctx.storage.db.transaction().execute(async (trx) => {
    const events = new EventsRepository(trx);
    const regs = ctx.registrations.withDb(trx);
    const event = await events.findById(eventId, { forUpdate: true });
    if (!event) throw new ServiceError('event-not-found', `No event with id "${eventId}".`);
    const current = await regs.find(eventId, keyId);
    const active = current && current.status !== 'withdrawn';

    if (action === 'register') {
      if (active) return result(regs, event, current, false);
      if (event.lifecycle === 'cancelled') {
        throw new ServiceError(
          'bad-request',
          `“${event.title}” has been cancelled and takes no new registrations. Existing registrations are kept.`,
        );
      }
      const counts = await regs.counts(eventId);
      const full = event.capacity !== null && counts.registered >= event.capacity;
      const status =
        event.regMode === 'invite' ? 'requested' : event.regMode === 'waitlist' || full ? 'waitlisted' : 'registered';
      return result(regs, event, await regs.put(eventId, keyId, status, true), true);
    }

    if (!active) {
      const withdrawn = current ?? (await regs.put(eventId, keyId, 'withdrawn', false));
      return result(regs, event, withdrawn, false);
    }
    const withdrawn = await regs.put(eventId, keyId, 'withdrawn', false);
    if (current.status === 'registered') {
      const next = await regs.firstWaitlisted(eventId);
      const counts = await regs.counts(eventId);
      if (next && (event.capacity === null || counts.registered < event.capacity))
        await regs.put(eventId, next.keyId, 'registered', false);
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
