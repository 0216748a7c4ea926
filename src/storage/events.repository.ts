import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { CatalogueEvent, EventContent, Lifecycle, Owner } from '../catalogue/event.js';
import { pagesNotEndedSince } from './event-pages.js';
import { contentColumns, logRevision, type RevisionLog, rowToEvent, snapshotOf, unnestRows } from './event-rows.js';
import type { Database, EventRevisionsTable } from './schema.js';

/** What a feed reader is told again about: when and where an event is (cancellation is an action of its own). */
const NOTICED_FIELDS = ['start', 'end', 'allDay', 'city', 'venue', 'format', 'country'] as const;

/** SQL for events lives here only. */
export class EventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repo: EventsRepository, trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new EventsRepository(trx as unknown as Kysely<Database>), trx));
  }

  async findById(id: string, options: { forUpdate?: boolean } = {}): Promise<CatalogueEvent | undefined> {
    let query = this.db.selectFrom('events').selectAll().where('id', '=', id);
    if (options.forUpdate) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && rowToEvent(row);
  }

  async findByExternalId(
    owner: Owner,
    externalId: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<CatalogueEvent | undefined> {
    let query = this.db
      .selectFrom('events')
      .selectAll()
      .where('owner', '=', owner)
      .where('external_id', '=', externalId);
    if (options.forUpdate) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && rowToEvent(row);
  }

  /**
   * Ids equal to a base or starting with it and a hyphen: taken slugs, read as byte ranges from the prefix index. The
   * two are looked up apart: joined by OR, the planner reads every event for each base.
   */
  async idsLikeAny(bases: readonly string[]): Promise<Set<string>> {
    if (bases.length === 0) return new Set();
    const { rows } = await sql<{ id: string }>`
      SELECT e.id FROM unnest(${bases}::text[]) AS b(base)
      JOIN LATERAL (
        SELECT id FROM events WHERE id = b.base
        UNION ALL
        SELECT id FROM events WHERE id ~>=~ (b.base || '-') AND id ~<~ (b.base || '.')
      ) e ON true`.execute(this.db);
    return new Set(rows.map((r) => r.id));
  }

  /** The owner's events with these externalIds, locked for update when asked. */
  async findByExternalIds(
    owner: Owner,
    externalIds: readonly string[],
    options: { forUpdate?: boolean } = {},
  ): Promise<CatalogueEvent[]> {
    if (externalIds.length === 0) return [];
    let query = this.db
      .selectFrom('events')
      .selectAll()
      .where('owner', '=', owner)
      .where('external_id', 'in', externalIds as string[])
      // One lock order for every batch, so concurrent batches over the same events wait rather than deadlock.
      .orderBy('external_id');
    if (options.forUpdate) query = query.forUpdate();
    return (await query.execute()).map(rowToEvent);
  }

  /** Inserts new events in one statement, skipping those a concurrent write created first; returns those inserted. */
  async insertMany(
    rows: { id: string; owner: Owner; externalId: string; source: string; content: EventContent }[],
  ): Promise<CatalogueEvent[]> {
    if (rows.length === 0) return [];
    const { columns, select } = unnestRows(
      rows.map((r) => ({
        id: r.id,
        owner: r.owner,
        external_id: r.externalId,
        source: r.source,
        lifecycle: 'listed',
        ...contentColumns(r.content),
      })),
    );
    // Only what the database decides comes back; the rest of each event is what was sent.
    const { rows: inserted } = await sql<{ id: string; revision: number; created_at: Date; updated_at: Date }>`
      INSERT INTO events (${columns}) ${select}
      ON CONFLICT ON CONSTRAINT events_owner_external_id DO NOTHING
      RETURNING id, revision, created_at, updated_at`.execute(this.db);
    const sent = new Map(rows.map((r) => [r.id, r]));
    return inserted.map((row) => {
      const r = sent.get(row.id)!;
      return {
        ...r.content,
        id: r.id,
        owner: r.owner,
        externalId: r.externalId,
        source: r.source,
        lifecycle: 'listed',
        revision: row.revision,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
    });
  }

  /** Sets the lifecycle of many events (a revision each), skipping those already in it; returns the changed. */
  async setLifecycleMany(ids: readonly string[], lifecycle: Lifecycle): Promise<CatalogueEvent[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('events')
      .set((eb) => ({ lifecycle, revision: eb('revision', '+', 1), updated_at: new Date() }))
      .where('id', 'in', ids as string[])
      .where('lifecycle', '!=', lifecycle)
      .returningAll()
      .execute();
    return rows.map(rowToEvent);
  }

  /** Of these cancelled events, those whose latest cancel was logged by another actor than `actor`. */
  async cancelledByOthers(ids: readonly string[], actor: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('event_revisions')
      .select('event_id')
      .distinctOn('event_id')
      .where('event_id', 'in', ids as string[])
      .where('action', '=', 'cancel')
      .orderBy('event_id')
      .orderBy('revision', 'desc')
      .select('actor')
      .execute();
    return new Set(rows.filter((r) => r.actor !== actor).map((r) => r.event_id));
  }

  /**
   * When each event's listing last changed in a way a reader of a feed cares about: its creation, a cancellation or
   * a restore, or an update that moved its time or place (title, description or topics edits are not news).
   */
  async noticedChanges(ids: readonly string[]): Promise<Map<string, Date>> {
    const noticed = new Map<string, Date>();
    if (ids.length === 0) return noticed;
    const rows = await this.db
      .selectFrom('event_revisions')
      .select(['event_id', 'action', 'snapshot', 'at'])
      .where('event_id', 'in', ids as string[])
      .orderBy('event_id')
      .orderBy('revision')
      .execute();
    let previous: { id: string; shown: string } | undefined;
    for (const row of rows) {
      const snapshot = row.snapshot as Record<string, unknown>;
      const shown = JSON.stringify(NOTICED_FIELDS.map((field) => snapshot[field] ?? null));
      const moved = previous?.id !== row.event_id || previous.shown !== shown;
      if (row.action !== 'update' || moved) noticed.set(row.event_id, row.at);
      previous = { id: row.event_id, shown };
    }
    return noticed;
  }

  /** Appends one revision per change, in one statement. */
  async appendRevisions(
    changes: { event: CatalogueEvent; action: EventRevisionsTable['action']; actor: string; submission?: unknown }[],
  ): Promise<void> {
    if (changes.length === 0) return;
    const column = <T>(f: (change: (typeof changes)[number]) => T) => changes.map(f);
    await sql`
      INSERT INTO event_revisions (event_id, revision, action, actor, snapshot, submission)
      SELECT e, r, a, w, s::jsonb, b::jsonb
      FROM unnest(
        ${column((c) => c.event.id)}::text[], ${column((c) => c.event.revision)}::integer[],
        ${column((c) => c.action)}::text[], ${column((c) => c.actor)}::text[],
        ${column((c) => snapshotOf(c.event))}::text[],
        ${column((c) => (c.submission === undefined ? null : JSON.stringify(c.submission)))}::text[]
      ) AS u(e, r, a, w, s, b)`.execute(this.db);
  }

  /**
   * Creates an event and logs its first revision in one statement; undefined when the owner already has this
   * externalId (a concurrent create won: update that one). A taken id fails with a unique violation.
   */
  async createLogged(
    identity: { id: string; owner: Owner; externalId: string | null; source: string },
    content: EventContent,
    log: RevisionLog,
  ): Promise<CatalogueEvent | undefined> {
    const now = new Date();
    const event: CatalogueEvent = {
      ...content,
      ...identity,
      lifecycle: 'listed',
      revision: 1,
      createdAt: now,
      updatedAt: now,
    };
    const row = await this.db
      .with('created', (db) =>
        db
          .insertInto('events')
          .values({
            id: event.id,
            owner: event.owner,
            external_id: event.externalId,
            source: event.source,
            lifecycle: event.lifecycle,
            revision: event.revision,
            created_at: now,
            updated_at: now,
            ...contentColumns(content),
          })
          .onConflict((oc) => oc.constraint('events_owner_external_id').doNothing())
          .returningAll(),
      )
      .with('logged', (db) => logRevision(db, 'created', event, 'create', log))
      .selectFrom('created')
      .selectAll()
      .executeTakeFirst();
    return row && rowToEvent(row);
  }

  /**
   * Changes an event still at the revision it was read at and logs the new one, in one statement rather than a locked
   * read; undefined when another write changed it since (the caller reads again and decides anew).
   */
  async changeLogged(
    current: CatalogueEvent,
    change: { content: EventContent; source: string } | { lifecycle: Lifecycle },
    log: RevisionLog & { action: 'update' | 'cancel' | 'restore' },
  ): Promise<CatalogueEvent | undefined> {
    const now = new Date();
    const changed = 'content' in change ? { ...change.content, source: change.source } : change;
    const next: CatalogueEvent = { ...current, ...changed, revision: current.revision + 1, updatedAt: now };
    const columns =
      'content' in change
        ? { ...contentColumns(change.content), source: change.source }
        : { lifecycle: change.lifecycle };
    const row = await this.db
      .with('changed', (db) =>
        db
          .updateTable('events')
          .set({ ...columns, revision: next.revision, updated_at: now })
          .where('id', '=', current.id)
          .where('revision', '=', current.revision)
          .returningAll(),
      )
      .with('logged', (db) => logRevision(db, 'changed', next, log.action, log))
      .selectFrom('changed')
      .selectAll()
      .executeTakeFirst();
    return row && rowToEvent(row);
  }

  async updateContent(id: string, content: EventContent, source?: string): Promise<CatalogueEvent> {
    const row = await this.db
      .updateTable('events')
      .set((eb) => ({
        ...contentColumns(content),
        ...(source ? { source } : {}),
        revision: eb('revision', '+', 1),
        updated_at: new Date(),
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return rowToEvent(row);
  }

  async revisions(id: string): Promise<Selectable<EventRevisionsTable>[]> {
    return this.db.selectFrom('event_revisions').selectAll().where('event_id', '=', id).orderBy('revision').execute();
  }

  /** Whether the owner has any event at all (in any lifecycle). */
  async anyOwnedBy(owner: Owner): Promise<boolean> {
    const row = await this.db.selectFrom('events').select('id').where('owner', '=', owner).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** An owner's events by start; with `externalIdPrefix`, only those whose externalId starts with it. */
  async listByOwner(owner: Owner, externalIdPrefix?: string): Promise<CatalogueEvent[]> {
    let query = this.db.selectFrom('events').selectAll().where('owner', '=', owner);
    if (externalIdPrefix)
      query = query.where(sql<boolean>`left(external_id, ${externalIdPrefix.length}) = ${externalIdPrefix}`);
    const rows = await query.orderBy('start_at').execute();
    return rows.map(rowToEvent);
  }

  /** Public events cancelled before they start, not started by `now`: what a feed still shows as cancelled. */
  async listCancelledNotStartedBy(now: Date): Promise<CatalogueEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('lifecycle', '=', 'cancelled')
      .where('visibility', '=', 'public')
      .where('start_at', '>', now)
      .execute();
    return rows.map(rowToEvent);
  }

  /** Every event that has not ended by `since`, for the in-memory read index. */
  async listNotEndedSince(since: Date): Promise<CatalogueEvent[]> {
    const events: CatalogueEvent[] = [];
    for await (const page of this.pagesNotEndedSince(since)) for (const event of page) events.push(event);
    return events;
  }

  /** Every event that has not ended by `since`, in pages ordered by id (see event-pages.ts). */
  pagesNotEndedSince(
    since: Date,
    options?: { pageSize?: number; readAhead?: number },
  ): AsyncGenerator<CatalogueEvent[]> {
    return pagesNotEndedSince(this.db, since, options);
  }

  /** Bulk insert for synthetic catalogues: one multi-row insert of events and one of their `create` revisions. */
  async insertManyDemo(
    rows: { id: string; externalId: string; content: EventContent }[],
    owner: Owner,
    source: string,
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('events')
        .values(
          rows.map((r) => ({
            id: r.id,
            owner,
            external_id: r.externalId,
            source,
            lifecycle: 'listed',
            ...contentColumns(r.content),
          })),
        )
        .returningAll()
        .execute();
      await trx
        .insertInto('event_revisions')
        .values(
          inserted.map((row) => ({
            event_id: row.id,
            revision: row.revision,
            action: 'create' as const,
            actor: `import:${source}`,
            snapshot: snapshotOf(rowToEvent(row)),
            submission: null,
          })),
        )
        .execute();
    });
  }

  async findManyByIds(ids: readonly string[]): Promise<CatalogueEvent[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
    return rows.map(rowToEvent);
  }
}
