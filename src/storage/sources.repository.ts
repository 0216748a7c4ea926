import { type Kysely, sql } from 'kysely';
import type { Country } from '../places/countries.js';
import { camelCased, type Database } from './schema.js';

/** The counts of one run of a source: what it changed, what it skipped, and for feeds how many URLs it read. */
export interface RunCounts {
  created: number;
  updated: number;
  unchanged: number;
  cancelled: number;
  restored: number;
  skipped: number;
  elsewhere: number;
  /** URLs (or files) the run read, and how many of them did not exist (a topic file not published yet). */
  urls?: number;
  missing?: number;
  /** A calendar over a limit: what was left out, and why (see importers/calendar-limits.ts). */
  cut?: string;
}

export interface SourceStatus {
  source: string;
  format: string;
  url: string | null;
  licence: string | null;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  /** Failed runs since the last success. */
  failures: number;
  lastRun: RunCounts | null;
  /** When the shipped snapshot of the source was loaded, and the date of the data it holds. */
  seededAt: Date | null;
  snapshotOf: string | null;
}

export interface RunRecord {
  source: string;
  format: string;
  url?: string | null;
  licence?: string | null;
  at: Date;
  /** Absent when the run succeeded. */
  error?: string;
  counts?: RunCounts;
}

/** Listed and cancelled events of a source that are not over yet. */
export interface SourceCounts {
  listed: number;
  cancelled: number;
}

/** SQL for the sources' state lives here only. */
export class SourcesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records one run: a success clears the error and the failure count, a failure keeps the last success. */
  async recordRun(run: RunRecord): Promise<void> {
    const ok = run.error === undefined;
    await this.db
      .insertInto('source_status')
      .values({
        source: run.source,
        format: run.format,
        url: run.url ?? null,
        licence: run.licence ?? null,
        last_attempt_at: run.at,
        last_success_at: ok ? run.at : null,
        last_error: run.error ?? null,
        failures: ok ? 0 : 1,
        last_run: ok && run.counts ? JSON.stringify(run.counts) : null,
      })
      .onConflict((oc) =>
        oc.column('source').doUpdateSet((eb) => ({
          format: run.format,
          url: run.url ?? null,
          licence: run.licence ?? null,
          last_attempt_at: run.at,
          last_success_at: ok ? run.at : eb.ref('source_status.last_success_at'),
          last_error: run.error ?? null,
          failures: ok ? 0 : sql<number>`source_status.failures + 1`,
          last_run: ok && run.counts ? JSON.stringify(run.counts) : eb.ref('source_status.last_run'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }

  /** Records that the shipped snapshot of a source was loaded. */
  async recordSeed(seed: { source: string; format: string; licence?: string | null; at: Date; snapshotOf?: string }) {
    await this.db
      .insertInto('source_status')
      .values({
        source: seed.source,
        format: seed.format,
        licence: seed.licence ?? null,
        seeded_at: seed.at,
        snapshot_of: seed.snapshotOf ?? null,
      })
      .onConflict((oc) =>
        oc.column('source').doUpdateSet({
          seeded_at: seed.at,
          snapshot_of: seed.snapshotOf ?? null,
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }

  async list(): Promise<SourceStatus[]> {
    const rows = await this.db
      .selectFrom('source_status')
      .select([
        'source',
        'format',
        'url',
        'licence',
        'last_attempt_at',
        'last_success_at',
        'last_error',
        'failures',
        'last_run',
        'seeded_at',
        sql<string | null>`snapshot_of::text`.as('snapshot_of'),
      ])
      .orderBy('source')
      .execute();
    return rows.map((row) => camelCased(row) as SourceStatus);
  }

  /**
   * Per source (the events' public `source`, so host pushes count as `host`), its events that are not over yet:
   * listed and cancelled. An event without an end is taken to last 3 hours, as in the listings.
   */
  async counts(now: Date): Promise<Map<string, SourceCounts>> {
    const rows = await this.db
      .selectFrom('events')
      .select(['source', 'lifecycle', sql<number>`count(*)::int`.as('n')])
      .where(sql<boolean>`coalesce(end_at, start_at + interval '3 hours') > ${now}`)
      .groupBy(['source', 'lifecycle'])
      .execute();
    return tally(rows.map((row) => ({ ...row, key: row.source })));
  }

  /**
   * Of one owner's events not over yet, per calendar (the part of the externalId before "|", see sync-calendars.ts):
   * listed and cancelled.
   */
  async countsByCalendar(owner: string, now: Date): Promise<Map<string, SourceCounts>> {
    const rows = await this.db
      .selectFrom('events')
      .select([
        sql<string>`split_part(external_id, '|', 1)`.as('calendar'),
        'lifecycle',
        sql<number>`count(*)::int`.as('n'),
      ])
      .where('owner', '=', owner)
      .where(sql<boolean>`strpos(external_id, '|') > 0`)
      .where(sql<boolean>`coalesce(end_at, start_at + interval '3 hours') > ${now}`)
      .groupBy([sql`split_part(external_id, '|', 1)`, 'lifecycle'])
      .execute();
    return tally(rows.map((row) => ({ ...row, key: row.calendar })));
  }

  /** Public, listed events not over yet, per country: what the listings show. */
  async upcomingByCountry(now: Date): Promise<Record<Country, number>> {
    const rows = await this.db
      .selectFrom('events')
      .select(['country', sql<number>`count(*)::int`.as('n')])
      .where('lifecycle', '=', 'listed')
      .where('visibility', '=', 'public')
      .where(sql<boolean>`coalesce(end_at, start_at + interval '3 hours') > ${now}`)
      .groupBy('country')
      .execute();
    const result: Record<Country, number> = { ch: 0, de: 0, at: 0 };
    for (const row of rows) if (row.country in result) result[row.country as Country] = row.n;
    return result;
  }

  /**
   * How current the catalogue's data is: its latest successful sync of any source, or, before any, the date of the
   * newest shipped snapshot loaded (the date of its data, not when it was loaded).
   */
  async lastRefreshed(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('source_status')
      .select(sql<Date | null>`coalesce(max(last_success_at), max(snapshot_of)::timestamptz)`.as('at'))
      .executeTakeFirst();
    return row?.at ?? null;
  }
}

/** Counts per key and lifecycle as listed and cancelled per key. */
function tally(rows: readonly { key: string; lifecycle: string; n: number }[]): Map<string, SourceCounts> {
  const counts = new Map<string, SourceCounts>();
  for (const { key, lifecycle, n } of rows) {
    const entry = counts.get(key) ?? { listed: 0, cancelled: 0 };
    if (lifecycle === 'listed') entry.listed += n;
    else if (lifecycle === 'cancelled') entry.cancelled += n;
    counts.set(key, entry);
  }
  return counts;
}
