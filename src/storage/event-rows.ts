import { type Insertable, type QueryCreator, type Selectable, sql } from 'kysely';
import {
  type CatalogueEvent,
  type EventContent,
  type EventFormat,
  type GeoPrecision,
  type Lifecycle,
  type Owner,
  PLAIN_FIELD_NAMES,
  type PlainContent,
  type PlainFieldName,
  type PriceType,
  type RegMode,
  type Visibility,
} from '../catalogue/event.js';
import type { Country } from '../places/countries.js';
import type { EventRevisionsTable, EventsTable } from './schema.js';

/*
 * How an event maps onto its row, in one place: the columns of the fields every event has, then the plain fields of
 * the event model (catalogue/event.ts), each in a column of its name in snake_case.
 */

type EventRow = Selectable<EventsTable>;

/** A plain field's column: its name in snake_case ("startTime" → "start_time"). */
export function columnOf(field: PlainFieldName): keyof EventsTable {
  return (field as string).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as keyof EventsTable;
}

function plainFromRow(row: Record<string, unknown>): PlainContent {
  const out: Record<string, unknown> = {};
  for (const name of PLAIN_FIELD_NAMES) out[name] = row[columnOf(name)] ?? null;
  return out as PlainContent;
}

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
    cfpUrl: row.cfp_url,
    cfpUntil: row.cfp_until,
    lifecycle: row.lifecycle as Lifecycle,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...plainFromRow(row as unknown as Record<string, unknown>),
  };
}

/** The columns a write sets from an event's content. */
export function contentColumns(c: EventContent) {
  const columns = {
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
    cfp_url: c.cfpUrl,
    cfp_until: c.cfpUntil,
  } satisfies Partial<Insertable<EventsTable>>;
  for (const name of PLAIN_FIELD_NAMES) Object.assign(columns, { [columnOf(name)]: c[name] });
  return columns;
}

/** A JSON snapshot of an event for the revision log: exactly what a restore or an audit needs. */
export function snapshotOf(event: CatalogueEvent): string {
  return JSON.stringify(event);
}

/**
 * Epoch milliseconds of a timestamptz column, microseconds truncated as node-postgres truncates them. In float8
 * (twice as fast as numeric): the truncated value is whole milliseconds, far closer to them than rounding's 0.5.
 */
const epochMs = (column: string) =>
  sql`round(date_part('epoch', date_trunc('milliseconds', ${sql.ref(column)})) * 1000)`;

/** One events row as a JSON array, in the order `BulkDecoder.event` reads it: the core columns, then the plain ones. */
export const BULK_ROW = sql`json_build_array(
  id, owner, external_id, source, country, title, description, ${epochMs('start_at')}, ${epochMs('end_at')}, all_day,
  city, venue, format, topics, seniority, reg_mode, capacity, price_type, price_amount::text, currency, organizer, url,
  source_url, lat, lng, geo_precision, visibility, lifecycle, revision, ${epochMs('created_at')}, ${epochMs('updated_at')},
  cfp_url, cfp_until
  ${sql.join(
    PLAIN_FIELD_NAMES.map((name) => sql`, ${sql.ref(columnOf(name))}`),
    sql``,
  )}
)`;

/** Where the plain columns start in a bulk row. */
const FIRST_PLAIN = 33;

