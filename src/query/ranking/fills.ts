import type { Place } from '../../places/gazetteer.js';
import type { CountryShard } from '../index/country-shard.js';
import { orInto, type SlotBits, setAll } from '../index/slot-bits.js';
import type { DateWindowHit } from '../prompt/dates.js';

/**
 * A filter's candidates as bits (Facet.fill): the same slots its `candidates` visit, set in a bitset a word at a time
 * from the shard's bits of few-valued lists, or from its lists in tight loops. A ranking of several constraints
 * combines one bitset a constraint (rank-shard.ts, `bySelectivity`).
 */

/** The events carrying any of `topics`, and `also` (a technology's full-text hits). */
export function fillTopics(shard: CountryShard, topics: readonly string[], bits: Uint32Array, also?: SlotBits): void {
  for (const topic of topics) orInto(bits, shard.byTopic.bits(topic));
  orInto(bits, also);
}

/** The events a date window's candidates visit (fits.ts, `visitWindow`): a stretch of start order and long events. */
export function fillWindow(shard: CountryShard, w: DateWindowHit, bits: Uint32Array): void {
  const [first, end] = shard.stretchUnderWay(w.from.getTime(), w.to.getTime());
  const { items } = shard.order;
  const { long } = shard;
  for (let i = first; i < end; i++) {
    const slot = items[i]!;
    if (long[slot] === 0) bits[slot >>> 5]! |= 1 << (slot & 31);
  }
  setAll(bits, shard.longEvents.items, shard.longEvents.length);
}

/** The events at a place and in the grid cells around it (evidence.ts, `visitAround`). */
export function fillAround(shard: CountryShard, here: Place, bits: Uint32Array): void {
  const at = shard.byPlace.get(here.geonameId);
  if (at) setAll(bits, at.items, at.length);
  for (const cell of shard.cellsAround(here.lat, here.lng)) setAll(bits, cell.items, cell.length);
}
