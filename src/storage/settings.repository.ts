import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Storage } from './database.js';

/**
 * A secret shared by every app node on this database (e.g. the key signing pagination cursors, so a cursor made by
 * one node is good on another): made by the first node that asks, the same for every node after.
 */
export async function sharedSecret(storage: Storage, name: string): Promise<Buffer> {
  return Buffer.from(await sharedSetting(storage, name, () => randomBytes(32).toString('base64')), 'base64');
}

/**
 * A setting every app node shares, made by `make` (a signing key) only when none is kept yet: the value kept is
 * whichever node's insert won, so all nodes use the same.
 */
export async function sharedSetting(storage: Storage, name: string, make: () => string): Promise<string> {
  const read = async () =>
    (await sql<{ value: string }>`SELECT value FROM settings WHERE name = ${name}`.execute(storage.db)).rows[0]?.value;
  const kept = await read();
  if (kept !== undefined) return kept;
  await sql`INSERT INTO settings (name, value) VALUES (${name}, ${make()}) ON CONFLICT (name) DO NOTHING`.execute(
    storage.db,
  );
  return (await read())!;
}
