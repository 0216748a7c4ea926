import { type Kysely, sql } from 'kysely';

/**
 * Key rotation gives a key a new secret and keeps its id, so its events, externalIds and RSVPs stay with it.
 * During a grace period the previous secret's hash is kept beside the new one until `previous_secret_until`;
 * both are set or neither. `rotated_at` is when the key last got a new secret.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE api_keys
      ADD COLUMN rotated_at timestamptz,
      ADD COLUMN previous_secret_hash bytea,
      ADD COLUMN previous_secret_until timestamptz,
      ADD CONSTRAINT api_keys_previous_secret_expires
        CHECK ((previous_secret_hash IS NULL) = (previous_secret_until IS NULL));
  `.execute(db);
}
