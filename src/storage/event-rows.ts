import { type Insertable, type QueryCreator, type Selectable, sql } from 'kysely';
import { type CatalogueEvent, type EventContent, PLAIN_FIELD_NAMES, type PlainFieldName } from '../catalogue/event.js';
import type { EventRevisionsTable, EventsTable } from './schema.js';

/** How a column is stored (its SQL type); `list` is a text[] of slugs. */
export type ColumnKind = 'text' | 'list' | 'timestamptz' | 'boolean' | 'integer' | 'numeric' | 'float8';

export interface EventColumn {
  field: keyof CatalogueEvent;
  column: keyof EventsTable;
  kind: ColumnKind;
  /** Whether a write of the event's content sets it. */
  content: boolean;
  /** Whether its values recur across events (places, organisers, series), so a bulk read shares equal ones. */
  recurs?: boolean;
}

type Spec = Pick<EventColumn, 'column' | 'kind' | 'recurs'>;

/** The columns of an event's identity and lifecycle: what a write of content leaves alone. */
const IDENTITY = {
  id: { column: 'id', kind: 'text' },
  owner: { column: 'owner', kind: 'text', recurs: true },
  externalId: { column: 'external_id', kind: 'text' },
  source: { column: 'source', kind: 'text', recurs: true },
  lifecycle: { column: 'lifecycle', kind: 'text' },
  revision: { column: 'revision', kind: 'integer' },
  createdAt: { column: 'created_at', kind: 'timestamptz' },
  updatedAt: { column: 'updated_at', kind: 'timestamptz' },
} satisfies Record<Exclude<keyof CatalogueEvent, keyof EventContent>, Spec>;

/** The columns of an event's content, but for the plain fields (each in a text column of its name in snake_case). */
const CONTENT = {
  country: { column: 'country', kind: 'text' },
  title: { column: 'title', kind: 'text', recurs: true },
  description: { column: 'description', kind: 'text', recurs: true },
  start: { column: 'start_at', kind: 'timestamptz' },
  end: { column: 'end_at', kind: 'timestamptz' },
  allDay: { column: 'all_day', kind: 'boolean' },
  city: { column: 'city', kind: 'text', recurs: true },
  venue: { column: 'venue', kind: 'text', recurs: true },
  format: { column: 'format', kind: 'text' },
  topics: { column: 'topics', kind: 'list' },
  seniority: { column: 'seniority', kind: 'list' },
  regMode: { column: 'reg_mode', kind: 'text' },
  capacity: { column: 'capacity', kind: 'integer' },
  priceType: { column: 'price_type', kind: 'text' },
  priceAmount: { column: 'price_amount', kind: 'numeric' },
  currency: { column: 'currency', kind: 'text' },
  organizer: { column: 'organizer', kind: 'text', recurs: true },
  url: { column: 'url', kind: 'text' },
  sourceUrl: { column: 'source_url', kind: 'text' },
  lat: { column: 'lat', kind: 'float8' },
  lng: { column: 'lng', kind: 'float8' },
  geoPrecision: { column: 'geo_precision', kind: 'text' },
  visibility: { column: 'visibility', kind: 'text' },
  cfpUrl: { column: 'cfp_url', kind: 'text' },
  cfpUntil: { column: 'cfp_until', kind: 'text' },
} satisfies Record<Exclude<keyof EventContent, PlainFieldName>, Spec>;

/** A plain field's column: its name in snake_case ("startTime" → "start_time"). */
export function columnOf(field: PlainFieldName): keyof EventsTable {
  return (field as string).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as keyof EventsTable;
}

const columns = (table: Record<string, Spec>, content: boolean): EventColumn[] =>
  Object.entries(table).map(([field, spec]) => ({ field: field as keyof CatalogueEvent, content, ...spec }));

/** Every column of an event row, once: what each field of an event is stored in. */
export const EVENT_COLUMNS: readonly EventColumn[] = [
  ...columns(IDENTITY, false),
  ...columns(CONTENT, true),
  ...PLAIN_FIELD_NAMES.map((field): EventColumn => ({ field, column: columnOf(field), kind: 'text', content: true })),
];

/**
 * An event with every field, null: events are made as copies of it and filled in. Fields set one by one on `{}` by
 * name would turn each event into a hash table past 16 of them (V8's limit for keyed stores), at about twice the
 * memory; copies of one object made by JSON.parse share its layout.
 */
const EVENT_SHAPE: Readonly<Record<string, unknown>> = JSON.parse(
  JSON.stringify(Object.fromEntries(EVENT_COLUMNS.map((c) => [c.field, null]))),
);
export const blankEvent = (): Record<string, unknown> => ({ ...EVENT_SHAPE });

const CONTENT_COLUMNS = EVENT_COLUMNS.filter((c) => c.content);
const KIND_OF: ReadonlyMap<string, ColumnKind> = new Map(EVENT_COLUMNS.map((c) => [c.column, c.kind]));

export function rowToEvent(row: Selectable<EventsTable>): CatalogueEvent {
  const event = blankEvent();
  for (const { field, column } of EVENT_COLUMNS) event[field] = row[column] ?? null;
  return event as unknown as CatalogueEvent;
}

type ContentColumns = Omit<Insertable<EventsTable>, (typeof IDENTITY)[keyof typeof IDENTITY]['column']>;

/** The columns a write sets from an event's content. */
export function contentColumns(c: EventContent): ContentColumns {
  const out: Record<string, unknown> = {};
  for (const { field, column } of CONTENT_COLUMNS) out[column] = c[field as keyof EventContent];
  return out as ContentColumns;
}

/** A JSON snapshot of an event for the revision log: exactly what a restore or an audit needs. */
export function snapshotOf(event: CatalogueEvent): string {
  return JSON.stringify(event);
}

/**
 * `SELECT … FROM unnest(…)` of many rows, one array parameter per column: a handful of parameters whatever the
 * number of rows, where a multi-row VALUES list has one per value and costs the embedded engine far more to parse.
 * Lists travel as comma-joined text (topic and seniority slugs hold no commas).
 */
export function unnestRows(rows: readonly Record<string, unknown>[]) {
  const names = Object.keys(rows[0]!);
  const kinds = names.map((column) => KIND_OF.get(column) ?? 'text');
  const arrays = names.map((column, i) =>
    rows.map((row) => (kinds[i] === 'list' ? (row[column] as string[]).join(',') : row[column])),
  );
  const select = sql.join(
    kinds.map((kind, i) => (kind === 'list' ? sql`string_to_array(${sql.ref(`u.c${i}`)}, ',')` : sql.ref(`u.c${i}`))),
  );
  const from = sql.join(
    arrays.map((values, i) => sql`${values}::${sql.raw(`${kinds[i] === 'list' ? 'text' : kinds[i]}[]`)}`),
  );
  const aliases = sql.join(names.map((_, i) => sql.raw(`c${i}`)));
  return {
    columns: sql.join(names.map((c) => sql.ref(c))),
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
