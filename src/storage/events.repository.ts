import { type Insertable, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
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

/**
 * Epoch milliseconds of a timestamptz column, microseconds truncated as node-postgres truncates them. In float8
 * (twice as fast as numeric): the truncated value is whole milliseconds, far closer to them than rounding's 0.5.
 */
const epochMs = (column: string) =>
  sql`round(date_part('epoch', date_trunc('milliseconds', ${sql.ref(column)})) * 1000)`;

/** One events row as a JSON array, in the order `BulkDecoder.event` reads it. */
const BULK_ROW = sql`json_build_array(
  id, owner, external_id, source, country, title, description, ${epochMs('start_at')}, ${epochMs('end_at')}, all_day,
  city, venue, format, topics, seniority, reg_mode, capacity, price_type, price_amount::text, currency, organizer, url,
  source_url, lat, lng, geo_precision, visibility, lifecycle, revision, ${epochMs('created_at')}, ${epochMs('updated_at')}
)`;

type BulkRow = [
  id: string,
  owner: string,
  externalId: string | null,
  source: string,
  country: string,
  title: string,
  description: string | null,
  start: number,
  end: number | null,
  allDay: boolean,
  city: string | null,
  venue: string | null,
  format: string,
  topics: string[],
  seniority: string[],
  regMode: string,
  capacity: number | null,
  priceType: string,
  priceAmount: string | null,
  currency: string,
  organizer: string,
  url: string | null,
  sourceUrl: string | null,
  lat: number | null,
  lng: number | null,
  geoPrecision: string,
  visibility: string,
  lifecycle: string,
  revision: number,
  createdAt: number,
  updatedAt: number,
];

/** Rows that have not ended by `since` (events without an end: not started before it). */
const notEndedSince = (since: Date) => sql`(end_at >= ${since} OR (end_at IS NULL AND start_at >= ${since}))`;

/**
 * Gives equal strings of one column a single object, for columns whose values recur (cities, venues, organisers,
 * descriptions of a series): after a trial, a column whose values mostly differ (titles, typically) is left alone,
 * as looking its values up costs more than it saves. Strings of up to 10 characters are shared by JSON.parse
 * already (V8 internalises them), long ones rarely recur.
 */
class SharedStrings {
  private readonly values = new Map<string, string>();
  private hits = 0;
  private misses = 0;
  private off = false;

  get(s: string): string {
    if (this.off || s.length <= 10 || s.length > 300) return s;
    const shared = this.values.get(s);
    if (shared !== undefined) {
      this.hits++;
      return shared;
    }
    if (++this.misses > 2_000 && this.misses > this.hits * 4) {
      this.off = true;
      this.values.clear();
    } else {
      this.values.set(s, s);
    }
    return s;
  }
}

/**
 * Decodes the rows of one bulk read, giving equal values one object: a catalogue repeats the same cities, venues,
 * organisers, topic lists and start hours thousands of times, and 100k rows as separate strings, Date objects and
 * arrays cost about three times the memory. Shared arrays are frozen; shared Dates are never mutated (nothing
 * calls a setter on an event's dates).
 */
export class BulkDecoder {
  private readonly owners = new SharedStrings();
  private readonly sources = new SharedStrings();
  private readonly titles = new SharedStrings();
  private readonly descriptions = new SharedStrings();
  private readonly places = new SharedStrings();
  private readonly organizers = new SharedStrings();
  private readonly terms = new SharedStrings();
  private readonly dates = new Map<number, Date>();
  private readonly lists = new Map<string, string[]>();

  event(r: BulkRow): CatalogueEvent {
    const url = r[21];
    const sourceUrl = r[22];
    return {
      id: r[0],
      owner: this.owners.get(r[1]) as Owner,
      externalId: r[2],
      source: this.sources.get(r[3]),
      country: r[4] as Country,
      title: this.titles.get(r[5]),
      description: r[6] === null ? null : this.descriptions.get(r[6]),
      start: this.date(r[7]),
      end: r[8] === null ? null : this.date(r[8]),
      allDay: r[9],
      city: r[10] === null ? null : this.places.get(r[10]),
      venue: r[11] === null ? null : this.places.get(r[11]),
      format: r[12] as EventFormat,
      topics: this.list(r[13]),
      seniority: this.list(r[14]),
      regMode: r[15] as RegMode,
      capacity: r[16],
      priceType: r[17] as PriceType,
      priceAmount: r[18],
      currency: r[19] as 'CHF' | 'EUR',
      organizer: this.organizers.get(r[20]),
      url,
      sourceUrl: sourceUrl !== null && sourceUrl === url ? url : sourceUrl,
      lat: r[23],
      lng: r[24],
      geoPrecision: r[25] as GeoPrecision,
      visibility: r[26] as Visibility,
      lifecycle: r[27] as Lifecycle,
      revision: r[28],
      createdAt: this.date(r[29]),
      updatedAt: this.date(r[30]),
    };
  }

  private date(ms: number): Date {
    let date = this.dates.get(ms);
    if (!date) {
      date = new Date(ms);
      this.dates.set(ms, date);
    }
    return date;
  }

  private list(values: string[]): string[] {
    const key = values.join('\u0000');
    let list = this.lists.get(key);
    if (!list) {
      list = Object.freeze(values.map((v) => this.terms.get(v))) as string[];
      this.lists.set(key, list);
    }
    return list;
  }
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

  /** Every event that has not ended by `since`, for the in-memory read index (see `pagesNotEndedSince`). */
  async listNotEndedSince(since: Date): Promise<CatalogueEvent[]> {
    const events: CatalogueEvent[] = [];
    for await (const page of this.pagesNotEndedSince(since)) for (const event of page) events.push(event);
    return events;
  }

  /**
   * Every event that has not ended by `since`, in pages of at most `pageSize` rows ordered by id: the read index is
   * built page by page, so neither side ever holds the whole catalogue twice, and PGlite's WASM heap (which never
   * shrinks) only ever holds a page or two.
   *
   * A page is a single JSON value (an array of row arrays, timestamps as epoch milliseconds): one field to decode
   * instead of 31 per row, which is what reading 100k rows costs on PGlite (its protocol layer copies every field),
   * and JSON.parse instead of per-column text parsers on PostgreSQL. Equal values within a read share one object
   * (see `BulkDecoder`).
   *
   * With `readAhead` > 0 the id ranges of all pages are read first (every `pageSize`th id, from the primary key) and
   * that many pages requested ahead of the one being consumed: a PostgreSQL server prepares them while the caller
   * indexes. PGlite runs queries on the caller's thread, where reading ahead gains nothing and the ranges query
   * costs: there (readAhead 0) each page starts after the last id of the previous one.
   */
  async *pagesNotEndedSince(
    since: Date,
    { pageSize = 2_000, readAhead = 0 }: { pageSize?: number; readAhead?: number } = {},
  ): AsyncGenerator<CatalogueEvent[]> {
    const decoder = new BulkDecoder();
    const pages = readAhead > 0 ? this.rangePages(since, pageSize, readAhead) : this.keysetPages(since, pageSize);
    for await (const page of pages) yield page.map((row) => decoder.event(row));
  }

  private async *keysetPages(since: Date, pageSize: number): AsyncGenerator<BulkRow[]> {
    let after: string | null = null;
    for (;;) {
      // The next `pageSize` ids through the primary key, the time filter applied within them: asked for the next
      // `pageSize` matching rows instead, the planner may scan and sort the whole table for every page.
      const result: { rows: { page: BulkRow[] | null; last: string | null }[] } = await sql<{
        page: BulkRow[] | null;
        last: string | null;
      }>`
        SELECT json_agg(r) FILTER (WHERE r IS NOT NULL) AS page, max(id) AS last FROM (
          SELECT id, CASE WHEN ${notEndedSince(since)} THEN ${BULK_ROW} END AS r
          FROM events ${after === null ? sql`` : sql`WHERE id > ${after}`}
          ORDER BY id
          LIMIT ${pageSize}
        ) p`.execute(this.db);
      const { page, last } = result.rows[0] ?? { page: null, last: null };
      if (page?.length) yield page;
      if (last === null) return;
      after = last;
    }
  }

  private async *rangePages(since: Date, pageSize: number, readAhead: number): AsyncGenerator<BulkRow[]> {
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM events) ids
      WHERE n % ${pageSize} = 0 ORDER BY id`.execute(this.db);
    // Page i holds the ids in (bounds[i], bounds[i + 1]]; null: unbounded.
    const bounds: (string | null)[] = [null, ...rows.map((r) => r.id), null];
    const pending: Promise<BulkRow[] | null>[] = [];
    let next = 0;
    const request = () => {
      while (pending.length <= readAhead && next < bounds.length - 1) {
        const page = this.rangePage(since, bounds[next]!, bounds[next + 1]!);
        page.catch(() => {}); // awaited below; a caller that stops early must not leave it unhandled
        pending.push(page);
        next++;
      }
    };
    request();
    while (pending.length > 0) {
      const page = await pending.shift()!;
      request();
      if (page?.length) yield page;
    }
  }

  /** The rows with ids in (after, upTo] (null: unbounded) not ended by `since`, ordered by id. */
  private async rangePage(since: Date, after: string | null, upTo: string | null): Promise<BulkRow[] | null> {
    const { rows } = await sql<{ page: BulkRow[] | null }>`
      SELECT json_agg(r) AS page FROM (
        SELECT ${BULK_ROW} AS r FROM events
        WHERE ${notEndedSince(since)}
          ${after === null ? sql`` : sql`AND id > ${after}`} ${upTo === null ? sql`` : sql`AND id <= ${upTo}`}
        ORDER BY id
      ) p`.execute(this.db);
    return rows[0]?.page ?? null;
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
