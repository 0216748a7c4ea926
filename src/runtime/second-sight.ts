/**
 * Admission on second sight (the "doorkeeper" of TinyLFU): a cache keeps an answer only when its key was asked for
 * before, among the last `window` to 2 × `window` distinct keys. One-off requests — a stream of distinct prompts, a
 * crawler — are answered but not kept, so they neither push out what is asked for again nor churn memory: a kept
 * answer lives long enough to reach V8's old generation, and one-off answers piling up there as garbage bring the
 * next full collection sooner (docs/performance.md, "What each piece of tuning buys"). An answer asked for twice is
 * kept from the second time on.
 *
 * `window` is the number of answers the cache keeps: a key asked again only after more others than that would be
 * pushed out before it is asked a third time, so keeping it buys nothing and costs a promotion; remembered longer, a
 * stream of prompts coming back too seldom is all kept and never served (docs/performance.md, the same table).
 *
 * Keys are remembered by a 30-bit hash, in two generations of sets of small integers (V8 keeps an integer below 2^30
 * in the set's own table, where a larger one would be an object of its own): nothing per key for the collector to
 * trace or move, and a rare collision only keeps an answer a little early.
 */
export class SecondSight {
  #current = new Set<number>();
  #previous = new Set<number>();

  constructor(private readonly window: number) {}

  /** Whether `key` was asked for lately; notes that it has been asked for now. */
  admit(key: string): boolean {
    const hash = fnv1a(key);
    if (this.#current.has(hash)) return true;
    const seen = this.#previous.has(hash);
    if (this.#current.size >= this.window) {
      this.#previous = this.#current;
      this.#current = new Set();
    }
    this.#current.add(hash);
    return seen;
  }
}

/** FNV-1a over the UTF-16 code units, its top 30 bits: cheap, and spread well enough for a doorkeeper. */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 2;
}
