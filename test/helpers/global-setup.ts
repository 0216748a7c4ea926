import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openStorage } from '../../src/storage/database.js';
import { prepareTestBuild } from './built.js';
import { createPostgresDatabase } from './postgres.js';
import { ROOT } from './process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data directory with every migration applied, copied for each new embedded database. */
    pgliteTemplate: string;
    /** A PostgreSQL database with every migration applied, the template of each new test database. */
    postgresTemplate: string;
  }
}

/**
 * Migrates one empty database per engine before any suite starts: a new test database is then a copy of it, instead
 * of PGlite's initdb plus every migration each time a suite opens storage.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  prepareTestBuild(ROOT);
  const pgliteTemplate = mkdtempSync(join(tmpdir(), 'tev-template-'));
  const pglite = await openStorage({ dataDir: pgliteTemplate });
  await pglite.close();
  project.provide('pgliteTemplate', pgliteTemplate);

  let dropPostgres = async () => {};
  if (process.env.TEST_DATABASE_URL) {
    const db = await createPostgresDatabase();
    const postgres = await openStorage({ databaseUrl: db.url, dataDir: pgliteTemplate, poolSize: 1 });
    await postgres.close();
    project.provide('postgresTemplate', db.name);
    dropPostgres = db.drop;
  }
  return async () => {
    rmSync(pgliteTemplate, { recursive: true, force: true });
    await dropPostgres();
  };
}
