import { type Kysely, sql } from 'kysely';

/**
 * What the OAuth authorization server (oidc-provider, mounted under /oauth) keeps, one table for all its models so
 * that every app node sees the same: registered clients, interactions, grants, codes, access and refresh tokens.
 * `payload` is the model as the library stores it; `grant_id`, `uid` and `user_code` are the keys it looks up by;
 * a row past `expires_at` is gone for it (and deleted later); `consumed_at` marks a code or token used once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE oauth_models (
      model       text NOT NULL,
      id          text NOT NULL,
      payload     jsonb NOT NULL,
      grant_id    text,
      uid         text,
      user_code   text,
      expires_at  timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (model, id)
    );
    CREATE INDEX oauth_models_grant ON oauth_models (grant_id) WHERE grant_id IS NOT NULL;
    CREATE INDEX oauth_models_uid ON oauth_models (model, uid) WHERE uid IS NOT NULL;
    CREATE INDEX oauth_models_user_code ON oauth_models (model, user_code) WHERE user_code IS NOT NULL;
    CREATE INDEX oauth_models_expires ON oauth_models (expires_at) WHERE expires_at IS NOT NULL;
  `.execute(db);
}
