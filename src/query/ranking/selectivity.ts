import type { Place } from '../../places/gazetteer.js';
import type { CountryShard } from '../index/country-shard.js';
import { cellKeysAround, PART, WEEK_MS } from '../index/parts.js';
import { orInto } from '../index/slot-bits.js';
import type { ReadonlyPostings } from '../index/slot-list.js';
import type { DateWindowHit } from '../prompt/dates.js';
import { visitList } from './evidence.js';
import type { Facet, PreparedQuery } from './facet.js';

/**
 * What a constraint's candidates cost and which parts of a country hold them, from its facets' own rows
 * (facets.ts, `count` and `parts`): the cheapest constraints are walked and the rest only checked, and a write
 * elsewhere leaves an answer made from those parts as it is.
 */

/** At most how many slots the facets' candidates visit for everything they ask (Infinity for a facet not counted). */
export function candidateCount(facets: readonly Facet<unknown>[], shard: CountryShard, q: PreparedQuery): number {
  let n = 0;
  for (const facet of facets) {
    if (!facet.count) return Number.POSITIVE_INFINITY;
    for (const a of facet.asks(q)) n += facet.count(shard, a, q);
  }
  return n;
}

/** The parts holding the facets' candidates for everything they ask, or undefined: the whole country. */
export function partsHolding(facets: readonly Facet<unknown>[], shard: CountryShard, q: PreparedQuery) {
  const out: string[] = [];
  for (const facet of facets) {
    const asks = facet.asks(q);
    if (asks.length === 0) continue;
    if (!facet.parts) return undefined;
    for (const a of asks) {
      const some = facet.parts(shard, a, q);
      if (!some) return undefined;
      out.push(...some);
    }
  }
  return out;
}

// ---------------------------------------------------------------- what the facets' rows read off posting lists

export const listLength = <K>(lists: ReadonlyPostings<K>, key: K) => lists.get(key)?.length ?? 0;

export const topicsLength = (shard: CountryShard, topics: readonly string[]) =>
  topics.reduce((n, t) => n + listLength(shard.byTopic, t), 0);

/** A filter whose item names one posting list of the shard: its candidates, their bits, their count and part. */
export function oneList<A extends string>(
  lists: (shard: CountryShard) => ReadonlyPostings<string>,
  part: (a: A) => string,
) {
  return {
    candidates: (shard, a, _q, visit) => visitList(lists(shard).get(a), visit),
    fill: (shard, a, _q, bits) => orInto(bits, lists(shard).bits(a)),
    count: (shard, a) => listLength(lists(shard), a),
    parts: (_shard, a) => [part(a)],
  } satisfies Pick<Facet<A>, 'candidates' | 'fill' | 'count' | 'parts'>;
}

export function placeCount(shard: CountryShard, here: Place): number {
  let n = listLength(shard.byPlace, here.geonameId);
  for (const cell of shard.cellsAround(here.lat, here.lng)) n += cell.length;
  return n;
}

export const placeParts = (here: Place) => [
  PART.place(here.geonameId),
  ...cellKeysAround(here.lat, here.lng).map(PART.cell),
];

export function windowCount(shard: CountryShard, w: DateWindowHit): number {
  const [first, end] = shard.stretchUnderWay(w.from.getTime(), w.to.getTime());
  return end - first + shard.longEvents.length;
}

/** How many weeks of start order a window's parts name at most; a longer window is made from the whole country. */
const WEEKS_NAMED = 60;

export function windowParts(shard: CountryShard, w: DateWindowHit): string[] | undefined {
  // The weeks the candidates start in: as far back as the longest event that is not long.
  const first = Math.floor((w.from.getTime() - shard.longestShortMs) / WEEK_MS);
  const last = Math.floor((w.to.getTime() - 1) / WEEK_MS);
  if (last - first > WEEKS_NAMED) return undefined;
  const parts: string[] = [PART.long, PART.span];
  for (let week = first; week <= last; week++) parts.push(PART.week(week * WEEK_MS));
  return parts;
}
