/**
 * One term's postings in one field, with the part of Map's interface MiniSearch uses (size, get, set, has, delete,
 * keys, entries, iteration), in two typed arrays: document ids ascending and their term frequencies, about 5 bytes a
 * posting where a Map entry takes about 37. MiniSearch numbers documents in the order they are added, so adding is
 * appending, and iterating in id order is iterating in insertion order, as a Map would. A deleted posting is a zero
 * frequency until the next append compacts the list (never during an iteration: deleting is what MiniSearch does
 * while iterating, appending never).
 */
export class PostingList {
  private ids: Int32Array;
  private freqs: Uint8Array | Uint32Array;
  /** Slots in use, deleted ones included. */
  private length = 0;
  /** Postings not deleted. */
  private live = 0;
  /** The slot of the id the last iteration step returned: MiniSearch asks `get` for exactly that id next. */
  private cursor = 0;

  private constructor(capacity: number) {
    this.ids = new Int32Array(capacity);
    this.freqs = new Uint8Array(capacity);
  }

  /** A copy of `map`, or undefined when its keys are not ascending integers (its iteration order would change). */
  static from(map: Map<number, number>): PostingList | undefined {
    const list = new PostingList(Math.ceil(map.size * 1.5));
    let previous = -1;
    for (const [id, freq] of map) {
      if (!Number.isInteger(id) || id <= previous || id > 0x7fffffff || !(freq > 0)) return undefined;
      list.put(list.length, id, freq);
      list.length++;
      list.live++;
      previous = id;
    }
    return list;
  }

  get size(): number {
    return this.live;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  get(id: number): number | undefined {
    const slot = this.find(id);
    if (slot < 0) return undefined;
    const freq = this.freqs[slot]!;
    return freq === 0 ? undefined : freq;
  }

  set(id: number, freq: number): this {
    if (!Number.isInteger(freq) || freq <= 0 || !Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
      throw new RangeError(`PostingList: cannot hold ${id} → ${freq}`);
    }
    const length = this.length;
    if (length === 0 || id > this.ids[length - 1]!) {
      if (length - this.live > this.live) this.compact();
      if (this.length === this.ids.length) this.grow(Math.ceil(this.length * 1.5) + 4);
      this.put(this.length, id, freq);
      this.length++;
      this.live++;
      return this;
    }
    let slot = this.find(id);
    if (slot < 0) {
      // An id below the last one that is not in the list (MiniSearch never adds one): insert it in its place.
      if (this.length === this.ids.length) this.grow(Math.ceil(this.length * 1.5) + 4);
      slot = ~slot;
      this.ids.copyWithin(slot + 1, slot, this.length);
      this.freqs.copyWithin(slot + 1, slot, this.length);
      this.length++;
      this.freqs[slot] = 0;
    }
    if (this.freqs[slot] === 0) this.live++;
    this.put(slot, id, freq);
    return this;
  }

  /** `set` of an id above every id in the list (a new document's posting), with fewer checks. */
  append(id: number, freq: number): void {
    const length = this.length;
    if ((length > 0 && id <= this.ids[length - 1]!) || !(freq > 0) || id > 0x7fffffff) {
      this.set(id, freq);
      return;
    }
    if (length - this.live > this.live) this.compact();
    if (this.length === this.ids.length) this.grow(Math.ceil(this.length * 1.5) + 4);
    this.put(this.length, id, freq);
    this.length++;
    this.live++;
  }

  delete(id: number): boolean {
    const slot = this.find(id);
    if (slot < 0 || this.freqs[slot] === 0) return false;
    this.freqs[slot] = 0;
    this.live--;
    return true;
  }

  keys(): IterableIterator<number> {
    return this.iterate((slot) => this.ids[slot]!);
  }

  values(): IterableIterator<number> {
    return this.iterate((slot) => this.freqs[slot]!);
  }

  entries(): IterableIterator<[number, number]> {
    return this.iterate((slot): [number, number] => [this.ids[slot]!, this.freqs[slot]!]);
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Each posting not deleted, in id order, as iterating `entries()` gives them, without an object per step. */
  forEachPosting(visit: (id: number, freq: number) => void): void {
    const { ids, freqs, length } = this;
    for (let slot = 0; slot < length; slot++) {
      const freq = freqs[slot]!;
      if (freq !== 0) visit(ids[slot]!, freq);
    }
  }

  forEach(callback: (freq: number, id: number, list: this) => void): void {
    for (const [id, freq] of this.entries()) callback(freq, id, this);
  }

  private iterate<V>(value: (slot: number) => V): IterableIterator<V> {
    let slot = 0;
    const iterator: IterableIterator<V> = {
      next: (): IteratorResult<V> => {
        while (slot < this.length && this.freqs[slot] === 0) slot++;
        if (slot >= this.length) return { done: true, value: undefined };
        this.cursor = slot;
        return { done: false, value: value(slot++) };
      },
      [Symbol.iterator]: () => iterator,
    };
    return iterator;
  }

  /** The slot of `id`, or the one's complement of where it would go. */
  private find(id: number): number {
    const ids = this.ids;
    if (this.cursor < this.length && ids[this.cursor] === id) return this.cursor;
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = ids[mid]!;
      if (at < id) low = mid + 1;
      else if (at > id) high = mid - 1;
      else return mid;
    }
    return ~low;
  }

  private put(slot: number, id: number, freq: number): void {
    if (freq > 0xff && this.freqs instanceof Uint8Array) this.freqs = Uint32Array.from(this.freqs);
    this.ids[slot] = id;
    this.freqs[slot] = freq;
  }

  private grow(capacity: number): void {
    const ids = new Int32Array(capacity);
    ids.set(this.ids.subarray(0, this.length));
    const freqs = this.freqs instanceof Uint8Array ? new Uint8Array(capacity) : new Uint32Array(capacity);
    freqs.set(this.freqs.subarray(0, this.length));
    this.ids = ids;
    this.freqs = freqs;
  }

  /** Drops deleted postings (only from `set`, which never runs during an iteration of this list). */
  private compact(): void {
    let to = 0;
    for (let from = 0; from < this.length; from++) {
      const freq = this.freqs[from]!;
      if (freq === 0) continue;
      this.ids[to] = this.ids[from]!;
      this.freqs[to] = freq;
      to++;
    }
    this.length = to;
    this.cursor = 0;
  }
}
