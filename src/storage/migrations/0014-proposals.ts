import { type Kysely, sql } from 'kysely';

/**
 * `proposals`: calendars communities proposed and host keys asked for, keyless, waiting for the operator. A calendar's
 * normalised URL is one proposal whatever its state (the unique index). Nothing of who proposed is kept: no address,
 * no contact. `key_id` is the key issued on acceptance; its secret is given out once, at the first status visit
 * after (`key_shown_at`), and never stored in plain text. `moderation_log`: every decision, who made it and why.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE proposals (
      id            text PRIMARY KEY,
      kind          text NOT NULL,
      state         text NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      decided_at    timestamptz,
      reason        text,
      country       text NOT NULL,
      given         text,
      url           text,
      platform      text,
      format        text,
      name          text,
      city          text,
      preview       jsonb,
      organisation  text,
      plans         text,
      website       text,
      key_id        text REFERENCES api_keys (id),
      key_shown_at  timestamptz
    );
    CREATE UNIQUE INDEX proposals_url ON proposals (url) WHERE kind = 'calendar';
    CREATE INDEX proposals_state ON proposals (state, created_at);
    CREATE TABLE moderation_log (
      proposal_id  text NOT NULL REFERENCES proposals (id),
      at           timestamptz NOT NULL DEFAULT now(),
      actor        text NOT NULL,
      action       text NOT NULL,
      reason       text
    );
    CREATE INDEX moderation_log_proposal ON moderation_log (proposal_id, at);
  `.execute(db);
}
