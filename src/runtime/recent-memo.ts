import { LRUCache } from 'lru-cache';

/**
 * Values made from an object, kept for the `max` objects asked about most recently: what renderers compute once per
 * event revision (its VEVENT, its "when" line in each language). A WeakMap keyed by events would keep a value for
 * every event ever shown for as long as the read index holds it (docs/performance.md, "What each piece of tuning
 * buys"), and every entry of a WeakMap is an ephemeron the garbage collector must trace with its key on each full
 * collection.
 * Keys are held strongly: a superseded revision stays until it falls out, at most `max` of them.
 */
export class RecentMemo<K extends object, V extends {}> {
  readonly #values: LRUCache<K, V>;

  constructor(max: number) {
    this.#values = new LRUCache<K, V>({ max });
  }

  /** The value made for `key`, made by `make` when none is kept or the kept one is not `current`. */
  get(key: K, make: (key: K) => V, current?: (value: V) => boolean): V {
    let value = this.#values.get(key);
    if (value === undefined || (current && !current(value))) {
      value = make(key);
      this.#values.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.#values.size;
  }
}
