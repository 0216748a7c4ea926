import { Lanes } from './slot-bits.js';

/**
 * One query's scratch over one country shard, as Lucene keeps a search's collector apart from its index: the score of
 * each slot ranked, stamps marking the slots a walk has visited, and the bitsets of a ranking's constraints. A query
 * takes one with `CountryShard.search()` and gives it back with `CountryShard.release()` once its answer is made (the
 * plan does both, see plan.ts); the shard keeps released ones for later queries, so that a query at 100k events
 * allocates no buffers of a slot each. Two queries in progress at once hold two searches.
 */
export class ShardSearch {
  #score = new Float64Array(0);
  #stamp = new Uint32Array(0);
  #epoch = 0;
  /** Scratch bitsets, one for each constraint of a ranking (see rank-shard.ts, `bySelectivity`). */
  readonly lanes = new Lanes();
  /** Whether a query holds it (taken and not yet released). */
  #held = false;

  /** The score of each slot this query ranked; other slots hold what an earlier query left. */
  get score(): Float64Array {
    return this.#score;
  }

  /** The stamp of each slot, `nextEpoch`'s value for those visited since it was called. */
  get stamp(): Uint32Array {
    return this.#stamp;
  }

  /** Taken by a query, with room for `slots` slots: its shard's capacity then (the buffers only grow). */
  take(slots: number): this {
    this.#held = true;
    if (this.#score.length < slots) {
      this.#score = new Float64Array(slots);
      this.#stamp = new Uint32Array(slots);
      this.#epoch = 0;
    }
    return this;
  }

  /** Given back by the query that took it: it must not read or write it again. */
  giveBack(): void {
    if (!this.#held) throw new Error('release: this search was released already');
    this.#held = false;
  }

  /** Starts a walk marking the slots it visits; returns the stamp it marks them with. */
  nextEpoch(): number {
    if (this.#epoch === 0xffffffff) {
      this.#stamp.fill(0);
      this.#epoch = 0;
    }
    return ++this.#epoch;
  }
}
