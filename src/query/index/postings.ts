/**
 * One term's postings in one field: for each slot, ascending, one number holding the slot and how often the term
 * occurs there (`slot * FREQUENCIES + frequency`). A flat array of small integers: a catalogue holds millions of
 * postings, mostly in lists of one or two, where a Map or a typed array per list would cost several times the memory.
 */
export type Postings = number[];

/**
 * Frequencies are counted up to 1023 (BM25 saturates long before). Postings stay small integers in V8 while slots
 * stay below 2^21, two million events a country; past that they are still exact, only larger.
 */
const FREQUENCIES = 1024;

export const slotOf = (posting: number) => Math.floor(posting / FREQUENCIES);
export const frequencyOf = (posting: number) => posting % FREQUENCIES;

/** Where `slot` is in `list`, or where it would go. */
function positionOf(list: Postings, slot: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slotOf(list[mid]!) < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Counts one more occurrence in `slot` (documents are mostly added in ascending slots: then an append). */
export function countIn(list: Postings, slot: number): void {
  let at = list.length - 1;
  if (at < 0 || slotOf(list[at]!) < slot) {
    list.push(slot * FREQUENCIES + 1);
    return;
  }
  if (slotOf(list[at]!) !== slot) at = positionOf(list, slot);
  if (slotOf(list[at]!) !== slot) list.splice(at, 0, slot * FREQUENCIES + 1);
  else if (frequencyOf(list[at]!) < FREQUENCIES - 1) list[at]!++;
}

/** Removes `slot` from `list`; its size after. */
export function removeFrom(list: Postings, slot: number): number {
  const at = positionOf(list, slot);
  if (at < list.length && slotOf(list[at]!) === slot) list.splice(at, 1);
  return list.length;
}
