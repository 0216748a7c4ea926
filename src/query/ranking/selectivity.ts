import type { CountryShard } from '../index/country-shard.js';
import type { SlotList } from '../index/slot-list.js';
import type { DateWindowHit } from '../prompt/dates.js';
import type { AskedPlace } from './evidence.js';
import type { AskedField, Facet, PreparedQuery, PreparedTechnology } from './facet.js';
import { neighboursOf } from './neighbours.js';

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
  topic: (shard, f: AskedField) => topicsLength(shard, [f.slug, ...neighboursOf(f.slug)]),
  place(shard, { place: here }: AskedPlace) {
    let n = lengthOf(shard.byPlace.get(here.geonameId));
    for (const cell of shard.cellsAround(here.lat, here.lng)) n += cell.length;
    return n;
  },
  window: (shard, w: DateWindowHit) =>
    shard.firstStartingAt(w.to.getTime()) -
    shard.firstStartingAt(w.from.getTime() - shard.longestShortMs) +
    shard.longEvents.length,
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
