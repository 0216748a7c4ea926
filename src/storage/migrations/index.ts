import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial.js';
import * as registrations from './0002-registrations.js';

/** Versioned migrations, applied in name order on both engines at start-up. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-registrations': registrations,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
