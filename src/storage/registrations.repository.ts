import { type Kysely, sql } from 'kysely';
import type { Holder } from '../catalogue/holder.js';
import type { Database, RegistrationsTable } from './schema.js';

export type RegistrationStatus = RegistrationsTable['status'];

export interface Registration {
  eventId: string;
  holder: Holder;
  status: RegistrationStatus;
  queuePosition: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface RegistrationCounts {
  registered: number;
  waitlisted: number;
  requested: number;
}

function toRegistration(row: {
  event_id: string;
  key_id: string | null;
  attendee_id: string | null;
  status: RegistrationStatus;
  queue_position: number | string;
  created_at: Date;
  updated_at: Date;
}): Registration {
  return {
    eventId: row.event_id,
    holder:
      row.key_id !== null ? { kind: 'key', keyId: row.key_id } : { kind: 'attendee', attendeeId: row.attendee_id! },
    status: row.status,
    queuePosition: Number(row.queue_position),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** SQL for registrations lives here only. Callers lock the event row first, so counts cannot race. */
export class RegistrationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  withDb(db: Kysely<Database>): RegistrationsRepository {
    return new RegistrationsRepository(db);
  }

  async find(eventId: string, holder: Holder): Promise<Registration | undefined> {
    const row = await this.db
      .selectFrom('registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where(...holderColumn(holder))
      .executeTakeFirst();
    return row && toRegistration(row);
  }

  /** Sets a holder's state for an event; a new (re)registration joins the end of the queue. */
  async put(eventId: string, holder: Holder, status: RegistrationStatus, requeue: boolean): Promise<Registration> {
    const [column, , id] = holderColumn(holder);
    const row = await this.db
      .insertInto('registrations')
      .values({ event_id: eventId, key_id: null, attendee_id: null, [column]: id, status })
      .onConflict((oc) =>
        oc.columns(['event_id', column]).doUpdateSet({
          status,
          updated_at: new Date(),
          ...(requeue ? { queue_position: sql<number>`nextval('registrations_queue')` } : {}),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRegistration(row);
  }

  async counts(eventId: string): Promise<RegistrationCounts> {
    return (await this.countsFor([eventId])).get(eventId) ?? { registered: 0, waitlisted: 0, requested: 0 };
  }

  async countsFor(eventIds: readonly string[]): Promise<Map<string, RegistrationCounts>> {
    const out = new Map<string, RegistrationCounts>();
    if (eventIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('registrations')
      .select(['event_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('event_id', 'in', eventIds)
      .where('status', 'in', ['registered', 'waitlisted', 'requested'])
      .groupBy(['event_id', 'status'])
      .execute();
    for (const row of rows) {
      const counts = out.get(row.event_id) ?? { registered: 0, waitlisted: 0, requested: 0 };
      counts[row.status as keyof RegistrationCounts] = Number(row.n);
      out.set(row.event_id, counts);
    }
    return out;
  }

  /** Registered + waitlisted per event, for every event that has any (start-up of the read index). */
  async attendanceAll(): Promise<[string, number][]> {
    const rows = await this.db
      .selectFrom('registrations')
      .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ['registered', 'waitlisted'])
      .groupBy('event_id')
      .execute();
    return rows.map((r) => [r.event_id, Number(r.n)]);
  }

  /** Every RSVP of an event but withdrawn ones, in queue order (a host's list). */
  async ofEvent(eventId: string): Promise<Registration[]> {
    const rows = await this.db
      .selectFrom('registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('status', '!=', 'withdrawn')
      .orderBy('queue_position')
      .execute();
    return rows.map(toRegistration);
  }

  /** Every RSVP a holder has made, withdrawn ones included, newest first (an attendee's own view). */
  async ofHolder(holder: Holder): Promise<Registration[]> {
    const rows = await this.db
      .selectFrom('registrations')
      .selectAll()
      .where(...holderColumn(holder))
      .orderBy('updated_at', 'desc')
      .execute();
    return rows.map(toRegistration);
  }

  /** The waitlisted holder that has waited longest. */
  async firstWaitlisted(eventId: string): Promise<Registration | undefined> {
    const row = await this.db
      .selectFrom('registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('status', '=', 'waitlisted')
      .orderBy('queue_position')
      .limit(1)
      .executeTakeFirst();
    return row && toRegistration(row);
  }

  /** The first `limit` waitlisted holders (all without a limit), longest waiting first: the next to promote. */
  async waitlisted(eventId: string, limit?: number): Promise<Registration[]> {
    let query = this.db
      .selectFrom('registrations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('status', '=', 'waitlisted')
      .orderBy('queue_position');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map(toRegistration);
  }

  /**
   * The holder a host's list names by `handle`, among this event's RSVPs: `key:<keyId>` for a key, else an
   * attendee's handle.
   */
  async holderOfHandle(eventId: string, handle: string): Promise<Holder | undefined> {
    if (handle.startsWith('key:')) {
      const holder: Holder = { kind: 'key', keyId: handle.slice(4) };
      return (await this.find(eventId, holder)) ? holder : undefined;
    }
    const row = await this.db
      .selectFrom('registrations')
      .innerJoin('attendees', 'attendees.id', 'registrations.attendee_id')
      .select('registrations.attendee_id')
      .where('registrations.event_id', '=', eventId)
      .where('attendees.handle', '=', handle)
      .executeTakeFirst();
    return row?.attendee_id ? { kind: 'attendee', attendeeId: row.attendee_id } : undefined;
  }

  /** 1-based place on the waitlist. */
  async waitlistPlace(eventId: string, queuePosition: number): Promise<number> {
    const row = await this.db
      .selectFrom('registrations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_id', '=', eventId)
      .where('status', '=', 'waitlisted')
      .where('queue_position', '<=', queuePosition)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function holderColumn(holder: Holder): ['key_id' | 'attendee_id', '=', string] {
  return holder.kind === 'key' ? ['key_id', '=', holder.keyId] : ['attendee_id', '=', holder.attendeeId];
}
