import type { ColumnType, Generated } from 'kysely';
import type { PlainContent, PlainFieldName } from '../catalogue/event.js';

/** A field name in snake_case, as its column is named ("startTime" → "start_time"). */
type SnakeCase<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}`
  : S;

/** A column name in camelCase, as the repositories' records name it ("last_error" → "lastError"). */
type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
export type CamelCased<T> = { [K in keyof T as CamelCase<K & string>]: T[K] };

/** A row as a record: each column under its name in camelCase, in the row's order. */
export function camelCased<T extends object>(row: T): CamelCased<T> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [column.replace(/_(.)/g, (_, c: string) => c.toUpperCase()), value]),
  ) as CamelCased<T>;
}

/** The columns of the event model's plain fields (catalogue/event.ts). */
type PlainColumns = { [K in PlainFieldName as SnakeCase<K>]: PlainContent[K] };

/** Row types of the tables created by the migrations (snake_case, as in SQL). */
export interface ApiKeysTable {
  id: string;
  name: string;
  country: string;
  secret_hash: Buffer;
  created_at: Generated<Date>;
  revoked_at: Date | null;
  rotated_at: Generated<Date | null>;
  previous_secret_hash: Generated<Buffer | null>;
  previous_secret_until: Generated<Date | null>;
}

export interface EventsTable extends PlainColumns {
  id: string;
  owner: string;
  external_id: string | null;
  source: string;
  country: string;
  title: string;
  description: string | null;
  start_at: Date;
  end_at: Date | null;
  all_day: boolean;
  city: string | null;
  venue: string | null;
  format: string;
  topics: string[];
  seniority: string[];
  reg_mode: string;
  capacity: number | null;
  /** numeric(12,2): read back as a string by pg to keep its exact decimal value. */
  price_amount: ColumnType<string | null, number | string | null, number | string | null>;
  price_type: string;
  currency: string;
  organizer: string;
  url: string | null;
  source_url: string | null;
  lat: number | null;
  lng: number | null;
  geo_precision: string;
  visibility: string;
  cfp_url: string | null;
  cfp_until: string | null;
  lifecycle: string;
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface EventRevisionsTable {
  event_id: string;
  revision: number;
  action: 'create' | 'update' | 'cancel' | 'restore';
  actor: string;
  snapshot: unknown;
  submission: unknown | null;
  at: Generated<Date>;
}

export interface RegistrationsTable {
  id: Generated<number>;
  event_id: string;
  /** Exactly one of key_id and attendee_id holds the RSVP (see migration 0016). */
  key_id: string | null;
  attendee_id: string | null;
  status: 'registered' | 'waitlisted' | 'requested' | 'declined' | 'withdrawn';
  queue_position: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SourceStatusTable {
  source: string;
  format: string;
  url: string | null;
  licence: string | null;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  failures: Generated<number>;
  /** The counts of the last successful run (ImportReport's numbers, plus the feed's URLs and missing ones). */
  last_run: unknown | null;
  seeded_at: Date | null;
  /** pg returns a date column as a Date at local midnight; stored and read as YYYY-MM-DD text through casts. */
  snapshot_of: ColumnType<string | null, string | null, string | null>;
  updated_at: Generated<Date>;
}

export interface SourcePartsTable {
  source: string;
  part: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  /** The last read that brought new content (not a 304, not a failure). */
  last_changed_at: Date | null;
  last_error: string | null;
  failures: Generated<number>;
  empty_reads: Generated<number>;
  last_run: unknown | null;
  /** A digest of the content last read, per-request stamps left out (see migration 0013). */
  content_hash: string | null;
}

export interface HostCalendarsTable {
  id: string;
  key_id: string;
  url: string;
  created_at: Generated<Date>;
  unlinked_at: Date | null;
  /** Where its events are when they do not say (see migration 0013). */
  city: string | null;
}

export interface ProposalsTable {
  id: string;
  kind: 'calendar' | 'key';
  state: 'reading' | 'waiting' | 'accepted' | 'rejected' | 'removed';
  created_at: Generated<Date>;
  decided_at: Date | null;
  reason: string | null;
  country: string;
  /** A calendar's address as proposed, the feed it reads as, its platform and importer format (see migration 0014). */
  given: string | null;
  url: string | null;
  platform: string | null;
  format: string | null;
  name: string | null;
  city: string | null;
  /** The preview of its calendar's read (use-cases/proposals.ts `Preview`); null while reading. */
  preview: unknown | null;
  organisation: string | null;
  plans: string | null;
  website: string | null;
  key_id: string | null;
  key_shown_at: Date | null;
}

export interface ModerationLogTable {
  proposal_id: string;
  at: Generated<Date>;
  actor: string;
  action: 'accept' | 'reject' | 'remove';
  reason: string | null;
}

/** Webhooks (see migration 0015). */
export interface WebhookSubscriptionsTable {
  id: string;
  key_id: string;
  url: string;
  /** The query's parameters as given (the grammar's, validated). */
  query: Record<string, unknown>;
  secret: string;
  /** The secret before the last rotation, signing too until `previous_until`. */
  previous_secret: string | null;
  previous_until: Date | null;
  state: 'active' | 'paused' | 'disabled' | 'deleted';
  state_reason: string | null;
  failing_since: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookChangesTable {
  seq: Generated<number>;
  event_id: string;
  revision: number;
}

export interface WebhookDecisionsTable {
  subscription_id: string;
  event_id: string;
  status: 'matched' | 'cancelled' | 'unmatched';
  fingerprint: string;
  revision: number;
}

export interface WebhookMessagesTable {
  seq: Generated<number>;
  id: string;
  subscription_id: string;
  event_id: string;
  type: string;
  payload: string;
  created_at: Generated<Date>;
  state: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  claimed_until: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

/** Attendees, their passkeys and sessions (see migration 0016): nothing personal is stored. */
export interface AttendeesTable {
  id: string;
  handle: string;
  calendar_token: string;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface PasskeysTable {
  id: string;
  attendee_id: string;
  public_key: Buffer;
  counter: Generated<number>;
  transports: Generated<string[]>;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

export interface AttendeeSessionsTable {
  token_hash: Buffer;
  attendee_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface WebauthnChallengesTable {
  id: string;
  challenge: string;
  purpose: 'register' | 'sign-in';
  expires_at: Date;
}

export interface OAuthModelsTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
}

export interface Database {
  api_keys: ApiKeysTable;
  events: EventsTable;
  event_revisions: EventRevisionsTable;
  registrations: RegistrationsTable;
  source_status: SourceStatusTable;
  source_parts: SourcePartsTable;
  host_calendars: HostCalendarsTable;
  proposals: ProposalsTable;
  moderation_log: ModerationLogTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_changes: WebhookChangesTable;
  webhook_decisions: WebhookDecisionsTable;
  webhook_messages: WebhookMessagesTable;
  attendees: AttendeesTable;
  passkeys: PasskeysTable;
  attendee_sessions: AttendeeSessionsTable;
  webauthn_challenges: WebauthnChallengesTable;
  oauth_models: OAuthModelsTable;
}
