import { type CatalogueEvent, type EventContent, type Lifecycle, sameContent } from '../catalogue/event.js';
import { firstFreeSlug, slugBase } from '../catalogue/slug.js';
import type { Storage } from '../storage/database.js';
import { EventsRepository } from '../storage/events.repository.js';
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

/** Failures a retry resolves: a slug taken concurrently, or a deadlock PostgreSQL broke between two batches. */
function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return (e?.code === '23505' && e.constraint === 'events_pkey') || e?.code === '40P01' || e?.code === '40001';
}

type Revision = Parameters<EventsRepository['appendRevisions']>[0][number];

/**
 * Creates or updates many events of one owner in one transaction, by the rules of a single write (upsertEvent), in a
 * handful of statements whatever the size. The externalIds must be distinct; one result per item, in order.
 */
export function upsertMany(
  events: EventsRepository,
  identity: Omit<UpsertIdentity, 'externalId'>,
  items: readonly BatchItem[],
  options: { keepOthersCancels?: boolean | undefined } = {},
): Promise<BatchResult[]> {
  return retrying(() =>
    events.transaction((repo) => storeBatch(repo, identity, items, options.keepOthersCancels ?? false)),
  );
}

/** A complete list of an owner's events: what it names, and which of the owner's events it speaks for. */
export interface CompleteList {
  /** The externalIds the list names, refused items included: what was sent is not missing. */
  named: ReadonlySet<string>;
  now: Date;
  /** Only events starting at or after this (a feed of this year's and next year's files says nothing of before). */
  from?: Date | undefined;
  /** Only events starting at or before this (a calendar that shows its next few events says nothing of later ones). */
  until?: Date | undefined;
  /** Only events whose externalId starts with this: one calendar's part of its owner's events (`rust-zurich|`). */
  prefix?: string | undefined;
}

/**
 * Stores a list as upsertMany does under the owner's lock, and with `complete` cancels what it leaves out: lists of
 * one owner sent at once, to any nodes, end as they would one after the other.
 */
export function storeList(
  storage: Storage,
  identity: Omit<UpsertIdentity, 'externalId'>,
  items: readonly BatchItem[],
  complete: CompleteList | undefined,
): Promise<{ results: BatchResult[]; cancelled: CatalogueEvent[] }> {
  return retrying(() =>
    storage.transactionUnder(identity.owner, async (trx) => {
      const repo = new EventsRepository(trx);
      const results = await storeBatch(repo, identity, items, false);
      return { results, cancelled: complete ? await cancelAbsent(repo, identity, complete) : [] };
    }),
  );
}

/** A complete list with no usable item and some refused is taken for broken, not empty, and cancels nothing. */
export function retiresAbsent(usable: number, refused: number): boolean {
  return usable > 0 || refused === 0;
}

async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n < MAX_ATTEMPTS && isRetryable(error)) continue;
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
  const batch = new BatchWrite(repo, identity, items);
  const ids = items.map((item) => item.externalId);
  const existing = await batch.lockedByExternalId(ids);
  const creates: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const found = existing.get(items[i]!.externalId);
    if (found) await batch.update(i, found);
    else creates.push(i);
  }
  if (creates.length > 0) await batch.create(creates);
  await batch.settleLifecycles(keepOthersCancels);
  await repo.appendRevisions(batch.revisions);
  return batch.results;
}

/** One batch being written in its transaction: a result per item, and the revisions to log. */
class BatchWrite {
  readonly results: BatchResult[];
  readonly revisions: Revision[] = [];

  constructor(
    private readonly repo: EventsRepository,
    private readonly identity: Omit<UpsertIdentity, 'externalId'>,
    private readonly items: readonly BatchItem[],
  ) {
    this.results = new Array(items.length);
  }

  /** The owner's events with these externalIds, locked for the rest of the transaction. */
  async lockedByExternalId(externalIds: string[]): Promise<Map<string, CatalogueEvent>> {
    const found = await this.repo.findByExternalIds(this.identity.owner, externalIds, { forUpdate: true });
    return new Map(found.map((e) => [e.externalId!, e]));
  }

  async update(index: number, current: CatalogueEvent): Promise<void> {
    const item = this.items[index]!;
    const { source, actor } = this.identity;
    if (sameContent(current, item.content) && current.source === source) {
      this.results[index] = { event: current, created: false, changed: false, lifecycleChanged: false };
      return;
    }
    const updated = await this.repo.updateContent(current.id, item.content, source);
    this.revisions.push({ event: updated, action: 'update', actor, submission: item.submission });
    this.results[index] = { event: updated, created: false, changed: true, lifecycleChanged: false, previous: current };
  }

