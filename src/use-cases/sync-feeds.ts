import { ServiceError } from '../catalogue/errors.js';
import { sourceOwner } from '../catalogue/event.js';
import type { AppContext } from '../context.js';
import { type Feed, type FeedPart, feedParts, loadFeeds, partCountry } from '../importers/feeds.js';
import type { Validators } from '../importers/http-reader.js';
import {
  type ImportedRecord,
  type Importer,
  type ParseResult,
  type RecordError,
  unusableInput,
} from '../importers/importer.js';
import { FeedsFileError } from '../importers/input-error.js';
import { importerFor, readInput, userAgentOf } from '../importers/registry.js';
import { SOURCES_STATE } from '../runtime/remembered.js';
import { validatorsOf } from '../storage/source-parts.repository.js';
import type { RunCounts } from '../storage/sources.repository.js';
import { backgroundPacer, type ImportProgress, type ImportReport, runCounts, storeRecords } from './import-records.js';
import { inParallel } from './in-turn.js';
import {
  type CalendarRun,
  type CalendarTarget,
  calendarIdPrefix,
  retireOrphans,
  sumReports,
  syncCalendars,
} from './sync-calendars.js';

export { loadFeeds };

/** Downloads of one feed at a time: enough to read confs.tech's ~80 small files quickly, polite to their host. */
const CONCURRENCY = 4;

export interface SyncOptions {
  /** Per URL (default 30 s). */
  timeoutMs?: number;
  /** Stops downloads under way (the service shutting down); the feed then fails and changes nothing. */
  signal?: AbortSignal;
  onProgress?: (feed: Feed, progress: SyncProgress) => void;
  /** In a process that serves reads: store so that reads go on (see ImportOptions.background). */
  background?: boolean;
}

export type SyncProgress = { phase: 'reading'; done: number; total: number } | ({ phase: 'storing' } & ImportProgress);

export interface SyncResult {
  feed: Feed;
  /** When the run started. */
  at: Date;
  /** How many URLs the feed read, and how many of them did not exist. */
  urls: number;
  missing: number;
  /** Present when the feed was read and imported (possibly with skipped records): for calendars, their sum. */
  report?: ImportReport;
  /** True when every URL answered 304 Not Modified: nothing was imported, nothing changed. */
  notModified?: boolean;
  /** A feed of calendars: each one's run (see sync-calendars.ts). */
  calendars?: CalendarRun[];
  /** Why the feed could not be read or stored at all; nothing of its source was changed. */
  error?: string;
  /** How long the source asked to be left alone (429/503 with Retry-After), when that failed the run. */
  retryAfterMs?: number;
}

/** "conferences/2026/data.json" → "2026/data.json": enough to tell a feed's files apart in messages. */
const shortName = (url: string) => url.split(/[/\\]/).slice(-2).join('/');

/** Several parts as one input: a record in several parts is one, with the topic hints of all. */
function mergeParts(parts: { url: string; parsed: ParseResult }[]): ParseResult {
  if (parts.length === 1) return parts[0]!.parsed;
  const records = new Map<string, ImportedRecord>();
  const errors: RecordError[] = [];
  for (const { url, parsed } of parts) {
    for (const e of parsed.errors) errors.push({ ...e, record: `${shortName(url)} ${e.record}` });
    for (const record of parsed.records) {
      const first = records.get(record.sourceId);
      if (!first) records.set(record.sourceId, record);
      else if (record.topicHints?.length)
        first.topicHints = [...new Set([...(first.topicHints ?? []), ...record.topicHints])];
    }
  }
  return { records: [...records.values()], errors };
}

class FeedError extends Error {}

/** One URL of a data set as read: its text, `undefined` when it does not exist, or `not-modified` (304). */
type PartText = string | undefined | 'not-modified';

/**
 * Reads a feed's URLs a few at a time, conditionally. A missing URL (404) is an empty part when the feed has several
 * (a topic without events that year); any other failure stops the feed.
 */
