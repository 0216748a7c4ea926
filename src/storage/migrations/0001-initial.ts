import { type Kysely, sql } from 'kysely';

/**
 * The first schema. Plain SQL so the same statements run on PGlite and on PostgreSQL.
 * Nothing is ever destroyed: events cannot be deleted and revisions cannot be changed,
 * enforced by triggers so that no code path (or hand-written SQL) can break the promise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE api_keys (
      id          text PRIMARY KEY,
      name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      country     text NOT NULL CHECK (country IN ('ch', 'de', 'at')),
      secret_hash bytea NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      revoked_at  timestamptz
    );

    CREATE TABLE events (
      id            text PRIMARY KEY,
      owner         text NOT NULL,
      external_id   text,
      source        text NOT NULL,
      country       text NOT NULL CHECK (country IN ('ch', 'de', 'at')),
      title         text NOT NULL,
      description   text,
      start_at      timestamptz NOT NULL,
      end_at        timestamptz,
      all_day       boolean NOT NULL DEFAULT false,
      city          text,
      venue         text,
      format        text NOT NULL CHECK (format IN ('in_person', 'online', 'hybrid')),
      topics        text[] NOT NULL DEFAULT '{}',
      seniority     text[] NOT NULL DEFAULT '{}',
      reg_mode      text NOT NULL CHECK (reg_mode IN ('open', 'invite', 'waitlist')),
      capacity      integer CHECK (capacity > 0),
      price_type    text NOT NULL CHECK (price_type IN ('free', 'paid', 'unknown')),
      price_amount  numeric(12, 2) CHECK (price_amount >= 0),
      currency      text NOT NULL CHECK (currency IN ('CHF', 'EUR')),
      organizer     text NOT NULL,
      url           text,
      source_url    text,
      lat           double precision,
      lng           double precision,
      geo_precision text NOT NULL CHECK (geo_precision IN ('exact', 'city', 'country', 'none')),
      visibility    text NOT NULL CHECK (visibility IN ('public', 'unlisted')),
      lifecycle     text NOT NULL CHECK (lifecycle IN ('listed', 'cancelled')),
      revision      integer NOT NULL DEFAULT 1,
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT events_owner_external_id UNIQUE (owner, external_id),
      CONSTRAINT events_end_after_start CHECK (end_at IS NULL OR end_at >= start_at)
    );
    CREATE INDEX events_owner ON events (owner);
    CREATE INDEX events_upcoming ON events (end_at, start_at) WHERE lifecycle = 'listed';

    CREATE TABLE event_revisions (
      event_id   text NOT NULL REFERENCES events (id),
      revision   integer NOT NULL,
      action     text NOT NULL CHECK (action IN ('create', 'update', 'cancel', 'restore')),
      actor      text NOT NULL,
      snapshot   jsonb NOT NULL,
      submission jsonb,
      at         timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (event_id, revision)
    );

    CREATE FUNCTION refuse_destruction() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% on % is not allowed: nothing is ever destroyed', TG_OP, TG_TABLE_NAME;
    END
    $$;
    CREATE TRIGGER event_revisions_append_only BEFORE UPDATE OR DELETE ON event_revisions
      FOR EACH ROW EXECUTE FUNCTION refuse_destruction();
    CREATE TRIGGER events_never_deleted BEFORE DELETE ON events
      FOR EACH ROW EXECUTE FUNCTION refuse_destruction();

    -- Every change is announced so that every app node's in-memory read index follows it.
    CREATE FUNCTION announce_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('events_changed', NEW.id);
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER events_announce AFTER INSERT OR UPDATE ON events
      FOR EACH ROW EXECUTE FUNCTION announce_event_change();
  `.execute(db);
}
