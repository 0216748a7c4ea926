import { type Kysely, sql } from 'kysely';

/**
 * Ids are slugs, and a new event takes the first free of base, base-2, base-3…: looking up the ids that start with a
 * base (`LIKE 'base-%'`) is an index range scan with the pattern operator class, whatever the database's collation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX events_id_prefix ON events (id text_pattern_ops)`.execute(db);
}
