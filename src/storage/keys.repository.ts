import type { Kysely } from 'kysely';
import { issueKey, issueSecret } from '../auth/api-keys.js';
import type { Country } from '../places/countries.js';
import type { Database } from './schema.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  country: Country;
  secretHash: Buffer;
  createdAt: Date;
  revokedAt: Date | null;
  /** When the key last got a new secret; null if never rotated. */
  rotatedAt: Date | null;
  /** The secret before the last rotation, accepted until `until` (a grace period); null without one. */
  previousSecret: { hash: Buffer; until: Date } | null;
}

export class KeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Creates a key and returns the only copy of its plain text. */
  async create(name: string, country: Country): Promise<{ record: ApiKeyRecord; key: string }> {
    const issued = issueKey();
    const row = await this.db
      .insertInto('api_keys')
      .values({ id: issued.id, name, country, secret_hash: issued.secretHash, revoked_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { record: toRecord(row), key: issued.key };
  }

  async find(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map(toRecord);
  }

  /** Revokes a key; true if it existed and was active. */
  async revoke(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Gives an active key a new secret and returns the only copy of the new key; undefined if the key is unknown or
   * revoked. With `graceUntil`, the secret being replaced stays valid until then; without, it stops at once. In one
   * statement (SET reads the row as it was), so a second rotation during a grace period drops the oldest secret,
   * and a concurrent revoke either comes first (no rotation) or after (revoked).
   */
  async rotate(
    id: string,
    at: Date,
    graceUntil: Date | null,
  ): Promise<{ record: ApiKeyRecord; key: string } | undefined> {
    const issued = issueSecret(id);
    const row = await this.db
      .updateTable('api_keys')
      .set((eb) => ({
        secret_hash: issued.secretHash,
        rotated_at: at,
        previous_secret_hash: graceUntil ? eb.ref('secret_hash') : null,
        previous_secret_until: graceUntil,
      }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row && { record: toRecord(row), key: issued.key };
  }
}

function toRecord(row: {
  id: string;
  name: string;
  country: string;
  secret_hash: Buffer;
  created_at: Date;
  revoked_at: Date | null;
  rotated_at: Date | null;
  previous_secret_hash: Buffer | null;
  previous_secret_until: Date | null;
}): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    country: row.country as Country,
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    rotatedAt: row.rotated_at,
    previousSecret:
      row.previous_secret_hash && row.previous_secret_until
        ? { hash: row.previous_secret_hash, until: row.previous_secret_until }
        : null,
  };
}
