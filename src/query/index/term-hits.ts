/**
 * The events matching one full-text query in a shard: their slots, how well each matches (BM25) and in which fields
 * (bits of `fieldBit`), in flat arrays ordered by slot; a slot is found by binary search.
 */
export class TermHits {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly fields: Uint8Array;
  /** The best score, 0 without hits. */
  readonly maxScore: number;

  /** `slots` ascending, with the score and fields of each. */
  constructor(slots: readonly number[], scores: readonly number[], fields: readonly number[]) {
    this.slots = Int32Array.from(slots);
    this.scores = Float64Array.from(scores);
    this.fields = Uint8Array.from(fields);
    this.maxScore = scores.reduce((best, score) => Math.max(best, score), 0);
  }

  get size(): number {
    return this.slots.length;
  }

  /** Where `slot` is in the arrays, -1 when it is no hit. */
  indexOf(slot: number): number {
    const { slots } = this;
    let lo = 0;
    let hi = slots.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = slots[mid]!;
      if (at === slot) return mid;
      if (at < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
