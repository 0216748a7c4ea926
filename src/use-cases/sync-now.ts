import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import { type Feed, isEnabled } from '../importers/feeds.js';
import type { Job } from '../runtime/jobs.js';
import { syncLinkedCalendars } from './calendars.js';
import { syncCommunityCalendars } from './proposals.js';
import { readFeedsFile, type SyncOptions, type SyncResult, syncedFields, syncFeed } from './sync-feeds.js';

/**
 * Every enabled feed in turn, then the calendars hosts linked and the communities' accepted ones (when there are
 * any): what an operator's sync does, telling `report` how far it has come.
 */
export async function syncAll(
  ctx: AppContext,
  feeds: readonly Feed[],
  options: SyncOptions = {},
  report: (progress: Record<string, unknown>) => void = () => {},
): Promise<SyncResult[]> {
  const enabled = feeds.filter(isEnabled);
  report({ feeds: enabled.length, feedsDone: 0, linkedCalendars: 'waiting', communityCalendars: 'waiting' });
  const results: SyncResult[] = [];
  for (const feed of enabled) {
    results.push(await syncFeed(ctx, feed, options));
    report({ feedsDone: results.length });
  }
  report({ linkedCalendars: 'syncing' });
  const linked = await syncLinkedCalendars(ctx, options);
  report({ linkedCalendars: linked.urls, communityCalendars: 'syncing' });
  const community = await syncCommunityCalendars(ctx, options);
  report({ communityCalendars: community.urls });
  return [...results, ...[linked, community].filter((r) => r.urls > 0)];
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

const OPERATOR_SYNC = 'sync';

/**
 * Starts what `POST /api/admin/sync` does in the background and returns its run at once (the run under way, when
 * there is one: runs do not pile up). The feeds file is read first, so a broken one is refused here (`bad-request`).
 * The run's progress and results are readable by its id (see syncRun) while the service runs.
 */
export async function startSync(ctx: AppContext): Promise<{ run: Job<SyncResult[]>; started: boolean }> {
  const running = ctx.jobs.running(OPERATOR_SYNC) as Job<SyncResult[]> | undefined;
  if (running) return { run: running, started: false };
  const { path, named } = ctx.config.feedsFile;
  const feeds = await readFeedsFile(path, !named);
  const run = ctx.jobs.start(OPERATOR_SYNC, async (report, signal) => {
    const all = await syncAll(ctx, feeds, { background: true, signal }, report);
    logOperatorRuns(ctx, all, 'admin-api');
    return all;
  });
  return { run, started: true };
}

/** An operator's sync run by its id, or `not-found` (an unknown id, or one this process has forgotten). */
export function syncRun(ctx: AppContext, id: string): Job<SyncResult[]> {
  const run = ctx.jobs.get(id);
  if (!run || run.kind !== OPERATOR_SYNC) throw new ServiceError('not-found', `No sync run “${id}” on this node.`);
  return run as Job<SyncResult[]>;
}

/**
 * Syncs the feeds of a feeds file and the linked calendars in a serving process, for an operator: `tech-events sync`
 * asking the running service. Each run is logged as the schedule logs its runs, marked as asked for by the operator.
 */
export async function syncFeedsFile(
  ctx: AppContext,
  path: string,
  options: SyncOptions & { optional?: boolean; via: string },
): Promise<SyncResult[]> {
  const { optional, via, ...syncOptions } = options;
  const feeds = await readFeedsFile(path, optional ?? false);
  const results = await syncAll(ctx, feeds, { background: true, ...syncOptions });
  logOperatorRuns(ctx, results, via);
  return results;
}

function logOperatorRuns(ctx: AppContext, results: SyncResult[], via: string): void {
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
}
