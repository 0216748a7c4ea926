import type { Country } from '../../places/countries.js';
import { eventDigest } from '../cursor.js';
import { Changes } from './changes.js';
import { FullTextIndex, type FullTextReader } from './full-text.js';
import { compareByStart, founderFitOf, type IndexedEvent, nameWordsOf } from './indexed-event.js';
import { cellKey, cellKeysAround, PART, partsOf } from './parts.js';
import { ShardSearch } from './shard-search.js';
import { resized, SlotColumns } from './slot-columns.js';
import { OrderedSlots, Postings, type ReadonlyPostings, type ReadonlySlotList, SlotList } from './slot-list.js';
import { TOPIC_BIT } from './traits.js';

export { formatCode } from './slot-columns.js';

/** The values of one entry as the shard's posting lists key them. */
function postingKeys(entry: IndexedEvent) {
  const ev = entry.event;
  const located = ev.format !== 'online' && ev.lat !== null && ev.lng !== null;
  const names = nameWordsOf(entry);
  return {
    topics: new Set(ev.topics),
    seniority: new Set(ev.seniority),
    /** Events with coordinates that are not online (the only ones a place can rank), by gazetteer place and cell. */
    place: located && entry.place ? entry.place.geonameId : undefined,
    cell: located ? cellKey(ev.lat!, ev.lng!) : undefined,
    nameWords: new Set([...names.title, ...names.organizer]),
  };
}

/**
 * One country's shown events — listed, public, not hidden as a duplicate — with posting lists: for every value a
 * prompt can ask for, the slots of the events that have it, so a query costs what it matches. Each event has a
 * slot for as long as it is shown (freed slots are reused); per-slot columns (slot-columns.ts) let hot loops read flat
 * arrays, and `order` keeps the slots sorted by start, then id. A store: readers get read-only views of its columns
 * and lists, and only `add`, `remove`, `load` and `touch` change it. A change costs what it touches: `add` and
 * `remove` insert into and delete from the sorted lists in place, and nothing is ever rebuilt; `version` counts the
 * changes, so caches of this country's answers know when they went stale. What a query computes over it (scores,
 * visited slots, bitsets) is the query's own, in a ShardSearch it takes with `search()`.
 */
export class CountryShard extends SlotColumns {
  /** The entry at each slot; undefined for a free slot. */
  readonly #events: (IndexedEvent | undefined)[] = [];
  readonly #free: number[] = [];
  #capacity = 0;
  readonly #order = new OrderedSlots((a, b) => compareByStart(this.at(a), this.at(b)));
  readonly #byTopic = new Postings<string>(true);
  readonly #byKind = new Postings<string>(true);
  readonly #byFormat = new Postings<string>(true);
  readonly #byPrice = new Postings<string>(true);
  readonly #bySeniority = new Postings<string>(true);
  readonly #byPlace = new Postings<number>();
  readonly #byCell = new Postings<number>();
  readonly #byNameWord = new Postings<string>();
  readonly #longEvents = new SlotList();
  #longestShortMs = 0;
  readonly #text = new FullTextIndex();
  /** Events with a founder fit and the fit by slot, made on the first query that asks (most never do). */
  #founderSlots: { slots: SlotList; fit: Uint8Array } | undefined;
  /** Per-query-value facts about events (see `memo`), by slot: -1 while not yet known. */
  readonly #memos = new Map<string, Int8Array>();
  /** The memo asked for last: ranking asks one key of thousands of slots in a row. */
  #lastMemo: { key: string; memo: Int8Array } | undefined;
  /** Searches released by the queries that held them, for the next ones (see ShardSearch). */
  readonly #spare: ShardSearch[] = [];
  readonly #changes: Changes;
  #digest = 0;
  #size = 0;

  constructor(
    readonly country: Country,
    clock = { n: 0 },
  ) {
    super();
    this.#changes = new Changes(clock);
  }

  // Read-only views: the lists are the shard's own, changed only by `add`, `remove` and `load`.
  /** Slots sorted by start, then id: listings without a prompt, date windows, tie-breaks. */
  readonly order: ReadonlySlotList = this.#order;
  readonly byTopic: ReadonlyPostings<string> = this.#byTopic;
  readonly byKind: ReadonlyPostings<string> = this.#byKind;
  readonly byFormat: ReadonlyPostings<string> = this.#byFormat;
  readonly byPrice: ReadonlyPostings<string> = this.#byPrice;
  readonly bySeniority: ReadonlyPostings<string> = this.#bySeniority;
  readonly byPlace: ReadonlyPostings<number> = this.#byPlace;
  readonly byCell: ReadonlyPostings<number> = this.#byCell;
  /** Words of titles and organizers (as `plain` splits them), for phrase matches. */
  readonly byNameWord: ReadonlyPostings<string> = this.#byNameWord;
  readonly longEvents: ReadonlySlotList = this.#longEvents;
  readonly text: FullTextReader = this.#text;

