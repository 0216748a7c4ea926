import { type Owner, sourceOwner } from '../catalogue/event.js';
import { cleanImported } from '../catalogue/text.js';
import type { AppContext } from '../context.js';
import { enrichRecord, isElsewhere } from '../importers/enrich.js';
import type { ImportedRecord, Importer, ParseResult, RecordError } from '../importers/importer.js';
import type { Country } from '../places/countries.js';
import type { RunCounts } from '../storage/sources.repository.js';
import { type BatchItem, type BatchResult, cancelAbsent, retiresAbsent, upsertMany } from './store-many.js';

export interface ImportOptions {
  /** The source's name: owner of its events (`source:<name>`, unless `owner` says) and their public `source` field. */
  source: string;
  /** Whose events they are, when not the source's own: a host's linked calendar (`key:<id>`). */
  owner?: Owner;
  /** Who the revision log names (default `import:<source>`). */
  actor?: string;
  /** With cancelMissing: only externalIds with this prefix are the input's to cancel (one calendar of several). */
  missingPrefix?: string;
  /** Keep cancels made by someone else (a host's) while the input lists the event; by default the input restores. */
  keepOthersCancels?: boolean;
  /** Cancel this source's upcoming events that are absent from the input (a feed's complete state). */
  cancelMissing?: boolean;
  /** With cancelMissing: only events starting from this are cancelled when absent (last year's may still run). */
  cancelMissingFrom?: Date;
  /** With cancelMissing: only events starting up to this are cancelled when absent (a calendar showing a window). */
  cancelMissingUntil?: Date | undefined;
  defaultCountry?: Country;
  /** Where the input was read (see ParseOptions.inputName). */
  inputName?: string;
  /** Told how far storing has come, after every record: for progress displays. */
  onProgress?: (progress: ImportProgress) => void;
  /**
   * In a process that serves reads: store in small chunks, leaving the event loop to reads in between, since the
   * embedded engine runs its queries on the event loop's thread and a large sync would hold up every read.
   */
  background?: boolean;
}

export interface ImportProgress {
  /** Records read from the input (usable or not). */
  read: number;
  /** Records stored (or found unusable) so far. */
  stored: number;
}

export interface ImportReport {
  source: string;
  format: string;
  created: number;
  updated: number;
  unchanged: number;
  cancelled: number;
  restored: number;
  skipped: RecordError[];
  /** Records of a world-wide data set about events outside ch/de/at: not ours, not errors. */
  elsewhere: number;
  /** Ids of every event the import wrote or touched, for the read index. */
  touched: string[];
}

/** Records stored per transaction: large enough to make a 100k-event import quick, small enough to show progress. */
const CHUNK = 500;
/** Per transaction in the background: small, as the embedded engine holds the event loop for a whole chunk. */
const BACKGROUND_CHUNK = 100;
/** Reads get this many times as long as a background step took: a sync may run longer, reads are people waiting. */
const BACKGROUND_PAUSE = 3;

/** Pauses for work done in steps in a serving process, so that it takes at most about a quarter of the event loop. */
export function backgroundPacer(): () => Promise<void> {
  let working = performance.now();
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, BACKGROUND_PAUSE * (performance.now() - working)));
    working = performance.now();
  };
}

/**
 * Parses with one importer, enriches, and stores each record through the same upsert rules as the write API,
 * owned by the source. A bad record is reported and skipped; the rest still load.
 */
export async function runImport(
  ctx: AppContext,
  importer: Importer,
  input: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const parsed = importer.parse(input, {
    now: ctx.now(),
    defaultCountry: options.defaultCountry,
    inputName: options.inputName,
  });
  return storeRecords(ctx, importer, parsed, options);
}

/**
 * Stores parsed records as `runImport` does, holding the source's lock throughout: imports of one source run one
 * after the other on any node, so each cancel-missing decides on the state its own import left.
 */
export function storeRecords(
  ctx: AppContext,
  importer: Pick<Importer, 'format' | 'worldwide'>,
  parsed: ParseResult,
  options: ImportOptions,
): Promise<ImportReport> {
  return ctx.storage.whileHolding(options.owner ?? sourceOwner(options.source), () =>
    store(ctx, importer, parsed, options),
  );
}

