import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppContext } from '../context.js';
import { type Feed, isEnabled } from '../importers/feeds.js';
import { importerFor } from '../importers/registry.js';
import { type ImportReport, runImport } from './import-records.js';

/** The shipped confs.tech snapshot (MIT, see seed/confs-tech/README.md), also the relevance evaluation's `curated`. */
export const SEED_FILE = new URL('../../seed/confs-tech/dach-2025-2027.json', import.meta.url);
export const CURATED_SOURCE = 'curated';

/** What scripts/build-seed.ts writes beside a seed: its data's origin and date (optional). */
export interface SnapshotInfo {
  source: string;
  /** The date of the upstream data (its newest commit, or the day it was downloaded). */
  of: string;
  repository?: string;
  commit?: string;
  licence?: string;
  rows?: number;
}

export function snapshotInfo(seedFile: string): SnapshotInfo | undefined {
  const path = join(dirname(seedFile), 'snapshot.json');
  if (!existsSync(path)) return undefined;
  const info = JSON.parse(readFileSync(path, 'utf8')) as SnapshotInfo;
  return /^\d{4}-\d{2}-\d{2}$/.test(info.of ?? '') ? info : undefined;
}

/**
 * Loads each enabled feed's shipped snapshot into a database with no event of its source, so a fresh install lists
 * real events before its first sync; keyed as the feed keys them, so the first sync updates them in place.
 */
export async function seedFromFeeds(ctx: AppContext, feeds: readonly Feed[]): Promise<ImportReport[]> {
  const reports: ImportReport[] = [];
  for (const feed of feeds) {
    if (!isEnabled(feed) || !feed.seed || (await ctx.events.anyOwnedBy(`source:${feed.source}`))) continue;
    const importer = importerFor(feed.format)!;
    const report = await runImport(ctx, importer, readFileSync(feed.seed, 'utf8'), {
      source: feed.source,
      defaultCountry: feed.country,
      inputName: feed.seed,
    });
    const snapshot = snapshotInfo(feed.seed);
    await ctx.sources.recordSeed({
      source: feed.source,
      format: feed.format,
      licence: feed.licence,
      at: ctx.now(),
      snapshotOf: snapshot?.of,
    });
    ctx.logger.info(
      { source: feed.source, created: report.created, skipped: report.skipped.length, snapshotOf: snapshot?.of },
      `seeded ${report.created} events of ${feed.source} from its shipped snapshot`,
    );
    for (const s of report.skipped)
      ctx.logger.warn({ source: feed.source, record: s.record }, `seed record skipped: ${s.message}`);
    reports.push(report);
  }
  return reports;
}