  /** At least the longest duration among events that are not long (it never shrinks; a window scan bound). */
  get longestShortMs(): number {
    return this.#longestShortMs;
  }
  /** What is shown, as `eventDigest`s XORed: equal on every node that shows the same events (see cursor.ts). */
  get digest(): number {
    return this.#digest;
  }
  get size(): number {
    return this.#size;
  }
  /** How many slots are in use or free: every slot is below it. */
  get slots(): number {
    return this.#events.length;
  }

  /** The event at `slot` (which must be in use). */
  at(slot: number): IndexedEvent {
    return this.#events[slot]!;
  }

  /** The country's latest change: answers about it are valid while it is the same. */
  get version(): number {
    return this.#changes.latest;
  }

  /** When a part of this country (see Changes) last changed; without one, the country: what cached answers keep by. */
  changedAt(part?: string): number {
    return this.#changes.at(part);
  }

  /** A query's scratch over this shard, sized to its slots: the query gives it back with `release` when done. */
  search(): ShardSearch {
    return (this.#spare.pop() ?? new ShardSearch()).take(this.#capacity);
  }

  /** Takes back a search a query is done with, for a later query. */
  release(search: ShardSearch): void {
    search.giveBack();
    // Two queries at once are rare (near misses in another plan): more spares would only hold memory.
    if (this.#spare.length < 2) this.#spare.push(search);
  }

  /** Shows an entry: gives it a slot and adds it to every list. */
  add(entry: IndexedEvent): void {
    this.#changes.tick();
    const slot = this.#free.pop() ?? this.newSlot();
    this.show(entry, slot);
    if (this.#founderSlots) {
      const fit = founderFitOf(entry);
      this.#founderSlots.fit[slot] = fit;
      if (fit > 0) this.#founderSlots.slots.insert(slot);
    }
    for (const memo of this.#memos.values()) memo[slot] = -1;
    this.#text.add(slot, entry.event);
    this.#changes.mark(partsOf(entry));
  }

  /** Hides an entry: takes it off every list and frees its slot. */
  remove(entry: IndexedEvent): void {
    const slot = entry.slot;
    if (slot < 0 || this.#events[slot] !== entry) throw new Error(`remove: ${entry.event.id} is not shown here`);
    this.#changes.tick();
    this.#changes.mark(partsOf(entry));
    const ev = entry.event;
    this.#text.remove(slot, ev);
    this.#order.delete(slot);
    this.post(entry, slot, 'remove');
    if (this.long[slot]) this.#longEvents.delete(slot);
    this.#founderSlots?.slots.delete(slot);
    this.#events[slot] = undefined;
    this.#free.push(slot);
    entry.slot = -1;
    this.#size--;
    this.#digest ^= eventDigest(ev.id, ev.revision);
  }

  /** Replaces the content with these entries (start-up): slots in start order, the full text built at once. */
  load(entries: readonly IndexedEvent[]): void {
    const sorted = [...entries].sort(compareByStart);
    this.#changes.reset();
    this.#events.length = 0;
    this.#free.length = 0;
    this.#capacity = 0;
    this.resize(sorted.length);
    this.#founderSlots = undefined;
    this.#memos.clear();
    this.#lastMemo = undefined;
    for (const list of [this.#order, this.#longEvents]) list.length = 0;
    const postings: { clear(): void }[] = [
      this.#byTopic,
      this.#byKind,
      this.#byFormat,
      this.#byPrice,
      this.#bySeniority,
      this.#byPlace,
      this.#byCell,
      this.#byNameWord,
    ];
    for (const list of postings) list.clear();
    this.#digest = 0;
    this.#size = 0;
    for (const entry of sorted) this.show(entry, this.newSlot());
    this.#text.load(sorted.map((entry) => ({ slot: entry.slot, event: entry.event })));
  }

  /**
   * A change that alters no list: an event hidden or unlisted, whose page changed, or one shown that now links other
   * sources (`entry`: the parts it shows in change too).
   */
  touch(entry?: IndexedEvent): void {
    this.#changes.tick();
    if (entry) this.#changes.mark(partsOf(entry));
  }

  /** The shown events in start order. */
  *inOrder(): Generator<IndexedEvent> {
    for (let i = 0; i < this.#order.length; i++) yield this.#events[this.#order.items[i]!]!;
  }

  /** Slots in the 3 × 3 cells around a point: every event `roughlyNear` it, and some more. */
  *cellsAround(lat: number, lng: number): Generator<SlotList> {
    for (const key of cellKeysAround(lat, lng)) {
      const list = this.#byCell.get(key);
      if (list) yield list;
    }
  }

  /** Whether the event at `slot` carries `topic` (a field of the taxonomy, else read from the event). */
  hasTopic(slot: number, topic: string): boolean {
    const bit = TOPIC_BIT.get(topic);
    return bit === undefined ? this.at(slot).event.topics.includes(topic) : (this.topicBits[slot]! & bit) !== 0;
  }

  /** Whether the event at `slot` has a trait: a kind, a seniority or a price (`TRAIT.kind.meetup`…). */
  hasTrait(slot: number, bit: number | undefined): boolean {
    return (this.traitBits[slot]! & (bit ?? 0)) !== 0;
  }

  /** First position in `order` whose start is at or after `ms`. */
  firstStartingAt(ms: number): number {
    const items = this.#order.items;
    let lo = 0;
    let hi = this.#order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.startMs[items[mid]!]! < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The stretch of `order` [first, end) holding every event that is not long and may be under way between `fromMs`
   * and `toMs`: those starting before `toMs`, and no longer before `fromMs` than the longest of them lasts (long
   * events are in `longEvents`).
   */
  stretchUnderWay(fromMs: number, toMs: number): [first: number, end: number] {
    return [this.firstStartingAt(fromMs - this.#longestShortMs), this.firstStartingAt(toMs)];
  }

  /** Events with a founder fit (ascending slots) and the fit of each slot. */
  founders(): { slots: ReadonlySlotList; fit: ArrayLike<number> } {
    if (!this.#founderSlots) {
      const fit = new Uint8Array(this.#capacity);
      const slots: number[] = [];
      for (let slot = 0; slot < this.#events.length; slot++) {
        const entry = this.#events[slot];
        if (!entry) continue;
        fit[slot] = founderFitOf(entry);
        if (fit[slot]! > 0) slots.push(slot);
      }
      this.#founderSlots = { slots: SlotList.fromSorted(slots), fit };
    }
    return this.#founderSlots;
  }

  /**
   * A small fact (0–127) about the event at `slot` that depends on a query value named by `key`, computed by
   * `make(entry, arg, slot)` on first use and kept until that slot changes: e.g. whether a title names a prompt's
   * technology, which takes pattern matching that recurs from prompt to prompt. At most 128 keys are kept. `make`
   * takes the query value as `arg` so that callers pass a function made once, not a closure made per slot.
   */
  memo<A>(key: string, slot: number, arg: A, make: (entry: IndexedEvent, arg: A, slot: number) => number): number {
    const last = this.#lastMemo;
    const memo = last !== undefined && last.key === key ? last.memo : this.memoOf(key);
    let known = memo[slot]!;
    if (known === -1) {
      known = make(this.#events[slot]!, arg, slot);
      memo[slot] = known;
    }
    return known;
  }

  /** Puts an entry at `slot`: its columns, its place in start order and in every posting list. */
  private show(entry: IndexedEvent, slot: number): void {
    entry.slot = slot;
    this.#events[slot] = entry;
    this.#size++;
    const duration = this.fillColumns(entry, slot);
    if (!this.long[slot] && duration > this.#longestShortMs) {
      // Date windows look this much further back in start order: every window's parts change.
      this.#longestShortMs = duration;
      this.#changes.mark([PART.span]);
    }
    this.#order.insert(slot);
    this.post(entry, slot, 'add');
    if (this.long[slot]) this.#longEvents.insert(slot);
    this.#digest ^= eventDigest(entry.event.id, entry.event.revision);
  }

  /** Adds `slot` to, or removes it from, the posting list of each value the entry has. */
  private post(entry: IndexedEvent, slot: number, change: 'add' | 'remove'): void {
    const ev = entry.event;
    const keys = postingKeys(entry);
    for (const t of keys.topics) this.#byTopic[change](t, slot);
    for (const k of entry.kinds) this.#byKind[change](k, slot);
    this.#byFormat[change](ev.format, slot);
    this.#byPrice[change](ev.priceType, slot);
    for (const s of keys.seniority) this.#bySeniority[change](s, slot);
    if (keys.place !== undefined) this.#byPlace[change](keys.place, slot);
    if (keys.cell !== undefined) this.#byCell[change](keys.cell, slot);
    for (const w of keys.nameWords) this.#byNameWord[change](w, slot);
  }

  private newSlot(): number {
    const slot = this.#events.length;
    if (slot >= this.#capacity) this.resize(Math.max(16, Math.ceil(this.#capacity * 1.5)));
    this.#events.push(undefined);
    return slot;
  }

  /** The memo of `key`, made (all slots unknown) when it has none; it becomes the memo asked for last. */
  private memoOf(key: string): Int8Array {
    let memo = this.#memos.get(key);
    if (!memo) {
      if (this.#memos.size >= 128) this.#memos.clear();
      memo = new Int8Array(this.#capacity).fill(-1);
      this.#memos.set(key, memo);
    }
    this.#lastMemo = { key, memo };
    return memo;
  }

  /** Grows (or, when loading, sets) the per-slot columns and memos to `capacity` slots, keeping what they hold. */
  private resize(capacity: number): void {
    this.resizeColumns(capacity);
    if (this.#founderSlots) this.#founderSlots.fit = resized(this.#founderSlots.fit, capacity);
    for (const [key, memo] of this.#memos) this.#memos.set(key, resized(memo, capacity, -1));
    this.#lastMemo = undefined;
    this.#capacity = capacity;
  }
}
