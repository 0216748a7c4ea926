import type { CountryShard } from '../index/country-shard.js';
import { cellKeysAround, WEEK_MS, weekOf } from '../index/parts.js';
import type { SlotList } from '../index/slot-list.js';
import type { DateWindowHit } from '../prompt/dates.js';
import type { AskedPlace } from './evidence.js';
import type { AskedField, Facet, PreparedQuery, PreparedTechnology } from './facet.js';

/**
 * How many slots a filter facet's `candidates` visit for an item, at most, read from the lengths of its lists
 * without visiting them: what a constraint's candidates cost, so the cheapest are walked and the rest only checked.
 */
const lengthOf = (list: SlotList | undefined) => list?.length ?? 0;

function topicsLength(shard: CountryShard, topics: readonly string[]): number {
  let n = 0;
  for (const t of topics) n += lengthOf(shard.byTopic.get(t));
  return n;
}

const COUNTS: Record<string, (shard: CountryShard, a: never, q: PreparedQuery) => number> = {
  technology: (shard, t: PreparedTechnology) => topicsLength(shard, t.topics) + t.hits.size,
  // With two constraints or more (the only rankings that count), a field's candidates are its own events.
  topic: (shard, f: AskedField) => topicsLength(shard, [f.slug]),
  place(shard, { place: here }: AskedPlace) {
    let n = lengthOf(shard.byPlace.get(here.geonameId));
    for (const cell of shard.cellsAround(here.lat, here.lng)) n += cell.length;
    return n;
  },
  window(shard, w: DateWindowHit) {
    const [first, end] = shard.stretchUnderWay(w.from.getTime(), w.to.getTime());
    return end - first + shard.longEvents.length;
  },
  format: (shard, f: string) =>
    lengthOf(shard.byFormat.get(f)) + (f === 'hybrid' ? 0 : lengthOf(shard.byFormat.get('hybrid'))),
  price: (shard, p: string) => lengthOf(shard.byPrice.get(p)),
  founders: (shard) => shard.founders().slots.length,
  seniority: (shard, s: string) => lengthOf(shard.bySeniority.get(s)),
  kind: (shard, k: string) => lengthOf(shard.byKind.get(k)),
};

/** At most how many slots the facets' candidates visit for everything they ask (Infinity for a facet not counted). */
export function candidateCount(facets: readonly Facet<unknown>[], shard: CountryShard, q: PreparedQuery): number {
  let n = 0;
  for (const facet of facets) {
    const count = COUNTS[facet.name];
    if (!count) return Number.POSITIVE_INFINITY;
    for (const a of facet.asks(q)) n += count(shard, a as never, q);
  }
  return n;
}

/** How many weeks of start order a window's parts name at most; a longer window is made from the whole country. */
const WEEKS_NAMED = 60;

/**
 * The parts of a country (see index/changes.ts) that hold a filter facet's candidates for an item: a write elsewhere
 * leaves an answer made from them as it is. Facets without (a technology's full-text hits, founders) are made from
 * the whole country.
 */
const PARTS: Record<string, (shard: CountryShard, a: never, q: PreparedQuery) => string[] | undefined> = {
  topic: (_shard, f: AskedField) => [`topic ${f.slug}`],
  place: (_shard, { place: here }: AskedPlace) => [
    `place ${here.geonameId}`,
    ...cellKeysAround(here.lat, here.lng).map((k) => `cell ${k}`),
  ],
  window(shard, w: DateWindowHit) {
    // The weeks the candidates start in: as far back as the longest event that is not long.
    const first = Math.floor((w.from.getTime() - shard.longestShortMs) / WEEK_MS);
    const last = Math.floor((w.to.getTime() - 1) / WEEK_MS);
    if (last - first > WEEKS_NAMED) return undefined;
    const parts = ['long', 'span'];
    for (let week = first; week <= last; week++) parts.push(weekOf(week * WEEK_MS));
    return parts;
  },
  format: (_shard, f: string) => [`format ${f}`, 'format hybrid'],
  price: (_shard, p: string) => [`price ${p}`],
  seniority: (_shard, s: string) => [`seniority ${s}`],
  kind: (_shard, k: string) => [`kind ${k}`],
};

/** The parts holding the facets' candidates for everything they ask, or undefined: the whole country. */
export function partsHolding(facets: readonly Facet<unknown>[], shard: CountryShard, q: PreparedQuery) {
  const out: string[] = [];
  for (const facet of facets) {
    const asks = facet.asks(q);
    if (asks.length === 0) continue;
    const parts = PARTS[facet.name];
    if (!parts) return undefined;
    for (const a of asks) {
      const some = parts(shard, a as never, q);
      if (!some) return undefined;
      out.push(...some);
    }
  }
  return out;
}