async function store(
  ctx: AppContext,
  importer: Pick<Importer, 'format' | 'worldwide'>,
  parsed: ParseResult,
  options: ImportOptions,
): Promise<ImportReport> {
  const owner = options.owner ?? sourceOwner(options.source);
  const actor = options.actor ?? `import:${options.source}`;
  const report = emptyReport(options.source, importer.format, parsed.errors);
  const seen = new Set<string>();
  const progress = { read: parsed.records.length, stored: 0 };
  options.onProgress?.(progress);
  // Records go to the database in chunks, each in one transaction (see upsertMany); the last record of an id wins.
  const batch = new Map<string, BatchItem>();
  const chunk = options.background ? BACKGROUND_CHUNK : CHUNK;
  const pause = options.background ? backgroundPacer() : undefined;
  const flush = async () => {
    const items = [...batch.values()];
    batch.clear();
    const results = await upsertMany(ctx.events, { owner, source: options.source, actor }, items, {
      keepOthersCancels: options.keepOthersCancels,
    });
    countStored(ctx, report, items, results);
    progress.stored += items.length;
    options.onProgress?.(progress);
    await pause?.();
  };
  for (const record of parsed.records) {
    if (importer.worldwide && isElsewhere(record, options.defaultCountry)) {
      // Not "seen": a conference that moved abroad is no longer one of ours, and cancel-missing cancels it.
      report.elsewhere++;
      progress.stored++;
      continue;
    }
    // Present in the input, even if unusable now: not "missing", so cancel-missing leaves its stored event alone.
    seen.add(record.sourceId);
    try {
      const item = batchItemOf(record, options.defaultCountry);
      batch.delete(record.sourceId);
      batch.set(record.sourceId, item);
    } catch (error) {
      progress.stored++;
      const named = `"${cleanImported(record.title)}" (${cleanImported(record.sourceId)})`;
      report.skipped.push({ record: named, message: (error as Error).message });
    }
    if (batch.size >= chunk) await flush();
  }
  if (batch.size > 0) await flush();
  // Input that yielded errors and not one usable record (an HTML error page, a broken file) is not an empty feed:
  // cancelling on it would wipe the source's listings.
  if (options.cancelMissing && retiresAbsent(report.touched.length, report.skipped.length)) {
    await cancelMissing(ctx, report, { owner, actor }, seen, options);
  }
  return report;
}

/** A report of nothing stored yet, with the records refused so far. */
export function emptyReport(source: string, format: string, errors: readonly RecordError[] = []): ImportReport {
  return {
    source,
    format,
    created: 0,
    updated: 0,
    unchanged: 0,
    cancelled: 0,
    restored: 0,
    skipped: [...errors],
    elsewhere: 0,
    touched: [],
  };
}

function batchItemOf(record: ImportedRecord, defaultCountry: Country | undefined): BatchItem {
  return {
    externalId: record.sourceId,
    content: enrichRecord(record, defaultCountry),
    // The revision log keeps what was stored; what a source said is its file, not a body a host sent.
    submission: undefined,
    lifecycle: record.cancelled ? 'cancelled' : 'listed',
  };
}

/** Counts a stored chunk in the report and the metrics, and shows it in the read index. */
function countStored(ctx: AppContext, report: ImportReport, items: BatchItem[], results: BatchResult[]): void {
  results.forEach((result, i) => {
    report[result.created ? 'created' : result.changed ? 'updated' : 'unchanged']++;
    if (result.lifecycleChanged) report[items[i]!.lifecycle === 'cancelled' ? 'cancelled' : 'restored']++;
    report.touched.push(result.event.id);
    ctx.index?.apply(result.event);
    if (result.changed) ctx.metrics?.writes.inc({ action: result.created ? 'create' : 'update' });
    if (result.lifecycleChanged)
      ctx.metrics?.writes.inc({ action: items[i]!.lifecycle === 'cancelled' ? 'cancel' : 'restore' });
  });
}

/** Cancels the source's events the input no longer names. */
async function cancelMissing(
  ctx: AppContext,
  report: ImportReport,
  by: { owner: Owner; actor: string },
  seen: Set<string>,
  options: ImportOptions,
): Promise<void> {
  const list = {
    named: seen,
    now: ctx.now(),
    from: options.cancelMissingFrom,
    until: options.cancelMissingUntil,
    prefix: options.missingPrefix,
  };
  const cancelled = await ctx.events.transaction((repo) => cancelAbsent(repo, by, list));
  for (const event of cancelled) {
    report.cancelled++;
    report.touched.push(event.id);
    ctx.index?.apply(event);
    ctx.metrics?.writes.inc({ action: 'cancel' });
  }
}

/** The counts of a run as the sources' state keeps them. */
export function runCounts(report: ImportReport, extra: { urls?: number; missing?: number } = {}): RunCounts {
  const { created, updated, unchanged, cancelled, restored, skipped, elsewhere } = report;
  return { created, updated, unchanged, cancelled, restored, skipped: skipped.length, elsewhere, ...extra };
}
