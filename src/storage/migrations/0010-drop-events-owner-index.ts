import { type Kysely, sql } from 'kysely';

/**
 * events_owner_external_id (owner, external_id) serves every look-up by owner already: the index on owner alone only
 * cost every write, and led the planner away from the better index for a batch's externalIds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX events_owner`.execute(db);
}
