import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import { type Feed, FeedsFileError, feedUrls, isEnabled, loadFeeds } from '../importers/feeds.js';
import { FILE_RECORD, type ImportedRecord, type ParseResult, type RecordError } from '../importers/importer.js';
import { importerFor, readInput } from '../importers/registry.js';
import type { RunCounts } from '../storage/sources.repository.js';
import { backgroundPacer, type ImportProgress, type ImportReport, storeRecords } from './import-records.js';

export { type Feed, FeedsFileError, loadFeeds, SOURCE_NAME, sourceNameError } from '../importers/feeds.js';

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
  /** Present when the feed was read and imported (possibly with skipped records). */
  report?: ImportReport;
  /** Why the feed could not be read or stored at all; nothing of its source was changed. */
  error?: string;
}

/** A part that says nothing usable about its events (not JSON, an HTML error page…) fails the whole feed. */
function malformed(parsed: ParseResult): RecordError | undefined {
  const whole = parsed.errors.find((e) => e.record === FILE_RECORD);
  if (whole) return whole;
  return parsed.records.length === 0 ? parsed.errors[0] : undefined;
}

/** "conferences/2026/data.json" → "2026/data.json": enough to tell a feed's files apart in messages. */
const shortName = (url: string) => url.split(/[/\\]/).slice(-2).join('/');

/**
 * The records of several parts as one input. The same record in several parts (a conference in two confs.tech
 * topic files) is one, with the topic hints of all; its first listing gives every other field.
 */
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

/**
 * Reads every URL of a feed, a few at a time. A URL that does not exist (404, no such file) is an empty part when
 * the feed has several (a topic or a city without events that year); any other failure stops the feed at once.
 */
async function readParts(feed: Feed, urls: string[], options: SyncOptions) {
  const texts: (string | undefined)[] = new Array(urls.length);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let next = 0;
  let done = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < urls.length) {
      const i = next++;
      try {
        texts[i] = await readInput(urls[i]!, { timeoutMs: options.timeoutMs, signal });
      } catch (error) {
        if (urls.length > 1 && (error as { notFound?: boolean }).notFound === true) texts[i] = undefined;
        else if (failure === undefined) {
          failure = error;
          stop.abort();
        }
      }
      options.onProgress?.(feed, { phase: 'reading', done: ++done, total: urls.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker));
  if (failure !== undefined) throw failure;
  return texts;
}

/**
 * Syncs one feed: reads all its URLs, parses and merges them, and imports the result as the complete state of its
 * source (cancel-missing). Any failure — a URL that cannot be read, a part that is not the feed's format — leaves
 * the source exactly as it was. Every run is recorded in the sources' state.
 */
export async function syncFeed(ctx: AppContext, feed: Feed, options: SyncOptions = {}): Promise<SyncResult> {
  const at = ctx.now();
  const urls = feedUrls(feed, at);
  const result: SyncResult = { feed, at, urls: urls.length, missing: 0 };
  try {
    const importer = importerFor(feed.format);
    if (!importer) throw new FeedError(`unknown format "${feed.format}"`);
    const texts = await readParts(feed, urls, options);
    result.missing = texts.filter((t) => t === undefined).length;
    if (result.missing === urls.length)
      throw new FeedError(`none of its ${urls.length} URLs exists (e.g. ${urls[0]} answered 404)`);
    const parts: { url: string; parsed: ParseResult }[] = [];
    // In a serving process, a large input is parsed in steps that leave the event loop to requests in between.
    const pause = options.background ? backgroundPacer() : undefined;
    for (const [i, text] of texts.entries()) {
      if (text === undefined) continue;
      const url = urls[i]!;
      const parseOptions = { now: at, defaultCountry: feed.country, inputName: url };
      const parsed =
        pause && importer.parseInSteps
          ? await importer.parseInSteps(text, parseOptions, pause)
          : importer.parse(text, parseOptions);
      const broken = malformed(parsed);
      if (broken) throw new FeedError(`${url} is not ${feed.format} data: ${broken.message}`);
      parts.push({ url, parsed });
      await pause?.();
    }
    const templates = Array.isArray(feed.url) ? feed.url : [feed.url];
    result.report = await storeRecords(ctx, importer, mergeParts(parts), {
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
  } catch (error) {
    result.error = (error as Error).message;
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

/** The counts of a run as the sources' state keeps them. */
export function runCounts(report: ImportReport, extra: { urls?: number; missing?: number } = {}): RunCounts {
  const { created, updated, unchanged, cancelled, restored, skipped, elsewhere } = report;
  return { created, updated, unchanged, cancelled, restored, skipped: skipped.length, elsewhere, ...extra };
}

/** How a feed's URL is shown: its template(s) as written in the feeds file. */
export const feedLocation = (feed: Feed) => (Array.isArray(feed.url) ? feed.url.join(' ') : feed.url);

function recordRun(ctx: AppContext, result: SyncResult): Promise<void> {
  const { feed, report } = result;
  return ctx.sources.recordRun({
    source: feed.source,
    format: feed.format,
    url: feedLocation(feed),
    licence: feed.licence ?? null,
    at: result.at,
    error: result.error,
    counts: report && runCounts(report, { urls: result.urls, missing: result.missing }),
  });
}

/** The fields a synced run is logged with, by the schedule and for an operator's sync alike. */
export function syncedFields(result: SyncResult): { source: string } & RunCounts {
  return { source: result.feed.source, ...runCounts(result.report!, { urls: result.urls, missing: result.missing }) };
}

/**
 * Syncs the feeds of the configured feeds file as it is now (an operator may have edited it since start-up), each
 * enabled one in turn: what `POST /api/admin/sync` does.
 */
export function syncConfiguredFeeds(ctx: AppContext, options: SyncOptions = {}): Promise<SyncResult[]> {
  const { path, named } = ctx.config.feedsFile;
  return syncFeedsFile(ctx, path, { optional: !named, via: 'admin-api', ...options });
}

/**
 * Syncs the feeds of a feeds file in a serving process, for an operator: through the admin API, or `tech-events sync`
 * asking the running service. Each run is logged as the schedule logs its runs, marked as asked for by the operator.
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
  const results = await runSync(ctx, feeds, { background: true, ...syncOptions });
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
  }
  return results;
}

/** Syncs each enabled feed in turn; one failing feed does not stop the rest. */
export async function runSync(ctx: AppContext, feeds: readonly Feed[], options: SyncOptions = {}) {
  const results: SyncResult[] = [];
  for (const feed of feeds) if (isEnabled(feed)) results.push(await syncFeed(ctx, feed, options));
  return results;
}
