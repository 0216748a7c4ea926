/**
 * One term's postings in one field: slots ascending, each followed by how often the term occurs there. A flat array
 * of small integers: a catalogue holds millions of postings, mostly in lists of one or two, where a Map per list would
 * cost several times the memory.
 */
export type Postings = number[];

/** Where `slot` is in `list`, or where it would go (an even index). */
function positionOf(list: Postings, slot: number): number {
  let lo = 0;
  let hi = list.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[2 * mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  return 2 * lo;
}

/** Counts one more occurrence in `slot` (documents are mostly added in ascending slots: then an append). */
export function countIn(list: Postings, slot: number): void {
  const last = list.length - 2;
  if (last >= 0 && list[last] === slot) list[last + 1]!++;
  else if (last < 0 || list[last]! < slot) list.push(slot, 1);
  else {
    const at = positionOf(list, slot);
    if (list[at] === slot) list[at + 1]!++;
    else list.splice(at, 0, slot, 1);
  }
}

/** Removes `slot` from `list`; its size after. */
export function removeFrom(list: Postings, slot: number): number {
  const at = positionOf(list, slot);
  if (list[at] === slot) list.splice(at, 2);
  return list.length / 2;
}