async function readParts(
  ctx: AppContext,
  feed: Feed,
  urls: string[],
  options: SyncOptions,
  validators: ReadonlyMap<string, Validators>,
  served: Map<string, Validators>,
): Promise<PartText[]> {
  const texts: PartText[] = new Array(urls.length);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let done = 0;
  let failure: unknown;
  const readOne = async (i: number) => {
    const url = urls[i]!;
    try {
      const text = await readInput(url, {
        timeoutMs: options.timeoutMs,
        signal,
        reader: ctx.httpReader,
        userAgent: userAgentOf(ctx.config.baseUrl),
        validators: validators.get(url) ?? {},
        onValidators: (v) => served.set(url, v),
      });
      texts[i] = text ?? 'not-modified';
    } catch (error) {
      if (urls.length > 1 && (error as { notFound?: boolean }).notFound === true) texts[i] = undefined;
      else if (failure === undefined) {
        failure = error;
        stop.abort();
      }
    }
    options.onProgress?.(feed, { phase: 'reading', done: ++done, total: urls.length });
  };
  await inParallel(urls.length, CONCURRENCY, readOne, () => failure !== undefined);
  if (failure !== undefined) throw failure;
  return texts;
}

/** Syncs one feed: calendars (iCal) each on its own, other feeds as one data set, all or nothing; records the run. */
export async function syncFeed(ctx: AppContext, feed: Feed, options: SyncOptions = {}): Promise<SyncResult> {
  const at = ctx.now();
  const parts = feedParts(feed, at);
  const result: SyncResult = { feed, at, urls: parts.length, missing: 0 };
  try {
    const importer = importerFor(feed.format);
    if (!importer) throw new FeedError(`unknown format "${feed.format}"`);
    if (importer.calendar) await syncCalendarFeed(ctx, feed, importer, parts, result, options);
    else await syncDataSet(ctx, feed, importer, parts, result, options);
  } catch (error) {
    result.error = (error as Error).message;
    const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs;
    if (retryAfter !== undefined) result.retryAfterMs = retryAfter;
  }
  // A run cut short by the service stopping says nothing about the source.
  if (!options.signal?.aborted) {
    ctx.metrics?.syncRuns.inc({ source: feed.source, outcome: result.error === undefined ? 'ok' : 'failed' });
    await recordRun(ctx, result).catch((error: unknown) =>
      ctx.logger.warn({ err: error, source: feed.source }, 'could not record the state of the source'),
    );
  }
  return result;
}

/**
 * A data set in several files, read, merged and imported as its source's complete state; all 304 imports nothing,
 * and any failure leaves the source exactly as it was.
 */
async function syncDataSet(
  ctx: AppContext,
  feed: Feed,
  importer: Importer,
  parts: FeedPart[],
  result: SyncResult,
  options: SyncOptions,
): Promise<void> {
  const { at } = result;
  const urls = parts.map((p) => p.url);
  const served = new Map<string, Validators>();
  const texts = await readDataSet(ctx, feed, urls, result, options, served);
  if (!texts) return;
  const read = await parseDataSet(feed, importer, urls, texts, at, options);
  const templates = Array.isArray(feed.url) ? feed.url : [feed.url];
  result.report = await storeRecords(ctx, importer, mergeParts(read), {
    source: feed.source,
    cancelMissing: true,
    // Files by year cover events from 1 January of the first year they read.
    cancelMissingFrom: templates.some((u) => u.includes('{year}'))
      ? new Date(Date.UTC(at.getUTCFullYear(), 0, 1))
      : undefined,
    defaultCountry: feed.country,
    onProgress: options.onProgress && ((p) => options.onProgress!(feed, { phase: 'storing', ...p })),
    background: options.background,
  });
  // Only once the import stands: a file whose validators were kept without its content imported would be
  // answered 304 next time, and never imported.
  for (const [url, validators] of served)
    await ctx.sourceParts.record({
      source: feed.source,
      part: url,
      url,
      at,
      changed: { ...validators, emptyReads: 0, counts: runCounts(result.report) },
    });
}

