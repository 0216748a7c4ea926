import type { EventsRepository } from '../storage/events.repository.js';
import { ServiceError, ValidationError } from './errors.js';
import type { CatalogueEvent, Lifecycle, Owner } from './event.js';
import type { EventTarget } from './submission.js';

export interface LifecycleResult {
  event: CatalogueEvent;
  /** False when the event already was in the requested state (cancelling twice is harmless). */
  changed: boolean;
}

/**
 * Cancels or restores an event. Only the owner may; the event's content is never touched, so a restore brings it
 * back exactly as it was. Lookup by externalId is scoped to the owner (externalIds are each owner's own namespace).
 */
export async function setLifecycle(
  events: EventsRepository,
  owner: Owner,
  actor: string,
  target: EventTarget,
  lifecycle: Lifecycle,
): Promise<LifecycleResult> {
  if ((target.externalId === undefined) === (target.id === undefined)) {
    throw new ValidationError([{ field: 'externalId', message: 'give either externalId or id (with country)' }]);
  }
  return events.transaction(async (repo) => {
    const event =
      target.externalId !== undefined
        ? await repo.findByExternalId(owner, target.externalId, { forUpdate: true })
        : await repo.findById(target.id!, { forUpdate: true });
    if (!event || (target.country !== undefined && event.country !== target.country)) {
      const what = target.externalId !== undefined ? `externalId "${target.externalId}"` : `id "${target.id}"`;
      throw new ServiceError(
        'event-not-found',
        `No event with ${what}${target.country ? ` in ${target.country}` : ''}.`,
      );
    }
    if (event.owner !== owner) throw new ServiceError('not-owner', 'This event belongs to another key.');
    if (event.lifecycle === lifecycle) return { event, changed: false };
    const updated = await repo.setLifecycle(event.id, lifecycle);
    await repo.appendRevision(updated, lifecycle === 'cancelled' ? 'cancel' : 'restore', actor);
    return { event: updated, changed: true };
  });
}