export type BulkRow = [
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
  cfpUrl: string | null,
  cfpUntil: string | null,
  ...plain: unknown[],
];

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
  private readonly coordinates = new Map<number, number>();
  private readonly lists = new Map<string, string[]>();

  event(r: BulkRow): CatalogueEvent {
    const url = r[21];
    const sourceUrl = r[22];
    const plain: Record<string, unknown> = {};
    PLAIN_FIELD_NAMES.forEach((name, i) => {
      plain[name] = r[FIRST_PLAIN + i] ?? null;
    });
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
      lat: this.coordinate(r[23]),
      lng: this.coordinate(r[24]),
      geoPrecision: r[25] as GeoPrecision,
      visibility: r[26] as Visibility,
      lifecycle: r[27] as Lifecycle,
      revision: r[28],
      createdAt: this.date(r[29]),
      updatedAt: this.date(r[30]),
      cfpUrl: r[31],
      cfpUntil: r[32],
      ...(plain as PlainContent),
    };
  }

  /**
   * A coordinate as the number object every event at that point shares: events placed at a city's centre repeat the
   * same coordinates thousands of times, and a number that is not a small integer is an object of its own, one
   * more per event for every full collection to mark. Shared as long as V8 keeps the field as a reference, which
   * it does once the field has held null too (an online event's): measured at 100k events, 170k objects fewer.
   */
  private coordinate(value: number | null): number | null {
    if (value === null) return null;
    let shared = this.coordinates.get(value);
    if (shared === undefined) {
      shared = value;
      this.coordinates.set(value, shared);
    }
    return shared;
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

/** The SQL type of each column a write sets (plain fields are text), for multi-row writes through unnest. */
const COLUMN_TYPES: Record<string, string> = {
  id: 'text',
  owner: 'text',
  external_id: 'text',
  source: 'text',
  lifecycle: 'text',
  country: 'text',
  title: 'text',
  description: 'text',
  start_at: 'timestamptz',
  end_at: 'timestamptz',
  all_day: 'boolean',
  city: 'text',
  venue: 'text',
  format: 'text',
  reg_mode: 'text',
  capacity: 'integer',
  price_type: 'text',
  price_amount: 'numeric',
  currency: 'text',
  organizer: 'text',
  url: 'text',
  source_url: 'text',
  lat: 'float8',
  lng: 'float8',
  geo_precision: 'text',
  visibility: 'text',
  cfp_url: 'text',
  cfp_until: 'text',
};
/** List columns travel as comma-joined text (topic and seniority slugs hold no commas). */
const LIST_COLUMNS = new Set(['topics', 'seniority']);

/**
 * `SELECT … FROM unnest(…)` of many rows, one array parameter per column: a handful of parameters whatever the
 * number of rows, where a multi-row VALUES list has one per value and costs the embedded engine far more to parse.
 */
export function unnestRows(rows: readonly Record<string, unknown>[]) {
  const columns = Object.keys(rows[0]!);
  const arrays = columns.map((column) =>
    rows.map((row) => {
      const value = row[column];
      return LIST_COLUMNS.has(column) ? (value as string[]).join(',') : value;
    }),
  );
  const type = (column: string) => (LIST_COLUMNS.has(column) ? 'text' : (COLUMN_TYPES[column] ?? 'text'));
  const select = sql.join(
    columns.map((column, i) =>
      LIST_COLUMNS.has(column) ? sql`string_to_array(${sql.ref(`u.c${i}`)}, ',')` : sql.ref(`u.c${i}`),
    ),
  );
  const from = sql.join(arrays.map((values, i) => sql`${values}::${sql.raw(`${type(columns[i]!)}[]`)}`));
  const aliases = sql.join(columns.map((_, i) => sql.raw(`c${i}`)));
  return {
    columns: sql.join(columns.map((c) => sql.ref(c))),
    select: sql`SELECT ${select} FROM unnest(${from}) AS u(${aliases})`,
  };
}

/** Who made a change and what they sent, for the revision log. */
export interface RevisionLog {
  actor: string;
  /** The write's body as received, when there was one. */
  submission?: unknown;
}

/**
 * The revision-log insert of a data-modifying statement: one row for the event the CTE `from` returned (none when it
 * returned none), with the event's snapshot as it is after the change.
 */
export function logRevision(
  // Loosely typed: Kysely cannot type a CTE name given as a parameter; both callers name an events row.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  db: QueryCreator<any>,
  from: 'created' | 'changed',
  event: CatalogueEvent,
  action: EventRevisionsTable['action'],
  log: RevisionLog,
) {
  return db
    .insertInto('event_revisions')
    .columns(['event_id', 'revision', 'action', 'actor', 'snapshot', 'submission'])
    .expression(
      db
        .selectFrom(from)
        .select([
          'id',
          'revision',
          sql.val(action).as('action'),
          sql.val(log.actor).as('actor'),
          sql`${snapshotOf(event)}::jsonb`.as('snapshot'),
          sql`${log.submission === undefined ? null : JSON.stringify(log.submission)}::jsonb`.as('submission'),
        ]),
    );
}
