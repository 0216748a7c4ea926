import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Country } from '../catalogue/countries.js';
import type {
  CatalogueEvent,
  EventContent,
  EventFormat,
  GeoPrecision,
  Lifecycle,
  Owner,
  PriceType,
  RegMode,
  Visibility,
} from '../catalogue/event.js';
import type { Database, EventRevisionsTable, EventsTable } from './schema.js';

type EventRow = Selectable<EventsTable>;

export function rowToEvent(row: EventRow): CatalogueEvent {
  return {
    id: row.id,
    owner: row.owner as Owner,
    externalId: row.external_id,
    source: row.source,
    country: row.country as Country,
    title: row.title,
    description: row.description,
    start: row.start_at,
    end: row.end_at,
    allDay: row.all_day,
    city: row.city,
    venue: row.venue,
    format: row.format as EventFormat,
    topics: row.topics,
    seniority: row.seniority,
    regMode: row.reg_mode as RegMode,
    capacity: row.capacity,
    priceType: row.price_type as PriceType,
    priceAmount: row.price_amount,
    currency: row.currency as 'CHF' | 'EUR',
    organizer: row.organizer,
    url: row.url,
    sourceUrl: row.source_url,
    lat: row.lat,
    lng: row.lng,
    geoPrecision: row.geo_precision as GeoPrecision,
    visibility: row.visibility as Visibility,
    lifecycle: row.lifecycle as Lifecycle,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function contentColumns(c: EventContent) {
  return {
    country: c.country,
    title: c.title,
    description: c.description,
    start_at: c.start,
    end_at: c.end,
    all_day: c.allDay,
    city: c.city,
    venue: c.venue,
    format: c.format,
    topics: c.topics,
    seniority: c.seniority,
    reg_mode: c.regMode,
    capacity: c.capacity,
    price_type: c.priceType,
    price_amount: c.priceAmount,
    currency: c.currency,
    organizer: c.organizer,
    url: c.url,
    source_url: c.sourceUrl,
    lat: c.lat,
    lng: c.lng,
    geo_precision: c.geoPrecision,
    visibility: c.visibility,
  } satisfies Partial<Insertable<EventsTable>>;
}

/** A JSON snapshot of an event for the revision log: exactly what a restore or an audit needs. */
function snapshotOf(event: CatalogueEvent): unknown {
  return JSON.parse(JSON.stringify(event));
}

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

  /** Ids starting with `base`, to pick a free slug. */
  async idsLike(base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('events')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', base), eb('id', 'like', `${base.replace(/[\\%_]/g, '\\$&')}-%`)]))
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Inserts a new event unless the owner already has one with this externalId.
   * Returns undefined when that row exists (a concurrent create won): the caller then updates it.
   */
  async insertIfAbsent(
    identity: { id: string; owner: Owner; externalId: string | null; source: string },
    content: EventContent,
  ): Promise<CatalogueEvent | undefined> {
    const row = await this.db
      .insertInto('events')
      .values({
        id: identity.id,
        owner: identity.owner,
        external_id: identity.externalId,
        source: identity.source,
        lifecycle: 'listed',
        ...contentColumns(content),
      })
      .onConflict((oc) => oc.constraint('events_owner_external_id').doNothing())
      .returningAll()
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

  async setLifecycle(id: string, lifecycle: Lifecycle): Promise<CatalogueEvent> {
    const row = await this.db
      .updateTable('events')
      .set((eb) => ({ lifecycle, revision: eb('revision', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return rowToEvent(row);
  }

  async appendRevision(
    event: CatalogueEvent,
    action: EventRevisionsTable['action'],
    actor: string,
    submission?: unknown,
  ): Promise<void> {
    await this.db
      .insertInto('event_revisions')
      .values({
        event_id: event.id,
        revision: event.revision,
        action,
        actor,
        snapshot: JSON.stringify(snapshotOf(event)),
        submission: submission === undefined ? null : JSON.stringify(submission),
      })
      .execute();
  }

  async revisions(id: string): Promise<Selectable<EventRevisionsTable>[]> {
    return this.db.selectFrom('event_revisions').selectAll().where('event_id', '=', id).orderBy('revision').execute();
  }

  async listByOwner(owner: Owner): Promise<CatalogueEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('owner', '=', owner)
      .orderBy('start_at')
      .execute();
    return rows.map(rowToEvent);
  }

  /** Every event that has not ended by `since`, for the in-memory read index. */
  async listNotEndedSince(since: Date): Promise<CatalogueEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where((eb) =>
        eb.or([eb('end_at', '>=', since), eb.and([eb('end_at', 'is', null), eb('start_at', '>=', since)])]),
      )
      .execute();
    return rows.map(rowToEvent);
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
            snapshot: JSON.stringify(snapshotOf(rowToEvent(row))),
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
