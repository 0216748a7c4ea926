import { type Kysely, sql } from 'kysely';

/** What an event offers deaf and hard-of-hearing attendees (see PLAIN_FIELDS in catalogue/event.ts); null when not known. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN accessibility text CHECK (accessibility IN ('sign-language-or-captions'))`.execute(
    db,
  );
}