/** The text of every file of the set (undefined where missing), or undefined when none changed since last read. */
async function readDataSet(
  ctx: AppContext,
  feed: Feed,
  urls: string[],
  result: SyncResult,
  options: SyncOptions,
  served: Map<string, Validators>,
): Promise<PartText[] | undefined> {
  const known = new Map((await ctx.sourceParts.list(feed.source)).map((state) => [state.part, validatorsOf(state)]));
  const texts = await readParts(ctx, feed, urls, options, known, served);
  result.missing = texts.filter((t) => t === undefined).length;
  if (result.missing === urls.length)
    throw new FeedError(`none of its ${urls.length} URLs exists (e.g. ${urls[0]} answered 404)`);
  const unchanged = texts.flatMap((t, i) => (t === 'not-modified' ? [urls[i]!] : []));
  if (unchanged.length === texts.filter((t) => t !== undefined).length) {
    result.notModified = true;
    return undefined;
  }
  if (unchanged.length === 0) return texts;
  // Some files changed: the whole set is imported, so the unchanged ones are read again in full.
  const again = await readParts(ctx, feed, unchanged, options, new Map(), served);
  return texts.map((t, i) => (t === 'not-modified' ? again[unchanged.indexOf(urls[i]!)] : t));
}

/** Parses each file read; one that is not data of the feed's format fails the whole set. */
async function parseDataSet(
  feed: Feed,
  importer: Importer,
  urls: string[],
  texts: PartText[],
  at: Date,
  options: SyncOptions,
): Promise<{ url: string; parsed: ParseResult }[]> {
  const read: { url: string; parsed: ParseResult }[] = [];
  // In a serving process, a large input is parsed in steps that leave the event loop to requests in between.
  const pause = options.background ? backgroundPacer() : undefined;
  for (const [i, text] of texts.entries()) {
    if (text === undefined || text === 'not-modified') continue;
    const url = urls[i]!;
    const parseOptions = { now: at, defaultCountry: feed.country, inputName: url };
    const parsed =
      pause && importer.parseInSteps
        ? await importer.parseInSteps(text, parseOptions, pause)
        : importer.parse(text, parseOptions);
    // A part that says nothing usable (not JSON, an HTML error page…) fails the whole feed.
    const broken = unusableInput(parsed);
    if (broken) throw new FeedError(`${url} is not ${feed.format} data: ${broken.message}`);
    read.push({ url, parsed });
    await pause?.();
  }
  return read;
}

/** One calendar of a feed of calendars, with what the feeds file says of it: what the sync and the check read. */
export function calendarTarget(feed: Feed, part: FeedPart): CalendarTarget {
  return {
    source: feed.source,
    part: part.key || part.url,
    url: part.url,
    format: feed.format,
    owner: sourceOwner(feed.source),
    actor: `import:${feed.source}`,
    idPrefix: calendarIdPrefix(part.key),
    country: partCountry(feed, part),
    city: part.entry?.city,
    topics: part.entry?.topics,
    organizer: part.entry?.name,
    fallbackUrl: part.url.replace(/^webcal:/i, 'https:'),
    worldwide: feed.worldwide,
    window: feed.window,
  };
}

/**
 * A feed of calendars: one that fails keeps its events while the others update; calendars gone from the feed are
 * retired. The feed fails only when every calendar does.
 */
async function syncCalendarFeed(
  ctx: AppContext,
  feed: Feed,
  importer: Importer,
  parts: FeedPart[],
  result: SyncResult,
  options: SyncOptions,
): Promise<void> {
  const targets = parts.map((part) => calendarTarget(feed, part));
  let done = 0;
  const runs = await syncCalendars(ctx, targets, {
    importer,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    background: options.background,
    onDone: () => options.onProgress?.(feed, { phase: 'reading', done: ++done, total: targets.length }),
  });
  const report = takeRuns(result, runs);
  if (!report)
    throw new FeedError(
      runs.length === 1 ? runs[0]!.error! : `all ${runs.length} calendars failed, e.g. ${runs[0]!.error}`,
    );
  if (parts.length > 1) {
    const owner = sourceOwner(feed.source);
    const retired = await retireOrphans(ctx, owner, `import:${feed.source}`, new Set(parts.map((p) => p.key)));
    report.cancelled += retired.length;
    report.touched.push(...retired);
  }
  result.report = report;
  if (runs.every((r) => r.outcome === 'not-modified')) result.notModified = true;
}

