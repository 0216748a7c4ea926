import { type Kysely, sql } from 'kysely';

/**
 * Webhooks (docs/architecture.md, Webhooks). `webhook_subscriptions`: a key's target and query, kept when deleted.
 * `webhook_changes`: the outbox's queue, filled by a trigger on `event_revisions` in the transaction of the write
 * itself, so no write path can forget it and a crash loses nothing; only while some subscription is active.
 * `webhook_decisions`: whether each event last matched each subscription, so matched/updated/unmatched follow.
 * `webhook_messages`: what is sent, its `id` the `webhook-id` of every attempt, with the state of its delivery.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_subscriptions (
      id              text PRIMARY KEY,
      key_id          text NOT NULL REFERENCES api_keys (id),
      url             text NOT NULL,
      query           jsonb NOT NULL,
      secret          text NOT NULL,
      previous_secret text,
      previous_until  timestamptz,
      state           text NOT NULL CHECK (state IN ('active', 'paused', 'disabled', 'deleted')),
      state_reason    text,
      failing_since   timestamptz,
      created_at      timestamptz NOT NULL DEFAULT now(),
      updated_at      timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_subscriptions_key ON webhook_subscriptions (key_id, created_at);

    CREATE TABLE webhook_changes (
      seq      bigserial PRIMARY KEY,
      event_id text NOT NULL,
      revision integer NOT NULL
    );

    CREATE TABLE webhook_decisions (
      subscription_id text NOT NULL REFERENCES webhook_subscriptions (id),
      event_id        text NOT NULL,
      status          text NOT NULL CHECK (status IN ('matched', 'cancelled', 'unmatched')),
      fingerprint     text NOT NULL,
      revision        integer NOT NULL,
      PRIMARY KEY (subscription_id, event_id)
    );

    CREATE TABLE webhook_messages (
      seq             bigserial UNIQUE,
      id              text PRIMARY KEY,
      subscription_id text NOT NULL REFERENCES webhook_subscriptions (id),
      event_id        text NOT NULL,
      type            text NOT NULL,
      payload         text NOT NULL,
      created_at      timestamptz NOT NULL DEFAULT now(),
      state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
      attempts        integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      claimed_until   timestamptz,
      last_attempt_at timestamptz,
      last_status     integer,
      last_error      text,
      delivered_at    timestamptz
    );
    CREATE INDEX webhook_messages_due ON webhook_messages (next_attempt_at) WHERE state = 'pending';
    CREATE INDEX webhook_messages_order ON webhook_messages (subscription_id, event_id, seq) WHERE state = 'pending';
    CREATE INDEX webhook_messages_recent ON webhook_messages (subscription_id, seq);

    CREATE FUNCTION queue_webhook_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM webhook_subscriptions WHERE state = 'active') THEN
        INSERT INTO webhook_changes (event_id, revision) VALUES (NEW.event_id, NEW.revision);
        PERFORM pg_notify('webhooks', '');
      END IF;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER event_revisions_queue_webhooks AFTER INSERT ON event_revisions
      FOR EACH ROW EXECUTE FUNCTION queue_webhook_change();
  `.execute(db);
}
