import type { AppContext } from '../context.js';
import { type Feed, isEnabled } from '../importers/feeds.js';
import { LINKED_CALENDARS, syncLinkedCalendars } from './calendars.js';
import { COMMUNITY_CALENDARS, syncCommunityCalendars } from './proposals.js';
import { type SyncOptions, type SyncResult, syncedFields, syncFeed } from './sync-feeds.js';
import { logFailingCalendars } from './sync-now.js';

export interface ScheduleOptions {
  /** Minutes between two syncs of a feed that works. */
  intervalMinutes: number;
  /** Minutes before the first retry of a failing feed; each further failure doubles it, up to the interval. */
  retryMinutes?: number;
  /** Before the first run (default: at once, in the background). */
  firstDelayMs?: number;
  /** Per URL; see SyncOptions. */
  timeoutMs?: number;
  /** Sees the result of every run. */
  onRun?: (result: SyncResult) => void;
  /** Start from the sources' state (recent feeds wait, failing ones back off), so restarts do not read all at once. */
  resume?: boolean;
  /**
   * Also sync the calendars hosts linked (POST /api/calendars) and the communities' accepted calendars (see
   * proposals.ts), after the feeds (default true).
   */
  linkedCalendars?: boolean;
}

export interface FeedSchedule {
  /** When each feed runs next (ms since the epoch), for tests and diagnostics. */
  nextRuns(): ReadonlyMap<string, number>;
  /** Stops the timer and any download under way, and waits for a run in progress to end. */
  stop(): Promise<void>;
}

interface FeedState {
  feed: Feed;
  run: (options: SyncOptions) => Promise<SyncResult>;
  nextAt: number;
  failures: number;
  /** The error last logged at warn level: a feed failing the same way again is not logged again. */
  loggedError?: string;
  /** Skipped records already logged, so a sync every few hours does not repeat them. */
  loggedSkips: Set<string>;
}

/** The wait after the n-th failure in a row: retry, 2 × retry, 4 × retry… never longer than the interval. */
export function backoffMinutes(failures: number, retryMinutes: number, intervalMinutes: number): number {
  return Math.min(intervalMinutes, retryMinutes * 2 ** Math.max(0, failures - 1));
}

/**
 * Syncs enabled feeds in the background, one after another: at once (start-up never waits on the network), then every
 * `intervalMinutes`, failing feeds sooner with backoff. The timer does not keep the process alive.
 */
export function startFeedSchedule(ctx: AppContext, feeds: readonly Feed[], options: ScheduleOptions): FeedSchedule {
  const { intervalMinutes } = options;
  const retryMinutes = Math.min(options.retryMinutes ?? RETRY_MINUTES, intervalMinutes);
  const start = Date.now() + (options.firstDelayMs ?? 0);
  const states = feedStates(ctx, feeds, options.linkedCalendars !== false, start);
  // A little later than the interval, never sooner: nodes and restarts that began together drift apart.
  const afterInterval = () => Date.now() + intervalMinutes * 60_000 * (1 + Math.random() * 0.1);
  const abort = new AbortController();
  const syncOptions: SyncOptions = { signal: abort.signal, timeoutMs: options.timeoutMs, background: true };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const runDue = async () => {
    for (const state of states) {
      if (stopped) return;
      if (state.nextAt > Date.now()) continue;
      const result = await state.run(syncOptions);
      if (stopped) return;
      recordRun(ctx, state, result, { retryMinutes, intervalMinutes, afterInterval });
      if (!isCollection(result.feed) || result.urls > 0) options.onRun?.(result);
    }
  };

  const schedule = () => {
    if (stopped || states.length === 0) return;
    const next = Math.min(...states.map((s) => s.nextAt));
    timer = setTimeout(
      () => {
        running = runDue()
          .catch((error: unknown) => ctx.logger.error({ err: error }, 'feed sync failed'))
          .finally(() => {
            running = undefined;
            schedule();
          });
      },
      // setTimeout takes at most 2^31 - 1 ms (24.8 days); a longer wait simply wakes early and waits again.
      Math.min(2 ** 31 - 1, Math.max(0, next - Date.now())),
    );
    timer.unref();
  };
  const resumed = options.resume ? resume(ctx, states, retryMinutes, intervalMinutes) : Promise.resolve();
  void resumed.then(schedule);

  return {
    nextRuns: () => new Map(states.map((s) => [s.feed.source, s.nextAt])),
    async stop() {
      stopped = true;
      await resumed;
      if (timer) clearTimeout(timer);
      abort.abort();
      await running;
    },
  };
}

