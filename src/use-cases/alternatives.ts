import type { ServingContext } from '../context.js';
import type { Country } from '../places/countries.js';
import { COUNTRIES } from '../places/countries.js';
import { type RankedEvent, type SearchResult, search } from '../query/engine.js';
import type { CatalogueIndex } from '../query/index/catalogue-index.js';
import { endsAt } from '../query/index/indexed-event.js';
import { DEFAULT_LIMIT, type SearchParams } from '../query/params.js';

/**
 * What a country page offers when nothing there matches: online events hosted in the other countries (anyone can
 * join them), and the next events of the neighbouring countries — for the same search, or, when it matches nothing
 * anywhere, without it.
 */
export interface Alternatives {
  online: RankedEvent[];
  neighbours: { country: Country; total: number; next: RankedEvent[] }[];
  /** Whether the lists are for the same search; false when they had to leave it out. */
  sameSearch: boolean;
  /** Upcoming events in this country without the search (0 when the country has none at all). */
  hereWithoutSearch: number;
}

/** How many events each alternative list shows. */
const ONLINE_SHOWN = 5;
const NEIGHBOUR_SHOWN = 3;

/**
 * What a country page shows instead of "0 events" (a country page is never a dead end): online events hosted in
 * the other countries, which anyone can join, and the next events in the neighbouring countries — ch, de and at
 * all border each other, so the neighbours are the other two. First for the same search (less its city, which
 * belongs to this country); when that finds nothing anywhere either, for the countries' plain listings.
 */
export function findAlternatives(ctx: ServingContext, result: SearchResult): Alternatives {
  const { index } = ctx;
  const now = ctx.now();
  const { params } = result;
  const here = result.country;
  const hereWithoutSearch = search(index, plainListing(params, here), now).total;
  const same = alternativesFor(index, params, result, now);
  if (same.online.length > 0 || same.neighbours.some((n) => n.total > 0))
    return { ...same, sameSearch: true, hereWithoutSearch };
  return { ...alternativesFor(index, plainListing(params, here), result, now), sameSearch: false, hereWithoutSearch };
}

function alternativesFor(index: CatalogueIndex, params: SearchParams, result: SearchResult, now: Date) {
  const others = COUNTRIES.filter((c) => c !== result.country);
  const elsewhere = { ...params, city: undefined, cityInput: undefined, near: false, countryExplicit: true };
  // Online and hybrid events are open to anyone; a search for in-person events wants none of them.
  const online =
    params.format === 'in_person'
      ? []
      : soonest(
          others.flatMap((country) =>
            (['online', 'hybrid'] as const).flatMap(
              (format) => search(index, { ...elsewhere, country, format, limit: DEFAULT_LIMIT }, now).events,
            ),
          ),
          ONLINE_SHOWN,
        );
  // An online event shown above is not repeated among its country's next events.
  const shown = new Set(online.map((e) => e.entry.event.id));
  const neighbours = others.map((country) => {
    const found = search(index, { ...elsewhere, country, limit: DEFAULT_LIMIT }, now);
    const next = soonest(
      found.events.filter((e) => !shown.has(e.entry.event.id)),
      NEIGHBOUR_SHOWN,
    );
    return { country, total: found.total, next };
  });
  return { online, neighbours };
}

/** A country's upcoming events, nothing else asked. */
function plainListing(params: SearchParams, country: SearchParams['country']): SearchParams {
  return {
    ...params,
    country,
    countryExplicit: true,
    q: '',
    topics: [],
    seniority: [],
    city: undefined,
    cityInput: undefined,
    near: false,
    format: undefined,
    org: undefined,
    who: undefined,
    from: undefined,
    to: undefined,
    plain: {},
    cursor: undefined,
    limit: DEFAULT_LIMIT,
  };
}

/** The first `n` to start (those already running first), each event once. */
function soonest(events: RankedEvent[], n: number): RankedEvent[] {
  const seen = new Set<string>();
  return events
    .filter((e) => !seen.has(e.entry.event.id) && seen.add(e.entry.event.id))
    .sort(
      (a, b) =>
        a.entry.event.start.getTime() - b.entry.event.start.getTime() || endsAt(a.entry.event) - endsAt(b.entry.event),
    )
    .slice(0, n);
}
