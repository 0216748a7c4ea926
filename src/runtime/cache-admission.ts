import { LRUCache } from 'lru-cache';

/**
 * Admission on second sight (the "doorkeeper" of TinyLFU): a cache keeps an answer only when its key was asked for
 * before, among the last `window` distinct keys. One-off requests — a long tail of distinct prompts, a crawler — are
 * answered but not kept, so they neither push out what is asked for again nor churn memory: a kept answer lives
 * long enough to reach V8's old generation, and a stream of one-off answers piled up there as garbage (at 100k events,
 * over 100 MB between full collections). An answer asked for twice is kept from the second time on.
 */
export class SecondSight {
  private readonly seen: LRUCache<string, true>;

  constructor(window: number) {
    this.seen = new LRUCache({ max: window });
  }

  /** Whether `key` was asked for before; notes that it has been asked for now. */
  admit(key: string): boolean {
    if (this.seen.get(key)) return true;
    this.seen.set(key, true);
    return false;
  }
}
