import { type Kysely, sql } from 'kysely';

/** Values every app node on this database shares, such as the key that signs pagination cursors. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL)`.execute(db);
}
