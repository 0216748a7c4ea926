import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { confsTechImporter } from './confs-tech.js';
import { type ImportReport, runImport } from './run-import.js';

/** The shipped curated catalogue: real conferences from confs.tech (MIT), see seed/confs-tech/README.md. */
export const SEED_FILE = new URL('../../seed/confs-tech/dach-2025-2027.json', import.meta.url);
export const CURATED_SOURCE = 'curated';

/** Loads the curated seed into a database that has never had it. Returns undefined when there was nothing to do. */
export async function seedIfEmpty(ctx: AppContext): Promise<ImportReport | undefined> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from events where owner = ${`source:${CURATED_SOURCE}`}`.execute(ctx.storage.db);
  if ((rows[0]?.n ?? 0) > 0) return undefined;
  const report = await runImport(ctx, confsTechImporter, readFileSync(SEED_FILE, 'utf8'), { source: CURATED_SOURCE });
  ctx.logger.info(
    { created: report.created, skipped: report.skipped.length },
    `seeded ${report.created} curated events from confs.tech`,
  );
  for (const s of report.skipped) ctx.logger.warn({ record: s.record }, `seed record skipped: ${s.message}`);
  return report;
}