  /** Inserts the items at these indexes, each under the first free slug of its title. */
  async create(indexes: readonly number[]): Promise<void> {
    const { owner, source, actor } = this.identity;
    const items = this.items;
    const bases = indexes.map((i) => slugBase(items[i]!.content.title));
    const taken = await this.repo.idsLikeAny([...new Set(bases)]);
    const rows = indexes.map((i, n) => {
      const id = firstFreeSlug(bases[n]!, taken);
      taken.add(id);
      return { id, owner, externalId: items[i]!.externalId, source, content: items[i]!.content };
    });
    // Inserted in externalId order, as rows are locked: concurrent batches wait for each other rather than deadlock.
    rows.sort((a, b) => (a.externalId < b.externalId ? -1 : 1));
    const inserted = new Map((await this.repo.insertMany(rows)).map((e) => [e.externalId!, e]));
    const raced: number[] = [];
    for (const i of indexes) {
      const event = inserted.get(items[i]!.externalId);
      if (!event) raced.push(i);
      else {
        this.revisions.push({ event, action: 'create', actor, submission: items[i]!.submission });
        this.results[i] = { event, created: true, changed: true, lifecycleChanged: false };
      }
    }
    // Concurrent first writes of the same externalIds committed before ours: ours become updates of theirs.
    const winners = await this.lockedByExternalId(raced.map((i) => items[i]!.externalId));
    for (const i of raced) await this.update(i, winners.get(items[i]!.externalId)!);
  }

  /** Cancels and restores the items that ask for a lifecycle their event is not in. */
  async settleLifecycles(keepOthersCancels: boolean): Promise<void> {
    const { actor } = this.identity;
    const { items, results } = this;
    // Cancelled by someone else (the host, through the API): left cancelled while the input still lists them.
    const cancelledByOthers = keepOthersCancels
      ? await this.repo.cancelledByOthers(
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
      const changed = await this.repo.setLifecycleMany(
        flip.map((i) => results[i]!.event.id),
        lifecycle,
      );
      const flipped = new Map(changed.map((e) => [e.id, e]));
      for (const i of flip) {
        const event = flipped.get(results[i]!.event.id)!;
        this.revisions.push({ event, action: lifecycle === 'cancelled' ? 'cancel' : 'restore', actor });
        results[i] = { ...results[i]!, event, lifecycleChanged: true };
      }
    }
  }
}

/**
 * Cancels the owner's upcoming listed events the list does not name (those without an externalId too), a revision
 * each, in the transaction that stored the list. Returns the cancelled.
 */
export async function cancelAbsent(
  repo: EventsRepository,
  identity: Pick<UpsertIdentity, 'owner' | 'actor'>,
  list: CompleteList,
): Promise<CatalogueEvent[]> {
  const absent = (await repo.listByOwner(identity.owner, list.prefix)).filter(
    (e) =>
      e.lifecycle === 'listed' &&
      (e.end ?? e.start) >= list.now &&
      (!list.from || e.start >= list.from) &&
      (!list.until || e.start <= list.until) &&
      (e.externalId === null || !list.named.has(e.externalId)),
  );
  return cancelMany(
    repo,
    absent.map((e) => e.id),
    identity.actor,
  );
}

/** Cancels these events and logs a revision of each. */
async function cancelMany(repo: EventsRepository, ids: string[], actor: string): Promise<CatalogueEvent[]> {
  const cancelled = await repo.setLifecycleMany(ids, 'cancelled');
  await repo.appendRevisions(cancelled.map((event) => ({ event, action: 'cancel', actor })));
  return cancelled;
}

/** Retires an owner's listed events named by externalId, under its lock: what an unlinked calendar leaves behind. */
export function retireByExternalIds(
  storage: Storage,
  identity: Pick<UpsertIdentity, 'owner' | 'actor'>,
  externalIds: readonly string[],
): Promise<CatalogueEvent[]> {
  if (externalIds.length === 0) return Promise.resolve([]);
  return storage.transactionUnder(identity.owner, async (trx) => {
    const repo = new EventsRepository(trx);
    const current = await repo.findByExternalIds(identity.owner, externalIds, { forUpdate: true });
    const listed = current.filter((e) => e.lifecycle === 'listed').map((e) => e.id);
    return cancelMany(repo, listed, identity.actor);
  });
}
