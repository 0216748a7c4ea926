import { type Kysely, sql } from 'kysely';

/**
 * What a sync keeps per URL or calendar of a source (`source_parts`): the validators it was last served with (for
 * conditional requests), its last attempt, success and error, how many reads in a row found it empty, and the counts
 * of its last run. `part` is the calendar's id within a collection of calendars (a Meetup group's name), or the URL
 * of a file of a data set; a host's calendar is `host` and the calendar's id.
 *
 * `host_calendars`: iCal feeds a host linked to its key. Unlinking keeps the row (`unlinked_at`) as it keeps the
 * calendar's events, cancelled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE source_parts (
      source           text NOT NULL,
      part             text NOT NULL,
      url              text NOT NULL,
      etag             text,
      last_modified    text,
      last_attempt_at  timestamptz,
      last_success_at  timestamptz,
      last_changed_at  timestamptz,
      last_error       text,
      failures         integer NOT NULL DEFAULT 0,
      empty_reads      integer NOT NULL DEFAULT 0,
      last_run         jsonb,
      PRIMARY KEY (source, part)
    );
    CREATE TABLE host_calendars (
      id           text PRIMARY KEY,
      key_id       text NOT NULL REFERENCES api_keys (id),
      url          text NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      unlinked_at  timestamptz
    );
    CREATE UNIQUE INDEX host_calendars_linked ON host_calendars (key_id, url) WHERE unlinked_at IS NULL;
  `.execute(db);
}
