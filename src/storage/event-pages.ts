import { type Kysely, sql } from 'kysely';
import type { CatalogueEvent } from '../catalogue/event.js';
import { blankEvent, EVENT_COLUMNS, type EventColumn } from './event-rows.js';
import type { Database } from './schema.js';

/*
 * The start-up read of the catalogue, in pages. A page is one JSON value (row arrays in EVENT_COLUMNS order): one field
 * to decode rather than one per column, which PGlite's protocol layer copies each, and JSON.parse on PostgreSQL.
 */

type BulkRow = unknown[];

/** Rows not ended by `since`; events without an end last three hours (as `endsAt` in the read index). */
export const notEndedSince = (since: Date) =>
  sql`(end_at >= ${since} OR (end_at IS NULL AND start_at >= ${new Date(since.getTime() - 3 * 3_600_000)}))`;

/** A column as JSON carries it: timestamps as epoch milliseconds (truncated, as node-postgres reads them), numeric as text. */
function bulkValue({ column, kind }: EventColumn) {
  if (kind === 'timestamptz')
    return sql`round(date_part('epoch', date_trunc('milliseconds', ${sql.ref(column)})) * 1000)`;
  if (kind === 'numeric') return sql`${sql.ref(column)}::text`;
  return sql.ref(column);
}

const BULK_ROW = sql`json_build_array(${sql.join(EVENT_COLUMNS.map(bulkValue))})`;

/**
 * Every event not ended by `since`, in pages ordered by id, so neither side holds the whole catalogue twice and
 * PGlite's never-shrinking memory holds a page or two. With `readAhead` > 0, the page bounds are read first and pages
 * requested ahead, for PostgreSQL to prepare while the caller indexes; PGlite runs on the caller's thread (0).
 */
export async function* pagesNotEndedSince(
  db: Kysely<Database>,
  since: Date,
  { pageSize = 2_000, readAhead = 0 }: { pageSize?: number; readAhead?: number } = {},
): AsyncGenerator<CatalogueEvent[]> {
  const decoder = new BulkDecoder();
  const pages = readAhead > 0 ? rangePages(db, since, pageSize, readAhead) : keysetPages(db, since, pageSize);
  for await (const page of pages) yield page.map((row) => decoder.event(row));
}

async function* keysetPages(db: Kysely<Database>, since: Date, pageSize: number): AsyncGenerator<BulkRow[]> {
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
      ) p`.execute(db);
    const { page, last } = result.rows[0] ?? { page: null, last: null };
    if (page?.length) yield page;
    if (last === null) return;
    after = last;
  }
}

async function* rangePages(
  db: Kysely<Database>,
  since: Date,
  pageSize: number,
  readAhead: number,
): AsyncGenerator<BulkRow[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM events) ids
    WHERE n % ${pageSize} = 0 ORDER BY id`.execute(db);
  // Page i holds the ids in (bounds[i], bounds[i + 1]]; null: unbounded.
  const bounds: (string | null)[] = [null, ...rows.map((r) => r.id), null];
  const pending: Promise<BulkRow[] | null>[] = [];
  let next = 0;
  const request = () => {
    while (pending.length <= readAhead && next < bounds.length - 1) {
      const page = rangePage(db, since, bounds[next]!, bounds[next + 1]!);
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
async function rangePage(
  db: Kysely<Database>,
  since: Date,
  after: string | null,
  upTo: string | null,
): Promise<BulkRow[] | null> {
  const { rows } = await sql<{ page: BulkRow[] | null }>`
    SELECT json_agg(r) AS page FROM (
      SELECT ${BULK_ROW} AS r FROM events
      WHERE ${notEndedSince(since)}
        ${after === null ? sql`` : sql`AND id > ${after}`} ${upTo === null ? sql`` : sql`AND id <= ${upTo}`}
      ORDER BY id
    ) p`.execute(db);
  return rows[0]?.page ?? null;
}

/** One object for equal strings of a column; left alone after a trial when its values mostly differ. */
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
 * Decodes a bulk read giving equal values one object, as a catalogue repeats cities, venues and topic lists many
 * times. Shared lists are frozen; shared dates are never mutated.
 */
class BulkDecoder {
  private readonly dates = new Map<number, Date>();
  private readonly lists = new Map<string, string[]>();
  private readonly terms = new SharedStrings();
  private readonly decoders = EVENT_COLUMNS.map((column) => this.decoderOf(column));

  event(row: BulkRow): CatalogueEvent {
    const event = blankEvent();
    for (let i = 0; i < EVENT_COLUMNS.length; i++) event[EVENT_COLUMNS[i]!.field] = this.decoders[i]!(row[i] ?? null);
    // An event's source URL is often its own URL: one string for both.
    if (event.sourceUrl !== null && event.sourceUrl === event.url) event.sourceUrl = event.url;
    return event as unknown as CatalogueEvent;
  }

  private decoderOf({ kind, recurs }: EventColumn): (value: unknown) => unknown {
    if (kind === 'timestamptz') return (ms) => (ms === null ? null : this.date(ms as number));
    if (kind === 'list') return (values) => this.list(values as string[]);
    if (!recurs) return (value) => value;
    const strings = new SharedStrings();
    return (value) => (value === null ? null : strings.get(value as string));
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
