import { type CatalogueEvent, type EventContent, type Lifecycle, sameContent } from '../catalogue/event.js';
import { firstFreeSlug, slugBase } from '../catalogue/slug.js';
import type { EventsRepository } from '../storage/events.repository.js';
import type { UpsertIdentity, UpsertResult } from './store-events.js';

/** One event of a batch: the owner's id for it, its content, and what was received (for the revision log). */
export interface BatchItem {
  externalId: string;
  content: EventContent;
  submission: unknown;
  /** The lifecycle it must end in (a feed's record says whether it is cancelled); unchanged when left out. */
  lifecycle?: Lifecycle;
}

export interface BatchResult extends UpsertResult {
  /** Whether the item's lifecycle was changed to the one it asked for (cancelled or restored). */
  lifecycleChanged: boolean;
}

const MAX_ATTEMPTS = 8;

/**
 * Failures a second attempt resolves: a slug taken by a concurrent write between our look-up and our insert, and
 * two batches that reach the same new externalIds at once (a deadlock PostgreSQL breaks by aborting one of them).
 */
function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return (e?.code === '23505' && e.constraint === 'events_pkey') || e?.code === '40P01' || e?.code === '40001';
}

type Revision = Parameters<EventsRepository['appendRevisions']>[0][number];

/**
 * Creates or updates many events of one owner in one transaction, each on its externalId, by the rules of a single
 * write (upsertEvent): an identical resend changes nothing and adds no revision; a concurrent first write of the
 * same externalId makes ours an update; a slug taken meanwhile retries the batch. A handful of statements whatever
 * the size: the owner's existing rows, the taken slugs, one multi-row insert, the updates, one insert of revisions
 * and at most two lifecycle updates. The externalIds must be distinct. One result per item, in order.
 */
export async function upsertMany(
  events: EventsRepository,
  identity: Omit<UpsertIdentity, 'externalId'>,
  items: readonly BatchItem[],
  options: { keepOthersCancels?: boolean | undefined } = {},
): Promise<BatchResult[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await events.transaction((repo) => storeBatch(repo, identity, items, options.keepOthersCancels ?? false));
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && isRetryable(error)) continue;
      throw error;
    }
  }
}

async function storeBatch(
  repo: EventsRepository,
  identity: Omit<UpsertIdentity, 'externalId'>,
  items: readonly BatchItem[],
  keepOthersCancels: boolean,
): Promise<BatchResult[]> {
  const { owner, source, actor } = identity;
  const ids = items.map((item) => item.externalId);
  const existing = new Map(
    (await repo.findByExternalIds(owner, ids, { forUpdate: true })).map((e) => [e.externalId!, e]),
  );
  const results: BatchResult[] = new Array(items.length);
  const revisions: Revision[] = [];

  const update = async (index: number, current: CatalogueEvent) => {
    const item = items[index]!;
    if (sameContent(current, item.content) && current.source === source) {
      results[index] = { event: current, created: false, changed: false, lifecycleChanged: false };
      return;
    }
    const updated = await repo.updateContent(current.id, item.content, source);
    revisions.push({ event: updated, action: 'update', actor, submission: item.submission });
    results[index] = { event: updated, created: false, changed: true, lifecycleChanged: false };
  };

  const creates: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const found = existing.get(items[i]!.externalId);
    if (found) await update(i, found);
    else creates.push(i);
  }

  if (creates.length > 0) {
    const bases = creates.map((i) => slugBase(items[i]!.content.title));
    const taken = await repo.idsLikeAny([...new Set(bases)]);
    const rows = creates.map((i, n) => {
      const id = firstFreeSlug(bases[n]!, taken);
      taken.add(id);
      return { id, owner, externalId: items[i]!.externalId, source, content: items[i]!.content };
    });
    // Inserted in externalId order, as rows are locked: concurrent batches wait for each other rather than deadlock.
    rows.sort((a, b) => (a.externalId < b.externalId ? -1 : 1));
    const inserted = new Map((await repo.insertMany(rows)).map((e) => [e.externalId!, e]));
    const raced: number[] = [];
    for (const i of creates) {
      const event = inserted.get(items[i]!.externalId);
      if (!event) raced.push(i);
      else {
        revisions.push({ event, action: 'create', actor, submission: items[i]!.submission });
        results[i] = { event, created: true, changed: true, lifecycleChanged: false };
      }
    }
    // Concurrent first writes of the same externalIds committed before ours: ours become updates of theirs.
    const winners = new Map(
      (
        await repo.findByExternalIds(
          owner,
          raced.map((i) => items[i]!.externalId),
          { forUpdate: true },
        )
      ).map((e) => [e.externalId!, e]),
    );
    for (const i of raced) await update(i, winners.get(items[i]!.externalId)!);
  }

  // Cancelled by someone else (the host, through the API): left cancelled while the input still lists them.
  const cancelledByOthers = keepOthersCancels
    ? await repo.cancelledByOthers(
        items.flatMap((item, i) =>
          item.lifecycle === 'listed' && results[i]!.event.lifecycle === 'cancelled' ? [results[i]!.event.id] : [],
        ),
        actor,
      )
    : new Set<string>();
  for (const lifecycle of ['cancelled', 'listed'] as const) {
    const flip = items.flatMap((item, i) =>
      item.lifecycle === lifecycle &&
      results[i]!.event.lifecycle !== lifecycle &&
      !(lifecycle === 'listed' && cancelledByOthers.has(results[i]!.event.id))
        ? [i]
        : [],
    );
    const flipped = new Map(
      (
        await repo.setLifecycleMany(
          flip.map((i) => results[i]!.event.id),
          lifecycle,
        )
      ).map((e) => [e.id, e]),
    );
    for (const i of flip) {
      const event = flipped.get(results[i]!.event.id)!;
      revisions.push({ event, action: lifecycle === 'cancelled' ? 'cancel' : 'restore', actor });
      results[i] = { ...results[i]!, event, lifecycleChanged: true };
    }
  }
  await repo.appendRevisions(revisions);
  return results;
}

/**
 * Sets the lifecycle of many of one owner's events in one transaction (a complete batch or a feed cancelling what it
 * no longer lists): those already in it are left as they are; a revision each for the others. Returns the changed.
 */
export async function setLifecycleForMany(
  events: EventsRepository,
  identity: Pick<UpsertIdentity, 'owner' | 'actor'>,
  externalIds: readonly string[],
  lifecycle: Lifecycle,
): Promise<CatalogueEvent[]> {
  if (externalIds.length === 0) return [];
  return events.transaction(async (repo) => {
    const current = await repo.findByExternalIds(identity.owner, externalIds, { forUpdate: true });
    const changed = await repo.setLifecycleMany(
      current.filter((e) => e.lifecycle !== lifecycle).map((e) => e.id),
      lifecycle,
    );
    const action = lifecycle === 'cancelled' ? 'cancel' : 'restore';
    await repo.appendRevisions(changed.map((event) => ({ event, action, actor: identity.actor })));
    return changed;
  });
}
