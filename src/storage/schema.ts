import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables created by the migrations (snake_case, as in SQL). */
export interface ApiKeysTable {
  id: string;
  name: string;
  country: string;
  secret_hash: Buffer;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export interface EventsTable {
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
  event_id: string;
  key_id: string;
  status: 'registered' | 'waitlisted' | 'requested' | 'withdrawn';
  queue_position: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface Database {
  api_keys: ApiKeysTable;
  events: EventsTable;
  event_revisions: EventRevisionsTable;
  registrations: RegistrationsTable;
}
