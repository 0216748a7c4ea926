import { type Kysely, sql } from 'kysely';

/**
 * RSVPs made through the MCP `rsvp` tool: one row per (event, key), never deleted — a withdrawal is a state.
 * `queue_position` orders the waitlist (a re-registration joins at the end).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE SEQUENCE registrations_queue;
    CREATE TABLE registrations (
      event_id       text NOT NULL REFERENCES events (id),
      key_id         text NOT NULL REFERENCES api_keys (id),
      status         text NOT NULL CHECK (status IN ('registered', 'waitlisted', 'requested', 'withdrawn')),
      queue_position bigint NOT NULL DEFAULT nextval('registrations_queue'),
      created_at     timestamptz NOT NULL DEFAULT now(),
      updated_at     timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (event_id, key_id)
    );
    CREATE INDEX registrations_waitlist ON registrations (event_id, status, queue_position);
    CREATE TRIGGER registrations_never_deleted BEFORE DELETE ON registrations
      FOR EACH ROW EXECUTE FUNCTION refuse_destruction();

    -- Registration counts feed every node's crowd estimates; announce changes like event changes.
    CREATE FUNCTION announce_registration_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('registrations_changed', NEW.event_id);
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER registrations_announce AFTER INSERT OR UPDATE ON registrations
      FOR EACH ROW EXECUTE FUNCTION announce_registration_change();
  `.execute(db);
}
