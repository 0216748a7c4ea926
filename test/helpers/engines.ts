import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createPostgresDatabase } from './postgres.js';

export type EngineName = 'pglite' | 'postgres';

/** Every suite runs on the embedded engine; on PostgreSQL too when TEST_DATABASE_URL is set. */
export const ENGINES: EngineName[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

/**
 * A new, empty database on the TEST_DATABASE_URL server, so suites never see each other's rows: a copy of the
 * migrated template of the global setup (test/helpers/global-setup.ts).
 */
export function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  return createPostgresDatabase(inject('postgresTemplate'));
}

/**
 * A new temporary data directory for the embedded engine, holding a copy of the migrated template of the global
 * setup: the service opens it as it would its own from an earlier run, without initdb and migrations.
 */
export function createDataDir(prefix = 'tev-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}
