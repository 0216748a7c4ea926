import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import { type Feed, FeedsFileError, loadFeeds } from '../importers/feeds.js';
import { syncLinkedCalendars } from './calendars.js';
import { runSync, type SyncOptions, type SyncResult, syncedFields } from './sync-feeds.js';

/** Every enabled feed in turn, then the calendars hosts linked (when there are any): what an operator's sync does. */
export async function syncAll(
  ctx: AppContext,
  feeds: readonly Feed[],
  options: SyncOptions = {},
): Promise<SyncResult[]> {
  const results = await runSync(ctx, feeds, options);
  const linked = await syncLinkedCalendars(ctx, options);
  return linked.urls > 0 ? [...results, linked] : results;
}

/** Logs the calendars of a run that failed or have gone, by name: their events stay as they were. */
export function logFailingCalendars(ctx: AppContext, result: SyncResult, fields: Record<string, unknown> = {}): void {
  const source = result.feed.source;
  for (const calendar of result.calendars ?? []) {
    if (calendar.outcome !== 'failed' && calendar.outcome !== 'gone') continue;
    ctx.logger.warn(
      { source, calendar: calendar.target.part, error: calendar.error, ...fields },
      `calendar ${calendar.target.part} of ${source} ${calendar.outcome === 'gone' ? 'is gone' : 'failed'}; its events stay as they were`,
    );
  }
}

/**
 * Syncs the feeds of the configured feeds file as it is now (an operator may have edited it since start-up), each
 * enabled one in turn, and the linked calendars: what `POST /api/admin/sync` does.
 */
export function syncConfiguredFeeds(ctx: AppContext, options: SyncOptions = {}): Promise<SyncResult[]> {
  const { path, named } = ctx.config.feedsFile;
  return syncFeedsFile(ctx, path, { optional: !named, via: 'admin-api', ...options });
}

/**
 * Syncs the feeds of a feeds file and the linked calendars in a serving process, for an operator: through the admin
 * API, or `tech-events sync` asking the running service. Each run is logged as the schedule logs its runs, marked as
 * asked for by the operator.
 */
export async function syncFeedsFile(
  ctx: AppContext,
  path: string,
  options: SyncOptions & { optional?: boolean; via: string },
): Promise<SyncResult[]> {
  const { optional, via, ...syncOptions } = options;
  const feeds = await loadFeeds(path, { optional }).catch((error: unknown) => {
    throw error instanceof FeedsFileError ? new ServiceError('bad-request', error.message) : error;
  });
  const results = await syncAll(ctx, feeds, { background: true, ...syncOptions });
  for (const result of results) {
    const source = result.feed.source;
    if (result.error !== undefined) {
      ctx.logger.warn(
        { source, by: 'operator', via, error: result.error },
        `feed ${source} failed; serving its last good state`,
      );
      continue;
    }
    ctx.logger.info({ ...syncedFields(result), by: 'operator', via }, `feed ${source} synced`);
    for (const s of result.report!.skipped) ctx.logger.warn({ source, record: s.record }, `skipped: ${s.message}`);
    logFailingCalendars(ctx, result, { by: 'operator', via });
  }
  return results;
}
