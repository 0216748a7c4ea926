import { type Kysely, sql } from 'kysely';

/** The language an event is held in (see PLAIN_FIELDS in catalogue/event.ts); null when not known. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN language text CHECK (language IN ('en', 'de', 'fr', 'it'))`.execute(db);
}
