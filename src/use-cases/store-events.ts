import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { type CatalogueEvent, type EventContent, type Lifecycle, type Owner, sameContent } from '../catalogue/event.js';
import { firstFreeSlug, slugBase } from '../catalogue/slug.js';
import type { EventTarget } from '../catalogue/submission.js';
import type { EventsRepository } from '../storage/events.repository.js';

/*
 * The two ways an event is stored, shared by every use case that writes events (host writes, imports, syncs):
 * create-or-update on the owner's externalId, and cancel/restore. Both keep the revision log.
 */

export interface UpsertIdentity {
  owner: Owner;
  /** The owner's own id; without it every write creates a new event. */
  externalId: string | null;
  source: string;
  /** Who acts, for the revision log (`key:<id>`, `import:<source>`, `admin`). */
  actor: string;
}

export interface UpsertResult {
  event: CatalogueEvent;
  created: boolean;
  /** False when an update carried exactly the stored content (no new revision). */
  changed: boolean;
}

const MAX_ATTEMPTS = 8;

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}

/**
 * Creates an event, or updates the owner's event with the same externalId. Never a duplicate, also under
 * concurrency: the (owner, external_id) unique constraint decides the race, the loser updates the winner's row,
 * and a slug taken between our look-up and our insert is retried with the next free one.
 */
export async function upsertEvent(
  events: EventsRepository,
  identity: UpsertIdentity,
  content: EventContent,
  submission?: unknown,
): Promise<UpsertResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await events.transaction(async (repo) => {
        if (identity.externalId !== null) {
          const existing = await repo.findByExternalId(identity.owner, identity.externalId, { forUpdate: true });
          if (existing) return update(repo, existing, identity, content, submission);
        }
        const base = slugBase(content.title);
        const id = firstFreeSlug(base, await repo.idsLike(base));
        const inserted = await repo.insertIfAbsent({ ...identity, id }, content);
        if (!inserted) {
          // A concurrent write with the same externalId committed first: ours becomes an update of it.
          const winner = await repo.findByExternalId(identity.owner, identity.externalId!, { forUpdate: true });
          if (!winner) throw new Error('insert conflicted but no row was found');
          return update(repo, winner, identity, content, submission);
        }
        await repo.appendRevision(inserted, 'create', identity.actor, submission);
        return { event: inserted, created: true, changed: true };
      });
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && isUniqueViolation(error, 'events_pkey')) continue;
      throw error;
    }
  }
}

async function update(
  repo: EventsRepository,
  existing: CatalogueEvent,
  identity: UpsertIdentity,
  content: EventContent,
  submission: unknown,
): Promise<UpsertResult> {
  if (sameContent(existing, content) && existing.source === identity.source) {
    return { event: existing, created: false, changed: false };
  }
  const updated = await repo.updateContent(existing.id, content, identity.source);
  await repo.appendRevision(updated, 'update', identity.actor, submission);
  return { event: updated, created: false, changed: true };
}

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
