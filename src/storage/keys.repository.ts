import type { Kysely } from 'kysely';
import { issueKey } from '../auth/api-keys.js';
import type { Country } from '../catalogue/countries.js';
import type { Database } from './schema.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  country: Country;
  secretHash: Buffer;
  createdAt: Date;
  revokedAt: Date | null;
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
}

function toRecord(row: {
  id: string;
  name: string;
  country: string;
  secret_hash: Buffer;
  created_at: Date;
  revoked_at: Date | null;
}): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    country: row.country as Country,
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
