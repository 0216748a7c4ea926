import { createHash } from 'node:crypto';
import type { CatalogueEvent, Owner } from '../catalogue/event.js';
import type { AppContext } from '../context.js';
import { CALENDAR_LIMITS } from '../importers/calendar-limits.js';
import type { AddressGuard, Validators } from '../importers/http-reader.js';
import {
  FILE_RECORD,
  type ImportedRecord,
  type Importer,
  type ParseResult,
  unusableInput,
} from '../importers/importer.js';
import { InputError } from '../importers/input-error.js';
import { readInput, userAgentOf } from '../importers/registry.js';
import type { Country } from '../places/countries.js';
import { type PartState, validatorsOf } from '../storage/source-parts.repository.js';
import { backgroundPacer, emptyReport, type ImportReport, runCounts, storeRecords } from './import-records.js';
import { inParallel, oneAtATime } from './in-turn.js';
import { retireByExternalIds } from './store-many.js';

/** One calendar to sync: where it is, whose its events are, and what it does not say of itself. */
export interface CalendarTarget {
  /** The events' public `source`, and the state's source. */
  source: string;
  /** The calendar's id in the state of its source (a Meetup group's name; a host calendar's id). */
  part: string;
  url: string;
  /** The importer format that reads it (importers/registry.ts); `ical` when absent. */
  format?: string | undefined;
  owner: Owner;
  /** Who the revision log names for what the calendar changes. */
  actor: string;
  /** Prefix of each UID's externalId: the calendar's own events, only it cancels them; empty for one calendar. */
  idPrefix: string;
  /** Where its events are when they do not say: a country, a city for in-person events without one. */
  country?: Country | undefined;
  city?: string | undefined;
  /** Topics of the group, added to what each event's words say. */
  topics?: readonly string[] | undefined;
  /** The organizer of every event (a host's name), instead of what the calendar says. */
  organizer?: string | undefined;
  /** The link of an event that has none of its own. */
  fallbackUrl?: string | undefined;
  /**
   * The most events the calendar shows at once (Meetup: its next 10): a read holding that many is a window, and
   * events after its last one are not gone, only not shown yet. See calendarWindow.
   */
  window?: number | undefined;
  /** A calendar of the whole world: events outside ch/de/at are counted as elsewhere, not skipped as errors. */
  worldwide?: boolean | undefined;
  guard?: AddressGuard | undefined;
  /** A host's calendar: events the host cancelled stay cancelled while the calendar lists them. */
  keepOthersCancels?: boolean | undefined;
}

/** What one read of a calendar came to. */
export type CalendarOutcome = 'changed' | 'not-modified' | 'failed' | 'gone';

export interface CalendarRun {
  target: CalendarTarget;
  outcome: CalendarOutcome;
  /** Why it failed or is gone; its events are as they were. */
  error?: string;
  /** Failed as its address was refused (a private network), or as what it served is not a calendar. */
  failedAs?: 'refused' | 'not-calendar';
  report?: ImportReport;
  /** The calendar went over a limit on events: it keeps its first events, and this says why. */
  cut?: string;
  /** A valid calendar without events, and how many reads in a row found it so (see EMPTY_READS_TO_RETIRE). */
  empty?: number;
}

