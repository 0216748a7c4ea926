import MiniSearch from 'minisearch';

/** A term's postings per field: field id → short document id → term frequency (MiniSearch's own layout). */
type FieldTermData = Map<number, Map<number, number>>;

/**
 * A field value's terms as `add` derives them: each processed term once, in order of first occurrence, with its
 * number of occurrences; and the number of distinct raw tokens (MiniSearch's field length).
 */
interface FieldTerms {
  terms: string[];
  counts: number[];
  unique: number;
  /** The terms' posting lists in this field (`lists[i]` for `terms[i]`), valid during the `addAll` call `call`. */
  lists: Postings[];
  call: number;
}

type Postings = Map<number, number> | PostingList;

/** How often a field's values recur: the memo is dropped for fields where they do not (titles, mostly). */
interface MemoStats {
  values: Map<string, FieldTerms>;
  hits: number;
  misses: number;
}

/** Distinct field values remembered between `addAll` calls of one bulk load; beyond this the memo starts over. */
const MEMO_LIMIT = 50_000;
/** Field values looked up before the memo of a field may be given up as useless. */
const MEMO_TRIAL = 2_000;

/** Posting lists this long become a `PostingList` (below, a Map is smaller than two typed arrays). */
const COMPACT_FROM = 32;

/**
 * MiniSearch with a faster, smaller `addAll` for bulk loads (the whole catalogue at start-up). It builds the index
 * that calling `add` per document builds, term for term and score for score (test/search-index.test.ts compares
 * serialised indexes and search results), with less work and memory:
 * - a field value seen before (a city, venue, organiser or description recurs thousands of times) is not tokenised
 *   and processed again (fields whose values rarely recur, titles mostly, are not remembered);
 * - each field value's posting lists are found in the radix tree once per call rather than once per occurrence;
 * - long posting lists are `PostingList`s rather than Maps (5 bytes a posting instead of about 37);
 * - documents with the same field lengths share one array of them.
 * At 100k events: about 1 s instead of 5, and 15 MB of postings instead of 120 MB of Maps. `forgetBulkMemo` drops
 * what is remembered between calls when the load is over.
 */
export class BulkMiniSearch<T> extends MiniSearch<T> {
  private memo: MemoStats[] = [];
  private calls = 0;
  private readonly lengthsMemo = new Map<string, number[]>();
  /** Posting lists that could not be compacted (ids not ascending; never seen in practice). */
  private readonly keepAsMap = new WeakSet<Map<number, number>>();

  override addAll(documents: readonly T[]): void {
    const { extractField, stringifyField, fields, idField, storeFields } = this._options;
    if (storeFields && storeFields.length > 0) {
      for (const document of documents) this.add(document);
      return;
    }
    // Posting lists are resolved once per field value and call, and stay the same objects until the call ends (it is
    // synchronous: nothing removes a term meanwhile, vacuuming is async); long Maps become PostingLists at the end.
    const touched = new Map<string, FieldTermData>();
    const call = ++this.calls;
    const fieldIds = fields.map((field) => this._fieldIds[field]!);
    for (const document of documents) {
      const id = extractField(document, idField);
      if (id == null) throw new Error(`MiniSearch: document does not have ID field "${idField}"`);
      if (this._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${id}`);
      const shortId = this._nextId;
      this._idToShortId.set(id, shortId);
      this._documentIds.set(shortId, id);
      this._documentCount += 1;
      this._nextId += 1;
      const lengths: number[] = [];
      for (let f = 0; f < fields.length; f++) {
        const field = fields[f]!;
        const value = extractField(document, field);
        if (value == null) continue;
        const fieldId = fieldIds[f]!;
        const text = stringifyField(value, field);
        let memo = this.memo[fieldId];
        if (!memo) {
          memo = { values: new Map(), hits: 0, misses: 0 };
          this.memo[fieldId] = memo;
        }
        let derived = memo.values.get(text);
        if (derived) {
          memo.hits++;
        } else {
          derived = this.derive(text, field);
          if (++memo.misses > MEMO_TRIAL && memo.misses > memo.hits * 4) {
            memo.values.clear(); // values rarely recur in this field: looking them up costs more than it saves
          } else {
            if (memo.values.size >= MEMO_LIMIT) memo.values.clear();
            memo.values.set(text, derived);
          }
        }
        this.addLength(lengths, fieldId, this._documentCount - 1, derived.unique);
        const { terms: fieldTerms, counts, lists } = derived;
        if (derived.call !== call) {
          for (let t = 0; t < fieldTerms.length; t++) {
            const term = fieldTerms[t]!;
            let data = touched.get(term);
            if (!data) {
              data = this._index.fetch(term, () => new Map());
              touched.set(term, data);
            }
            let list: Postings | undefined = data.get(fieldId);
            if (!list) {
              list = new Map();
              data.set(fieldId, list);
            }
            lists[t] = list;
          }
          derived.call = call;
        }
        // A new document: its postings are new, each set once to its final count (as `add` counting up leaves it).
        for (let t = 0; t < fieldTerms.length; t++) {
          const list = lists[t]!;
          if (list instanceof PostingList) list.append(shortId, counts[t]!);
          else list.set(shortId, counts[t]!);
        }
      }
      if (lengths.length > 0) this._fieldLength.set(shortId, this.sharedLengths(lengths));
    }
    for (const data of touched.values()) {
      for (const [fieldId, list] of data) {
        if (!(list instanceof Map) || list.size < COMPACT_FROM || this.keepAsMap.has(list)) continue;
        const compact = PostingList.from(list);
        if (compact) data.set(fieldId, compact as unknown as Map<number, number>);
        else this.keepAsMap.add(list);
      }
    }
  }

  /** What `add` derives from a field value: its processed terms with their counts, and its field length. */
  private derive(text: string, field: string): FieldTerms {
    const { tokenize, processTerm } = this._options;
    const tokens = tokenize(text, field);
    const counted = new Map<string, number>();
    const count = (t: string) => counted.set(t, (counted.get(t) ?? 0) + 1);
    for (const token of tokens) {
      const p = processTerm(token, field);
      if (Array.isArray(p)) {
        for (const t of p) count(t);
      } else if (p) {
        count(p);
      }
    }
    return {
      terms: [...counted.keys()],
      counts: [...counted.values()],
      unique: new Set(tokens).size,
      lists: [],
      call: 0,
    };
  }

  /** Frees what `addAll` remembers between calls; call when a bulk load is done. */
  forgetBulkMemo(): void {
    this.memo = [];
    this.lengthsMemo.clear();
  }

  /**
   * One array per distinct combination of field lengths, shared by the documents that have it (a few hundred
   * arrays instead of one of 150 bytes per document). MiniSearch writes a document's lengths only while adding it,
   * and this class writes them before sharing.
   */
  private sharedLengths(lengths: number[]): number[] {
    const key = lengths.join(',');
    const shared = this.lengthsMemo.get(key);
    if (shared) return shared;
    if (this.lengthsMemo.size >= MEMO_LIMIT) this.lengthsMemo.clear();
    const exact = lengths.slice();
    this.lengthsMemo.set(key, exact);
    return exact;
  }

  /** MiniSearch's `addFieldLength`, with the same floating-point steps so the average comes out identical. */
  private addLength(lengths: number[], fieldId: number, count: number, length: number): void {
    lengths[fieldId] = length;
    const average = this._avgFieldLength[fieldId] || 0;
    const total = average * count + length;
    this._avgFieldLength[fieldId] = total / (count + 1);
  }
}

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
