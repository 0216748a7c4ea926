import { type Kysely, sql } from 'kysely';

/**
 * The state of each source (a feed of the feeds file, a CLI import, a shipped seed): what it is, when it was last
 * tried and last read successfully, its last error and the counts of its last run. In the database rather than in
 * memory so every app node shows the same, and a restart still knows when the catalogue was last refreshed.
 * One row per source, updated in place: the revision log of the events already records what each run changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE source_status (
      source           text PRIMARY KEY,
      format           text NOT NULL,
      url              text,
      licence          text,
      last_attempt_at  timestamptz,
      last_success_at  timestamptz,
      last_error       text,
      failures         integer NOT NULL DEFAULT 0,
      last_run         jsonb,
      seeded_at        timestamptz,
      snapshot_of      date,
      updated_at       timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}
