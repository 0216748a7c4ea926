import type { CountryShard } from '../index/country-shard.js';

/**
 * The order of every ranked listing, written once: higher score first, then earlier start, then lower id. Ids are
 * unique, so the order is total and a page key names one place in it. Negative when `a` comes first; 0 on a tie of
 * score and start (then `byId` decides). Compared, not subtracted: scores may be infinite.
 */
export function byScoreThenStart(scoreA: number, startA: number, scoreB: number, startB: number): number {
  if (scoreA !== scoreB) return scoreA > scoreB ? -1 : 1;
  if (startA !== startB) return startA < startB ? -1 : 1;
  return 0;
}

export const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Slot `a` of shard `x`, scoring `scoreA`, against slot `b` of shard `y`, scoring `scoreB`, in a ranked listing's
 * order (ids read only on a tie).
 */
export function compareSlots(x: CountryShard, a: number, scoreA: number, y: CountryShard, b: number, scoreB: number) {
  return byScoreThenStart(scoreA, x.startMs[a]!, scoreB, y.startMs[b]!) || byId(x.at(a).event.id, y.at(b).event.id);
}
