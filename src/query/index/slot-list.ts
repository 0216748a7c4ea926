import { type ReadonlySlotBits, SlotBits } from './slot-bits.js';

/** A list of slots as readers outside the shard see it: `items[0 .. length)`, never written. */
export interface ReadonlySlotList {
  readonly items: ArrayLike<number>;
  readonly length: number;
  has(slot: number): boolean;
  toArray(): number[];
}

/** Posting lists as readers outside the shard see them: only the shard's `add` and `remove` change them. */
export interface ReadonlyPostings<K> {
  get(key: K): ReadonlySlotList | undefined;
  bits(key: K): ReadonlySlotBits | undefined;
  keys(): IterableIterator<K>;
  readonly size: number;
}

/**
 * A set of slots (small non-negative integers) kept sorted in a typed array with room to grow: the posting list of
 * one value in a country shard. Inserting or deleting one slot is a binary search and a move of the slots after it
 * (`copyWithin`, a memmove): at most a few hundred kilobytes for the longest list of a 100k catalogue, microseconds,
 * and nothing is rebuilt. Readers loop over `items` up to `length`.
 */
export class SlotList implements ReadonlySlotList {
  /** The slots, ascending, in `items[0 .. length)`; the rest is room to grow. */
  items: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.items = new Int32Array(capacity);
  }

  /** A list of ascending slots, with no room to spare (a bulk-built list grows on its first insert). */
  static fromSorted(slots: readonly number[]): SlotList {
    const list = new SlotList(0);
    list.items = Int32Array.from(slots);
    list.length = slots.length;
    return list;
  }

  /** Where `slot` is, or the one's complement of where it would go. */
  private find(slot: number): number {
    const items = this.items;
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = items[mid]!;
      if (at < slot) lo = mid + 1;
      else if (at > slot) hi = mid - 1;
      else return mid;
    }
    return ~lo;
  }

  has(slot: number): boolean {
    return this.find(slot) >= 0;
  }

  /** Adds `slot`; false when it was there already. */
  insert(slot: number): boolean {
    let at: number;
    if (this.length === 0 || this.items[this.length - 1]! < slot) {
      at = this.length;
    } else {
      const found = this.find(slot);
      if (found >= 0) return false;
      at = ~found;
    }
    this.place(at, slot);
    return true;
  }

  /** Puts `slot` at position `at`, moving the rest up (growing the array when full). */
  protected place(at: number, slot: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(Math.max(4, Math.ceil(this.length * 1.5)));
      grown.set(this.items.subarray(0, this.length));
      this.items = grown;
    }
    if (at < this.length) this.items.copyWithin(at + 1, at, this.length);
    this.items[at] = slot;
    this.length++;
  }

  /** Removes `slot`; false when it was not there. */
  delete(slot: number): boolean {
    const at = this.find(slot);
    if (at < 0) return false;
    this.items.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }

  /** The slots as a plain array (tests and diagnostics). */
  toArray(): number[] {
    return Array.from(this.items.subarray(0, this.length));
  }
}

/**
 * Posting lists by value: `add` and `remove` keep each list sorted, and drop a list once it is empty. With `withBits`
 * (for values few enough that a bit per slot each costs little) each list has its slots as bits too.
 */
export class Postings<K> implements ReadonlyPostings<K> {
  private readonly lists = new Map<K, SlotList>();
  private readonly bitSets: Map<K, SlotBits> | undefined;

  constructor(withBits = false) {
    this.bitSets = withBits ? new Map() : undefined;
  }

  get(key: K): SlotList | undefined {
    return this.lists.get(key);
  }

  /** The slots of `key` as bits (only with `withBits`). */
  bits(key: K): SlotBits | undefined {
    return this.bitSets?.get(key);
  }

  add(key: K, slot: number): void {
    let list = this.lists.get(key);
    if (!list) {
      list = new SlotList();
      this.lists.set(key, list);
    }
    list.insert(slot);
    if (this.bitSets) {
      let bits = this.bitSets.get(key);
      if (!bits) {
        bits = new SlotBits();
        this.bitSets.set(key, bits);
      }
      bits.add(slot);
    }
  }

  remove(key: K, slot: number): void {
    const list = this.lists.get(key);
    if (!list?.delete(slot)) return;
    this.bitSets?.get(key)?.delete(slot);
    if (list.length === 0) {
      this.lists.delete(key);
      this.bitSets?.delete(key);
    }
  }

  clear(): void {
    this.lists.clear();
    this.bitSets?.clear();
  }

  keys(): IterableIterator<K> {
    return this.lists.keys();
  }

  get size(): number {
    return this.lists.size;
  }
}

/** Slots sorted by what they hold (a shard's start order), not by number: `compare` orders two slots. */
export class OrderedSlots extends SlotList {
  constructor(private readonly compare: (a: number, b: number) => number) {
    super();
  }

  /** Where `slot` is, or the one's complement of where it would go. */
  private position(slot: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(this.items[mid]!, slot);
      if (c < 0) lo = mid + 1;
      else if (c > 0) hi = mid - 1;
      else return mid;
    }
    return ~lo;
  }

  override has(slot: number): boolean {
    return this.position(slot) >= 0;
  }

  override insert(slot: number): boolean {
    // Appending in order (loading, most new events) needs no search.
    const found =
      this.length === 0 || this.compare(this.items[this.length - 1]!, slot) < 0 ? ~this.length : this.position(slot);
    if (found >= 0) return false;
    this.place(~found, slot);
    return true;
  }

  override delete(slot: number): boolean {
    const at = this.position(slot);
    if (at < 0) return false;
    this.items.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }
}
