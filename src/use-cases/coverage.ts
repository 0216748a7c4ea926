import type { ServingContext } from '../context.js';
import { localDay } from '../i18n/dates.js';
import { COUNTRIES, COUNTRY_INFO, type Country } from '../places/countries.js';
import { parseSearchParams } from '../query/params.js';
import type { SearchResult } from '../query/read-index.js';
import { Remembering, SOURCES_STATE } from '../runtime/remembered.js';
import { listSources, type SourceView } from './list-sources.js';

/**
 * Fewer upcoming events than this in the countries searched, while their data is only a shipped snapshot, and the
 * answer says the catalogue is thin there.
 */
export const FEW_UPCOMING = 20;
/** A shipped snapshot whose data is older than this explains a thin answer; a newer one is as good as a read. */
const SNAPSHOT_OLD_DAYS = 30;
/** How many months of upcoming events an answer offers per country. */
const MONTHS_OFFERED = 3;

/** Why an answer may be thinner than the world: the most pressing first. */
export const COVERAGE_CODES = ['sources-not-read', 'sources-failing', 'few-upcoming'] as const;
export type CoverageCode = (typeof COVERAGE_CODES)[number];

/** One source (or the calendars of one feed of calendars) the answer could draw on whose data is missing or old. */
export interface CoverageSource {
  source: string;
  /** `not-read`: never read; `failing`: its last reads failed; `snapshot`: only its shipped snapshot is loaded. */
  state: 'not-read' | 'failing' | 'snapshot';
  /** A feed of calendars: how many of its calendars for the countries searched are in that state, and their names. */
  calendars?: number;
  names?: string[];
  /** The countries of those calendars (none: calendars for any country). */
  countries?: Country[];
  /** Failing: its last successful read (null: never), and its last error. */
  lastSuccess?: string | null;
  lastError?: string | null;
  /** The date of the data of its shipped snapshot (YYYY-MM-DD). */
  snapshotOf?: string | null;
}

/** What the catalogue could draw on for an answer, when it falls short; see `answerCoverage`. */
export interface Coverage {
  code: CoverageCode;
  /** The countries searched. */
  countries: Country[];
  sources: CoverageSource[];
  /** Whether this service syncs its feeds (off: SYNC_INTERVAL_MINUTES=0). */
  sync: 'on' | 'off';
  /** Upcoming events held per country. */
  upcoming: Record<Country, number>;
  /** Per country, the months (YYYY-MM, local time) of its next upcoming events, soonest first. */
  months: Record<Country, string[]>;
}

interface SourceGaps {
  /** Every enabled feed as /api/sources shows it. */
  feeds: SourceView[];
  sync: 'on' | 'off';
}

/** The sources' state, read at most once a minute, and again as soon as a sync records a run. */
const REMEMBERED_AS = new Remembering<SourceGaps>('coverage-sources', SOURCES_STATE);

/** The read of the sources' state under way, kept by the service: the reads arriving meanwhile wait for it. */
const READING = new Remembering<Promise<SourceGaps | undefined> | undefined>('coverage-sources-reading');

function sourceGaps(ctx: ServingContext): Promise<SourceGaps | undefined> {
  const known = ctx.remembered.get(REMEMBERED_AS);
  if (known && ctx.now().getTime() - known.at < 60_000) return Promise.resolve(known.value);
  let read = ctx.remembered.get(READING)?.value;
  if (!read) {
    read = readSourceGaps(ctx, known?.value).finally(() => ctx.remembered.set(READING, ctx.now().getTime(), undefined));
    ctx.remembered.set(READING, ctx.now().getTime(), read);
  }
  return read;
}

async function readSourceGaps(ctx: ServingContext, known: SourceGaps | undefined): Promise<SourceGaps | undefined> {
  const now = ctx.now().getTime();
  const generation = ctx.remembered.generation;
  try {
    const view = await listSources(ctx);
    const value: SourceGaps = {
      feeds: view.sources.filter((s) => s.feed && s.enabled),
      sync: view.syncIntervalMinutes > 0 ? 'on' : 'off',
    };
    // A sync's run that landed meanwhile may have changed what was read: it is not remembered as current.
    if (ctx.remembered.generation === generation) ctx.remembered.set(REMEMBERED_AS, now, value);
    return value;
  } catch {
    // The database is away: the last state known, else no word rather than a wrong one.
    return known;
  }
}

