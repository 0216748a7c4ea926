import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial.js';

/** Versioned migrations, applied in name order on both engines at start-up. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
