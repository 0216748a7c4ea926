import { type Kysely, sql } from 'kysely';

/**
 * An event's call for papers: where speakers submit, and until when — kept as given (a local date, the whole day
 * counting, or a date-time with its offset), so it reads back exactly as the host or source wrote it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN cfp_url text, ADD COLUMN cfp_until text`.execute(db);
}