/** What of one feed the countries searched draw on and is missing or old. */
function gapsOf(feed: SourceView, countries: readonly Country[], country: Country | undefined): CoverageSource[] {
  if (feed.calendars) {
    // A calendar for no country (a community calendar) may hold events anywhere.
    const concerned = feed.calendars.filter((c) => !c.country || countries.includes(c.country as Country));
    const gaps: CoverageSource[] = [];
    for (const state of ['not-read', 'failing'] as const) {
      const these = concerned.filter((c) => c.state === (state === 'not-read' ? 'not synced yet' : 'failing'));
      if (these.length === 0) continue;
      const theirCountries = [...new Set(these.map((c) => c.country as Country | null))];
      gaps.push({
        source: feed.source,
        state,
        calendars: these.length,
        names: these.map((c) => c.name ?? c.id),
        countries: theirCountries.includes(null) ? [] : (theirCountries as Country[]),
        ...(state === 'failing'
          ? {
              lastSuccess: these.map((c) => c.lastSuccess).reduce((a, b) => (a && b && a > b ? a : (b ?? a)), null),
              lastError: these.find((c) => c.lastError)?.lastError ?? null,
            }
          : {}),
      });
    }
    return gaps;
  }
  // A feed of one country's events says nothing of the others (a calendar's own country decides over it, above).
  if (country && !countries.includes(country)) return [];
  if (feed.failures > 0 || feed.lastError)
    return [
      {
        source: feed.source,
        state: 'failing',
        lastSuccess: feed.lastSuccess,
        lastError: feed.lastError,
        ...(feed.snapshot ? { snapshotOf: feed.snapshot.of } : {}),
      },
    ];
  if (feed.lastSuccess) return [];
  if (feed.snapshot) return [{ source: feed.source, state: 'snapshot', snapshotOf: feed.snapshot.of }];
  return [{ source: feed.source, state: 'not-read' }];
}

/** The months of a country's next upcoming events, from a plain listing (which runs by date). */
function nextMonths(ctx: ServingContext, country: Country, now: Date): string[] {
  const listing = ctx.index.search(parseSearchParams({ country, limit: 20 }), now);
  // The offer shows what the country holds: a body carrying it is stale once that changes.
  ctx.index.noteRead(listing.dependsOn);
  const zone = COUNTRY_INFO[country].timeZone;
  const months = listing.events
    .filter((r) => r.event.start.getTime() >= now.getTime())
    .map((r) => localDay(r.event.start, zone).slice(0, 7));
  return [...new Set(months)].slice(0, MONTHS_OFFERED);
}

/**
 * Why an answer may be thin that is not the prompt's doing: the sources it could draw on (the feeds for the
 * countries searched, and their calendars) not read yet or failing, or only their shipped snapshot loaded while the
 * countries searched hold few upcoming events; with what the catalogue holds instead. Undefined when coverage is
 * fine, or the sources' state cannot be read.
 */
export async function answerCoverage(ctx: ServingContext, result: SearchResult): Promise<Coverage | undefined> {
  const state = await sourceGaps(ctx);
  if (!state) return undefined;
  const countries = [...result.countries];
  const shown = ctx.index.status.shown;
  const upcoming = Object.fromEntries(COUNTRIES.map((c) => [c, shown[c]])) as Record<Country, number>;
  const few = countries.reduce((sum, c) => sum + upcoming[c], 0) < FEW_UPCOMING;
  const countryOf = new Map(ctx.feeds.map((feed) => [feed.source, feed.country]));
  const all = state.feeds.flatMap((feed) => gapsOf(feed, countries, countryOf.get(feed.source)));
  // A snapshot is the data's age, which the footer shows: it explains an answer only where it is old and the
  // catalogue thin.
  const oldBefore = new Date(ctx.now().getTime() - SNAPSHOT_OLD_DAYS * 86_400_000).toISOString().slice(0, 10);
  const old = (s: CoverageSource) => !s.snapshotOf || s.snapshotOf < oldBefore;
  const order = { 'not-read': 0, failing: 1, snapshot: 2 };
  const sources = all
    .filter((s) => s.state !== 'snapshot' || (few && old(s)))
    .sort((a, b) => order[a.state] - order[b.state]);
  if (sources.length === 0) return undefined;
  const code: CoverageCode = sources.some((s) => s.state === 'not-read')
    ? 'sources-not-read'
    : sources.some((s) => s.state === 'failing')
      ? 'sources-failing'
      : 'few-upcoming';
  const now = ctx.now();
  const months = Object.fromEntries(COUNTRIES.map((c) => [c, nextMonths(ctx, c, now)])) as Record<Country, string[]>;
  return { code, countries, sources, sync: state.sync, upcoming, months };
}
