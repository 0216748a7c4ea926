import type { Kysely } from 'kysely';
import { hashToken, newAttendeeId, newHandle, newSecret } from '../auth/attendee-secrets.js';
import { camelCased, type Database } from './schema.js';

export interface Attendee {
  id: string;
  /** Pseudonymous, shown to hosts beside the attendee's RSVPs. */
  handle: string;
  /** The secret of the private calendar address (`/me/calendar/<token>.ics`). */
  calendarToken: string;
  createdAt: Date;
  deletedAt: Date | null;
}

export interface Passkey {
  /** The credential id, base64url, as WebAuthn gives it. */
  id: string;
  attendeeId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

const HANDLE_TRIES = 8;

/** SQL for attendees, their passkeys, sessions and WebAuthn challenges lives here only. */
export class AttendeesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  withDb(db: Kysely<Database>): AttendeesRepository {
    return new AttendeesRepository(db);
  }

  /**
   * A new attendee with a fresh handle (drawn again on the rare collision); or with the id and handle a passkey
   * ceremony was begun with (its authenticator shows the handle), undefined if that handle was taken meanwhile.
   */
  async create(): Promise<Attendee>;
  async create(chosen: { id: string; handle: string }): Promise<Attendee | undefined>;
  async create(chosen?: { id: string; handle: string }): Promise<Attendee | undefined> {
    for (let attempt = 1; ; attempt++) {
      const row = await this.db
        .insertInto('attendees')
        .values({
          id: chosen?.id ?? newAttendeeId(),
          handle: chosen?.handle ?? newHandle(),
          calendar_token: newSecret(),
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('handle').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (row) return camelCased(row);
      if (chosen) return undefined;
      if (attempt >= HANDLE_TRIES) throw new Error('no free attendee handle after several draws');
    }
  }

  /** An attendee that exists and was not deleted. */
  async find(id: string): Promise<Attendee | undefined> {
    const row = await this.db
      .selectFrom('attendees')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && camelCased(row);
  }

  async findByCalendarToken(token: string): Promise<Attendee | undefined> {
    const row = await this.db
      .selectFrom('attendees')
      .selectAll()
      .where('calendar_token', '=', token)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && camelCased(row);
  }

  /** Handles of attendees by id, for a host's list of RSVPs. */
  async handles(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('attendees').select(['id', 'handle']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.handle]));
  }

  /** A new private calendar address; the old one stops at once. */
  async rotateCalendarToken(id: string): Promise<Attendee | undefined> {
    const row = await this.db
      .updateTable('attendees')
      .set({ calendar_token: newSecret() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row && camelCased(row);
  }

  /** Marks the identity deleted and deletes its passkeys and sessions (its RSVPs are withdrawn by the use case). */
  async markDeleted(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('attendees')
      .set({ deleted_at: new Date(), calendar_token: newSecret() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    await this.db.deleteFrom('attendee_sessions').where('attendee_id', '=', id).execute();
    await this.db.deleteFrom('passkeys').where('attendee_id', '=', id).execute();
    return Number(result.numUpdatedRows) > 0;
  }

  async addPasskey(passkey: Passkey): Promise<void> {
    await this.db
      .insertInto('passkeys')
      .values({
        id: passkey.id,
        attendee_id: passkey.attendeeId,
        public_key: Buffer.from(passkey.publicKey),
        counter: passkey.counter,
        transports: JSON.stringify(passkey.transports) as unknown as string[],
        last_used_at: null,
      })
      .execute();
  }

  async findPasskey(id: string): Promise<Passkey | undefined> {
    const row = await this.db
      .selectFrom('passkeys')
      .innerJoin('attendees', 'attendees.id', 'passkeys.attendee_id')
      .select(['passkeys.id', 'passkeys.attendee_id', 'passkeys.public_key', 'passkeys.counter', 'passkeys.transports'])
      .where('passkeys.id', '=', id)
      .where('attendees.deleted_at', 'is', null)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        attendeeId: row.attendee_id,
        publicKey: new Uint8Array(row.public_key),
        counter: Number(row.counter),
        transports: row.transports,
      }
    );
  }

  /** Records a sign-in with a passkey: its new signature counter. */
  async usePasskey(id: string, counter: number): Promise<void> {
    await this.db.updateTable('passkeys').set({ counter, last_used_at: new Date() }).where('id', '=', id).execute();
  }

  /** Opens a session and returns the only copy of its token. */
  async createSession(attendeeId: string, expiresAt: Date): Promise<string> {
    const token = newSecret();
    await this.db
      .insertInto('attendee_sessions')
      .values({ token_hash: hashToken(token), attendee_id: attendeeId, expires_at: expiresAt })
      .execute();
    return token;
  }

  /** The attendee of a live session, at `now`. */
  async findSession(token: string, now: Date): Promise<Attendee | undefined> {
    const row = await this.db
      .selectFrom('attendee_sessions')
      .innerJoin('attendees', 'attendees.id', 'attendee_sessions.attendee_id')
      .selectAll('attendees')
      .where('attendee_sessions.token_hash', '=', hashToken(token))
      .where('attendee_sessions.expires_at', '>', now)
      .where('attendees.deleted_at', 'is', null)
      .executeTakeFirst();
    return row && camelCased(row);
  }

  async endSession(token: string): Promise<void> {
    await this.db.deleteFrom('attendee_sessions').where('token_hash', '=', hashToken(token)).execute();
  }

  /** Stores a ceremony's challenge under a new random id. */
  async putChallenge(purpose: 'register' | 'sign-in', challenge: string, expiresAt: Date): Promise<string> {
    const id = newSecret();
    await this.db.insertInto('webauthn_challenges').values({ id, challenge, purpose, expires_at: expiresAt }).execute();
    return id;
  }

  /** Takes a challenge once: a second use, another purpose or a late one finds nothing. */
  async takeChallenge(id: string, purpose: 'register' | 'sign-in', now: Date): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('webauthn_challenges')
      .where('id', '=', id)
      .returning(['challenge', 'purpose', 'expires_at'])
      .executeTakeFirst();
    await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    return row && row.purpose === purpose && row.expires_at > now ? row.challenge : undefined;
  }
}