/** How a feed's URL is shown: its template(s) as written in the feeds file. */
export const feedLocation = (feed: Feed) => (Array.isArray(feed.url) ? feed.url.join(' ') : feed.url);

/** Records a run in the sources' state (`GET /api/sources`). */
async function recordRun(ctx: AppContext, result: SyncResult): Promise<void> {
  const { feed, report } = result;
  await ctx.sources.recordRun({
    source: feed.source,
    format: feed.format,
    url: feedLocation(feed),
    licence: feed.licence ?? null,
    at: result.at,
    error: result.error,
    counts: report && { ...runCounts(report, { urls: result.urls, missing: result.missing }), ...cutOf(result) },
  });
  // The pages' freshness line and answers' coverage say what the run changed at once, not a minute later.
  ctx.remembered.changed(SOURCES_STATE);
}

/**
 * Syncs a collection of calendars the service keeps itself (hosts' links, communities' proposals) as one run of its
 * source, at `at`: failing only if all its calendars fail, recorded unless it was stopped.
 */
export async function syncCollection(
  ctx: AppContext,
  feed: Feed,
  at: Date,
  targets: CalendarTarget[],
  what: string,
  options: SyncOptions,
): Promise<SyncResult> {
  const result: SyncResult = { feed, at, urls: targets.length, missing: 0 };
  if (targets.length === 0) return result;
  const runs: CalendarRun[] = [];
  for (const format of new Set(targets.map((t) => t.format ?? 'ical'))) {
    const importer = importerFor(format);
    const ofFormat = targets.filter((t) => (t.format ?? 'ical') === format);
    if (!importer) {
      runs.push(
        ...ofFormat.map((target) => ({ target, outcome: 'failed' as const, error: `no importer reads ${format}` })),
      );
      continue;
    }
    const { signal, timeoutMs, background } = options;
    runs.push(...(await syncCalendars(ctx, ofFormat, { importer, signal, timeoutMs, background })));
  }
  const report = takeRuns(result, runs);
  if (report) result.report = report;
  else result.error = `all ${runs.length} ${what} failed, e.g. ${runs[0]!.error}`;
  if (!options.signal?.aborted) await recordRun(ctx, result);
  return result;
}

/** Keeps a collection's calendar runs in its result (gone ones missing): their reports summed, none if all failed. */
function takeRuns(result: SyncResult, runs: CalendarRun[]): ImportReport | undefined {
  result.calendars = runs;
  result.missing = runs.filter((r) => r.outcome === 'gone').length;
  if (runs.every((r) => r.outcome === 'failed' || r.outcome === 'gone')) return undefined;
  return sumReports(
    result.feed.source,
    result.feed.format,
    runs.flatMap((r) => (r.report ? [r.report] : [])),
  );
}

/** What limits of a read left out of a feed's calendars: the one calendar's words, or how many of them were cut. */
function cutOf({ calendars = [] }: SyncResult): { cut?: string } {
  const cut = calendars.filter((c) => c.cut);
  if (cut.length === 0) return {};
  if (calendars.length === 1) return { cut: cut[0]!.cut };
  return { cut: `${cut.length} of its ${calendars.length} calendars were cut (each says why under calendars)` };
}

/** The fields a synced run is logged with, by the schedule and for an operator's sync alike. */
export function syncedFields(result: SyncResult): { source: string } & RunCounts {
  return { source: result.feed.source, ...runCounts(result.report!, { urls: result.urls, missing: result.missing }) };
}

/** The feeds of a feeds file; a broken one is refused (`bad-request`). */
export function readFeedsFile(path: string, optional: boolean): Promise<Feed[]> {
  return loadFeeds(path, { optional }).catch((error: unknown) => {
    throw error instanceof FeedsFileError ? new ServiceError('bad-request', error.message) : error;
  });
}