/** A state per enabled feed, and the hosts' linked calendars after them when asked, each due at `start`. */
function feedStates(ctx: AppContext, feeds: readonly Feed[], linkedCalendars: boolean, start: number): FeedState[] {
  const state = (feed: Feed, run: FeedState['run']): FeedState => ({
    feed,
    run,
    nextAt: start,
    failures: 0,
    loggedSkips: new Set(),
  });
  const states = feeds.filter(isEnabled).map((feed) => state(feed, (options) => syncFeed(ctx, feed, options)));
  if (linkedCalendars) {
    states.push(state(LINKED_CALENDARS, (options) => syncLinkedCalendars(ctx, options)));
    states.push(state(COMMUNITY_CALENDARS, (options) => syncCommunityCalendars(ctx, options)));
  }
  return states;
}

/** The calendars kept in the database rather than the feeds file: a run without any is nothing to tell. */
const isCollection = (feed: Feed) => feed === LINKED_CALENDARS || feed === COMMUNITY_CALENDARS;

/** Logs a run once per change of outcome (failure, recovery, skipped records) and sets when the feed runs next. */
function recordRun(
  ctx: AppContext,
  state: FeedState,
  result: SyncResult,
  timing: { retryMinutes: number; intervalMinutes: number; afterInterval: () => number },
): void {
  const source = state.feed.source;
  if (result.error !== undefined) {
    state.failures++;
    const retryIn = backoffMinutes(state.failures, timing.retryMinutes, timing.intervalMinutes);
    const fields = { source, failures: state.failures, retryInMinutes: retryIn };
    if (state.loggedError !== result.error) {
      ctx.logger.warn({ ...fields, error: result.error }, `feed ${source} failed; serving its last good state`);
      state.loggedError = result.error;
    } else ctx.logger.debug(fields, `feed ${source} failed again`);
    // A source that asked us to wait longer (Retry-After) is not asked sooner.
    state.nextAt = Date.now() + Math.max(retryIn * 60_000, result.retryAfterMs ?? 0);
    return;
  }
  state.nextAt = timing.afterInterval();
  if (isCollection(result.feed) && result.urls === 0) return;
  const recovered = state.failures > 0 ? ` (working again after ${state.failures} failed runs)` : '';
  ctx.logger.info(syncedFields(result), `feed ${source} synced${recovered}`);
  for (const s of result.report!.skipped) {
    const key = `${s.record}\n${s.message}`;
    if (state.loggedSkips.has(key)) continue;
    state.loggedSkips.add(key);
    ctx.logger.warn({ source, record: s.record }, `skipped: ${s.message}`);
  }
  logFailingCalendars(ctx, result);
  state.failures = 0;
  state.loggedError = undefined;
}

/** Moves each feed's first run to when its state says it is due (see ScheduleOptions.resume). */
async function resume(ctx: AppContext, states: FeedState[], retryMinutes: number, intervalMinutes: number) {
  const known = new Map((await ctx.sources.list().catch(() => [])).map((s) => [s.source, s]));
  for (const state of states) {
    const status = known.get(state.feed.source);
    const next = nextTryAfter(status, retryMinutes, intervalMinutes);
    if (next === undefined || !status) continue;
    state.failures = status.failures;
    state.nextAt = Math.max(state.nextAt, next);
  }
}

/**
 * When the service's schedule tries a feed next (ms since the epoch), from its recorded state: undefined when the
 * schedule is off, or before any attempt (it is tried at start-up).
 */
export function scheduledNextTry(
  status: { lastAttemptAt: Date | null; failures: number } | undefined,
  intervalMinutes: number,
): number | undefined {
  return intervalMinutes > 0 ? nextTryAfter(status, RETRY_MINUTES, intervalMinutes) : undefined;
}

/** The first retry of a failing feed (SYNC_INTERVAL_MINUTES aside): see backoffMinutes. */
export const RETRY_MINUTES = 1;

/**
 * When a feed is tried again after the attempt its state records (ms since the epoch): a working one after the
 * interval, a failing one after its backoff; undefined before any attempt (it is tried at start-up). The schedule
 * adds a little jitter, so this is the earliest.
 */
export function nextTryAfter(
  status: { lastAttemptAt: Date | null; failures: number } | undefined,
  retryMinutes: number,
  intervalMinutes: number,
): number | undefined {
  if (!status?.lastAttemptAt) return undefined;
  const wait = status.failures > 0 ? backoffMinutes(status.failures, retryMinutes, intervalMinutes) : intervalMinutes;
  return status.lastAttemptAt.getTime() + wait * 60_000;
}