export interface CalendarSyncOptions {
  importer: Pick<Importer, 'format' | 'parse' | 'parseInSteps' | 'worldwide' | 'digest' | 'what'>;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** In a serving process: store so that reads go on (see ImportOptions.background). */
  background?: boolean | undefined;
  /** Runs the storing of a calendar in turn with other calendars' (see oneAtATime); at once by default. */
  inTurn?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Reads in a row an empty calendar takes to retire its events: a group between events publishes an empty calendar,
 * but an upstream fault emptying it once must not take a group's listings down.
 */
export const EMPTY_READS_TO_RETIRE = 2;

/** Meetup's group export holds the next 10 events whatever is asked (see docs/sources.md, "Meetup groups"). */
const KNOWN_WINDOWS: readonly { host: RegExp; events: number }[] = [{ host: /(^|\.)meetup\.com$/i, events: 10 }];

/**
 * How many events a calendar shows at most: what its feed declares, else what its platform is known to show, else
 * no limit (a calendar is then the complete state of its events).
 */
export function calendarWindow(url: string, declared?: number): number | undefined {
  if (declared !== undefined) return declared;
  let host: string;
  try {
    host = new URL(url.replace(/^webcal:/i, 'https:')).hostname;
  } catch {
    return undefined;
  }
  return KNOWN_WINDOWS.find((w) => w.host.test(host))?.events;
}

/**
 * When the calendar shows a full window (as many events as it shows at most, a recurring series counting once): the
 * start of the last event it shows, after which events are not the calendar's to retire. Otherwise undefined.
 */
export function fullWindowEnd(records: readonly ImportedRecord[], window: number | undefined): Date | undefined {
  if (window === undefined || new Set(records.map((r) => r.sourceId.split('#')[0])).size < window) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  for (const { start } of records) {
    const at = 'instant' in start ? start.instant.getTime() : Date.parse(`${start.date}T23:59:59Z`);
    if (at > last) last = at;
  }
  return Number.isFinite(last) ? new Date(last) : undefined;
}

/** A calendar's part of its owner's events: the externalIds it alone keeps (and cancels when they go missing). */
export const calendarIdPrefix = (key: string) => (key ? `${key}|` : '');

/** Records with what the calendar does not say of itself, under the calendar's own ids. */
function applyTarget(records: ImportedRecord[], target: CalendarTarget): ImportedRecord[] {
  return records.map((record) => ({
    ...record,
    sourceId: `${target.idPrefix}${record.sourceId}`,
    city: record.city ?? (record.format === 'online' ? undefined : target.city),
    topicHints: target.topics?.length ? [...target.topics, ...(record.topicHints ?? [])] : record.topicHints,
    organizer: target.organizer ?? record.organizer,
    url: record.url ?? target.fallbackUrl,
  }));
}

/**
 * Syncs one calendar as the complete state of its events; a 304 changes nothing. A calendar unreadable, gone
 * (404/410) or not of its format keeps its events. Every read is recorded in its source's state.
 */
export async function syncCalendar(
  ctx: AppContext,
  target: CalendarTarget,
  prior: PartState | undefined,
  options: CalendarSyncOptions,
): Promise<CalendarRun> {
  const at = ctx.now();
  const record = (run: CalendarRun, changed?: Parameters<AppContext['sourceParts']['record']>[0]['changed']) =>
    ctx.sourceParts
      .record({ source: target.source, part: target.part, url: target.url, at, error: run.error, changed })
      .then(() => run);
  let read: CalendarRead;
  try {
    read = await readCalendar(ctx, target, prior, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const gone = (error as { notFound?: boolean }).notFound === true;
    const refused = (error as { refused?: boolean }).refused === true;
    // The reader words what it knows (InputError); anything else is a fault of ours, told to the log, not the host.
    const message =
      error instanceof InputError
        ? error.message
        : `the read of ${target.url} failed unexpectedly (see the service log)`;
    if (!(error instanceof InputError)) ctx.logger.error({ err: error, url: target.url }, 'calendar read failed');
    return record({
      target,
      outcome: gone ? 'gone' : 'failed',
      error: message,
      ...(refused ? { failedAs: 'refused' } : {}),
    });
  }
  const { text } = read;
  // Served again without validators, the same content is a 304 in all but name.
  const digest = text === undefined ? undefined : digestOf(text, target, options.importer);
  const unchanged = text === undefined || (digest !== undefined && digest === prior?.contentHash);
  // Unchanged is no news, unless the calendar was empty: then it is one more empty read.
  if (unchanged && !prior?.emptyReads) return record({ target, outcome: 'not-modified' });

  const parsed = text === undefined ? { records: [], errors: [] } : await parseCalendar(text, target, at, options);
  const broken = unusableInput(parsed);
  if (broken) {
    const why =
      broken.record === FILE_RECORD
        ? broken.message
        : `not one event could be read (${broken.record}: ${broken.message})`;
    const error = `not ${options.importer.what ?? 'a calendar'}: ${why}`;
    return record({ target, outcome: 'failed', error, failedAs: 'not-calendar' });
  }
  const empty = parsed.records.length === 0 ? (prior?.emptyReads ?? 0) + 1 : 0;
  const report = await storeCalendar(ctx, target, parsed, empty, options);
  const validators =
    text === undefined
      ? { etag: prior?.etag ?? undefined, lastModified: prior?.lastModified ?? undefined }
      : read.validators;
  const contentHash = digest ?? prior?.contentHash ?? undefined;
  return record(
    { target, outcome: 'changed', report, ...(empty > 0 ? { empty } : {}), ...(parsed.cut ? { cut: parsed.cut } : {}) },
    {
      ...validators,
      contentHash,
      emptyReads: empty,
      counts: { ...runCounts(report), ...(parsed.cut ? { cut: parsed.cut } : {}) },
    },
  );
}

/**
 * What a read stands for: the calendar's content (per-request stamps aside) and what the feeds file adds to it, so
 * that a group given another city or topics is imported again though its calendar did not change.
 */
function digestOf(text: string, target: CalendarTarget, importer: CalendarSyncOptions['importer']): string | undefined {
  const content = importer.digest?.(text);
  if (content === undefined) return undefined;
  const { city, country, topics, organizer, fallbackUrl, window } = target;
  const added = createHash('sha256')
    .update(JSON.stringify([city, country, topics, organizer, fallbackUrl, window]))
    .digest('base64url')
    .slice(0, 16);
  return `${content}.${added}`;
}

/** In a serving process, a large calendar is parsed in steps that leave the event loop to requests in between. */
function parseCalendar(
  text: string,
  target: CalendarTarget,
  at: Date,
  options: CalendarSyncOptions,
): Promise<ParseResult> | ParseResult {
  const parseOptions = { now: at, defaultCountry: target.country, inputName: target.url };
  const { importer } = options;
  if (options.background && importer.parseInSteps) return importer.parseInSteps(text, parseOptions, backgroundPacer());
  return importer.parse(text, parseOptions);
}

/** The calendar's text, or undefined when unchanged since the prior read; with the validators it answered. */
interface CalendarRead {
  text: string | undefined;
  validators: Validators;
}

async function readCalendar(
  ctx: AppContext,
  target: CalendarTarget,
  prior: PartState | undefined,
  options: CalendarSyncOptions,
): Promise<CalendarRead> {
  let validators: Validators = {};
  const text = await readInput(target.url, {
    timeoutMs: options.timeoutMs ?? ctx.config.calendars.readTimeoutMs,
    maxBytes: CALENDAR_LIMITS.maxBytes,
    signal: options.signal,
    guard: target.guard,
    reader: ctx.httpReader,
    userAgent: userAgentOf(ctx.config.baseUrl),
    validators: validatorsOf(prior),
    onValidators: (v) => {
      validators = v;
    },
  });
  return { text, validators };
}

/** Stores the calendar as the complete state of its events, in turn with other stores. */
function storeCalendar(
  ctx: AppContext,
  target: CalendarTarget,
  parsed: ParseResult,
  empty: number,
  options: CalendarSyncOptions,
): Promise<ImportReport> {
  const inTurn = options.inTurn ?? ((work) => work());
  return inTurn(() =>
    storeRecords(
      ctx,
      { format: options.importer.format, worldwide: target.worldwide ?? options.importer.worldwide },
      { records: applyTarget(parsed.records, target), errors: parsed.errors },
      {
        source: target.source,
        owner: target.owner,
        actor: target.actor,
        cancelMissing: empty === 0 || empty >= EMPTY_READS_TO_RETIRE,
        cancelMissingUntil: fullWindowEnd(parsed.records, calendarWindow(target.url, target.window)),
        missingPrefix: target.idPrefix,
        keepOthersCancels: target.keepOthersCancels,
        defaultCountry: target.country,
        background: options.background,
      },
    ),
  );
}

/** Syncs calendars a few at a time: reads overlap, storing goes one after another so a large sync paces itself. */
export async function syncCalendars(
  ctx: AppContext,
  targets: readonly CalendarTarget[],
  options: CalendarSyncOptions & { concurrency?: number; onDone?: (run: CalendarRun) => void },
): Promise<CalendarRun[]> {
  const priors = new Map<string, PartState>();
  for (const source of new Set(targets.map((t) => t.source)))
    for (const state of await ctx.sourceParts.list(source)) priors.set(`${state.source}\n${state.part}`, state);
  const runs: CalendarRun[] = new Array(targets.length);
  const inTurn = oneAtATime();
  const order = hostsInTurn(targets);
  const syncOne = async (n: number) => {
    const i = order[n]!;
    const target = targets[i]!;
    runs[i] = await syncCalendar(ctx, target, priors.get(`${target.source}\n${target.part}`), { ...options, inTurn });
    options.onDone?.(runs[i]!);
  };
  await inParallel(order.length, options.concurrency ?? 4, syncOne, () => options.signal?.aborted === true);
  if (options.signal?.aborted) throw new Error('the sync was stopped');
  return runs;
}

/**
 * The order calendars are read in: one of each host in turn, so the readers go to different hosts and one slow host's
 * calendars hold up at most their own share of them.
 */
function hostsInTurn(targets: readonly CalendarTarget[]): number[] {
  const byHost = new Map<string, number[]>();
  targets.forEach((target, i) => {
    let host: string;
    try {
      host = new URL(target.url.replace(/^webcal:/i, 'https:')).host;
    } catch {
      host = target.url;
    }
    const list = byHost.get(host);
    if (list) list.push(i);
    else byHost.set(host, [i]);
  });
  const lists = [...byHost.values()];
  const order: number[] = [];
  for (let round = 0; order.length < targets.length; round++)
    for (const list of lists) if (round < list.length) order.push(list[round]!);
  return order;
}

/** The counts of several calendars' imports as one report. */
export function sumReports(source: string, format: string, reports: ImportReport[]): ImportReport {
  const sum = emptyReport(source, format);
  for (const r of reports) {
    for (const k of ['created', 'updated', 'unchanged', 'cancelled', 'restored', 'elsewhere'] as const) sum[k] += r[k];
    sum.skipped.push(...r.skipped);
    sum.touched.push(...r.touched);
  }
  return sum;
}

/**
 * Retires an owner's upcoming listed events (of one calendar, with `calendar`; those `pick` takes, with it), shown
 * in the read index at once: what an unlinked calendar, or one gone from the feeds file, leaves behind.
 */
export async function retireUpcoming(
  ctx: AppContext,
  by: { owner: Owner; actor: string },
  { calendar, pick }: { calendar?: string; pick?: (event: CatalogueEvent) => boolean },
): Promise<CatalogueEvent[]> {
  const now = ctx.now();
  const upcoming = (await ctx.events.listByOwner(by.owner, calendar && calendarIdPrefix(calendar))).filter(
    (e) => e.lifecycle === 'listed' && (e.end ?? e.start) >= now && (pick?.(e) ?? true),
  );
  const retired = await retireByExternalIds(
    ctx.storage,
    by,
    upcoming.flatMap((e) => (e.externalId ? [e.externalId] : [])),
  );
  for (const event of retired) {
    ctx.index?.apply(event);
    ctx.metrics?.writes.inc({ action: 'cancel' });
  }
  return retired;
}

/** Retires upcoming events of calendars gone from the feeds file: a calendar taken out takes its events with it. */
export async function retireOrphans(
  ctx: AppContext,
  owner: Owner,
  actor: string,
  keys: Set<string>,
): Promise<string[]> {
  const prefixes = [...keys].map(calendarIdPrefix);
  const ofACalendar = (id: string | null) => id !== null && prefixes.some((prefix) => id.startsWith(prefix));
  const retired = await retireUpcoming(ctx, { owner, actor }, { pick: (e) => !ofACalendar(e.externalId) });
  return retired.map((e) => e.id);
}
