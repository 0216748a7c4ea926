import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Storage } from './database.js';

/**
 * A secret shared by every app node on this database (e.g. the key signing pagination cursors, so a cursor made by
 * one node is good on another): made by the first node that asks, the same for every node after.
 */
export async function sharedSecret(storage: Storage, name: string): Promise<Buffer> {
  await sql`INSERT INTO settings (name, value) VALUES (${name}, ${randomBytes(32).toString('base64')})
            ON CONFLICT (name) DO NOTHING`.execute(storage.db);
  const { rows } = await sql<{ value: string }>`SELECT value FROM settings WHERE name = ${name}`.execute(storage.db);
  return Buffer.from(rows[0]!.value, 'base64');
}
