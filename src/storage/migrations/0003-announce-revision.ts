import { type Kysely, sql } from 'kysely';

/**
 * Change announcements carry the revision with the id (`<revision> <id>`): a node that already holds that revision
 * in its read index — its own writes, which it applies as it makes them — skips reading the row back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION announce_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('events_changed', NEW.revision || ' ' || NEW.id);
      RETURN NEW;
    END
    $$;
  `.execute(db);
}
