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
  /** The event as it was before an update that changed it (a capacity raised there frees places: see rsvp.ts). */
  previous?: CatalogueEvent;
}

/** What a caller has already read of the owner's event under the externalId (undefined: none is stored). */
export interface StoredRead {
  event: CatalogueEvent | undefined;
}

const MAX_ATTEMPTS = 8;

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}

/**
 * Creates an event, or updates the owner's event with the same externalId. Never a duplicate, also under
 * concurrency. The first try holds no transaction open across round trips: it reads the row, decides here, and
 * writes the change with its revision in one statement that applies only while the row is as read (its revision)
 * or, for a create, still absent (the (owner, external_id) constraint). A try that loses such a race tries again
 * with the row locked while it decides, so it cannot lose again; a slug taken between our look-up and our insert is
 * retried with the next free one. `stored`, the row as a caller read it already, stands in for the first try's read:
 * the statement applies only while the row is still as read, so a read that is out of date costs one more try.
 */
export async function upsertEvent(
  events: EventsRepository,
  identity: UpsertIdentity,
  content: EventContent,
  submission?: unknown,
  stored?: StoredRead,
): Promise<UpsertResult> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    try {
      const result =
        attempt === 1
          ? await tryUpsert(events, false, identity, content, submission, stored)
          : await events.transaction((repo) => tryUpsert(repo, true, identity, content, submission));
      if (result) return result;
    } catch (error) {
      if (!isUniqueViolation(error, 'events_pkey')) throw error;
    }
  }
  throw new Error(`gave up storing "${content.title}" after ${MAX_ATTEMPTS} tries`);
}

/** One try of upsertEvent: undefined when a concurrent write changed what it read. */
async function tryUpsert(
  repo: EventsRepository,
  lock: boolean,
  identity: UpsertIdentity,
  content: EventContent,
  submission: unknown,
  stored?: StoredRead,
): Promise<UpsertResult | undefined> {
  const log = { actor: identity.actor, submission };
  const existing =
    identity.externalId === null
      ? undefined
      : stored
        ? stored.event
        : await repo.findByExternalId(identity.owner, identity.externalId, { forUpdate: lock });
  if (existing) {
    if (sameContent(existing, content) && existing.source === identity.source) {
      return { event: existing, created: false, changed: false };
    }
    const updated = await repo.changeLogged(
      existing,
      { content, source: identity.source },
      { ...log, action: 'update' },
    );
    return updated && { event: updated, created: false, changed: true, previous: existing };
  }
  const base = slugBase(content.title);
  const id = firstFreeSlug(base, await repo.idsLikeAny([base]));
  const created = await repo.createLogged({ ...identity, id }, content, log);
  return created && { event: created, created: true, changed: true };
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
  // As in upsertEvent: a first try without a lock, and a locked one if a concurrent write changed the event.
  for (let attempt = 1; attempt <= 2; attempt++) {
    const result =
      attempt === 1
        ? await tryLifecycle(events, false, owner, actor, target, lifecycle)
        : await events.transaction((repo) => tryLifecycle(repo, true, owner, actor, target, lifecycle));
    if (result) return result;
  }
  throw new Error('an event changed while locked');
}

async function tryLifecycle(
  repo: EventsRepository,
  lock: boolean,
  owner: Owner,
  actor: string,
  target: EventTarget,
  lifecycle: Lifecycle,
): Promise<LifecycleResult | undefined> {
  const event =
    target.externalId !== undefined
      ? await repo.findByExternalId(owner, target.externalId, { forUpdate: lock })
      : await repo.findById(target.id!, { forUpdate: lock });
  if (!event || (target.country !== undefined && event.country !== target.country)) {
    const what = target.externalId !== undefined ? `externalId "${target.externalId}"` : `id "${target.id}"`;
    throw new ServiceError('event-not-found', `No event with ${what}${target.country ? ` in ${target.country}` : ''}.`);
  }
  if (event.owner !== owner) throw new ServiceError('not-owner', 'This event belongs to another key.');
  if (event.lifecycle === lifecycle) return { event, changed: false };
  const action = lifecycle === 'cancelled' ? 'cancel' : 'restore';
  const updated = await repo.changeLogged(event, { lifecycle }, { actor, action });
  return updated && { event: updated, changed: true };
}
