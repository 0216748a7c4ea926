import { type Kysely, sql } from 'kysely';

/**
 * `source_parts.content_hash`: a digest of what a calendar last served, per-request stamps left out, so that a
 * calendar served without validators (Meetup's) and unchanged costs no work. `host_calendars.city`: where a host's
 * calendar's events are when they do not say (Meetup's exports name no place).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE source_parts ADD COLUMN content_hash text;
    ALTER TABLE host_calendars ADD COLUMN city text;
  `.execute(db);
}
