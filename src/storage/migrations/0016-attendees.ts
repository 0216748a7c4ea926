import { type Kysely, sql } from 'kysely';

/**
 * Attendees (docs/architecture.md, Attendees): a person known only by a random id, a pseudonymous `handle` hosts
 * see, the passkeys they sign in with and their sessions. Nothing personal: no e-mail, name or address.
 * `calendar_token`: the secret of their private iCal address, rotatable. A deleted identity keeps its row
 * (`deleted_at`) so its withdrawn RSVPs still point somewhere; its passkeys and sessions are deleted.
 * `webauthn_challenges`: one challenge per ceremony, taken once.
 * `registrations` is now held by a host key or an attendee (exactly one), and a host may decline a request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE attendees (
      id             text PRIMARY KEY,
      handle         text NOT NULL UNIQUE,
      calendar_token text NOT NULL UNIQUE,
      created_at     timestamptz NOT NULL DEFAULT now(),
      deleted_at     timestamptz
    );

    CREATE TABLE passkeys (
      id           text PRIMARY KEY,
      attendee_id  text NOT NULL REFERENCES attendees (id),
      public_key   bytea NOT NULL,
      counter      bigint NOT NULL DEFAULT 0,
      transports   jsonb NOT NULL DEFAULT '[]',
      created_at   timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    );
    CREATE INDEX passkeys_attendee ON passkeys (attendee_id);

    CREATE TABLE attendee_sessions (
      token_hash  bytea PRIMARY KEY,
      attendee_id text NOT NULL REFERENCES attendees (id),
      created_at  timestamptz NOT NULL DEFAULT now(),
      expires_at  timestamptz NOT NULL
    );
    CREATE INDEX attendee_sessions_attendee ON attendee_sessions (attendee_id);

    CREATE TABLE webauthn_challenges (
      id         text PRIMARY KEY,
      challenge  text NOT NULL,
      purpose    text NOT NULL CHECK (purpose IN ('register', 'sign-in')),
      expires_at timestamptz NOT NULL
    );

    ALTER TABLE registrations DROP CONSTRAINT registrations_pkey;
    ALTER TABLE registrations ALTER COLUMN key_id DROP NOT NULL;
    ALTER TABLE registrations ADD COLUMN attendee_id text REFERENCES attendees (id);
    ALTER TABLE registrations ADD COLUMN id bigserial PRIMARY KEY;
    ALTER TABLE registrations ADD CONSTRAINT registrations_one_holder CHECK (num_nonnulls(key_id, attendee_id) = 1);
    ALTER TABLE registrations ADD CONSTRAINT registrations_by_key UNIQUE (event_id, key_id);
    ALTER TABLE registrations ADD CONSTRAINT registrations_by_attendee UNIQUE (event_id, attendee_id);
    CREATE INDEX registrations_attendee ON registrations (attendee_id) WHERE attendee_id IS NOT NULL;
    ALTER TABLE registrations DROP CONSTRAINT registrations_status_check;
    ALTER TABLE registrations ADD CONSTRAINT registrations_status_check
      CHECK (status IN ('registered', 'waitlisted', 'requested', 'declined', 'withdrawn'));
  `.execute(db);
}
