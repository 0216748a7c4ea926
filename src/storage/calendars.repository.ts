import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { camelCased, type Database } from './schema.js';

/** An iCal feed a host linked to its key. */
export interface HostCalendar {
  id: string;
  keyId: string;
  url: string;
  createdAt: Date;
  unlinkedAt: Date | null;
  /** Where its events are when they do not say: a city of the host's country. */
  city: string | null;
}

/** SQL for hosts' linked calendars lives here only. */
export class CalendarsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Links a calendar; undefined when the key has it linked already (the unique index decides, race-free). */
  async link(keyId: string, url: string, city?: string): Promise<HostCalendar | undefined> {
    const row = await this.db
      .insertInto('host_calendars')
      .values({
        id: `cal_${randomBytes(8).toString('hex')}`,
        key_id: keyId,
        url,
        unlinked_at: null,
        city: city ?? null,
      })
      .onConflict((oc) => oc.columns(['key_id', 'url']).where('unlinked_at', 'is', null).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && camelCased(row);
  }

  async find(id: string): Promise<HostCalendar | undefined> {
    const row = await this.db.selectFrom('host_calendars').selectAll().where('id', '=', id).executeTakeFirst();
    return row && camelCased(row);
  }

  /** The calendars a key has linked now, oldest first; with `keyId` undefined, every key's. */
  async linked(keyId?: string): Promise<HostCalendar[]> {
    let query = this.db.selectFrom('host_calendars').selectAll().where('unlinked_at', 'is', null);
    if (keyId !== undefined) query = query.where('key_id', '=', keyId);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(camelCased);
  }

  /** Unlinks a calendar; the unlinked calendar, or undefined when it was not linked. */
  async unlink(id: string, at: Date): Promise<HostCalendar | undefined> {
    const row = await this.db
      .updateTable('host_calendars')
      .set({ unlinked_at: at })
      .where('id', '=', id)
      .where('unlinked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row && camelCased(row);
  }
}
