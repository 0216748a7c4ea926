import { cfpClosesAt } from '../../catalogue/cfp.js';
import type { EventFormat } from '../../catalogue/event.js';
import { FORMATS } from '../../catalogue/taxonomy.js';
import type { Country } from '../../places/countries.js';
import { eventDigest } from '../cursor.js';
import { Changes } from './changes.js';
import { FullTextIndex } from './full-text.js';
import { compareByStart, endsAt, founderFitOf, type IndexedEvent } from './indexed-event.js';
import { nameWordsOf } from './names.js';
import { cellKey, cellKeysAround, LONG_EVENT_MS, PART, partsOf } from './parts.js';
import { Lanes } from './slot-bits.js';
import { OrderedSlots, Postings, SlotList } from './slot-list.js';
import { bitsOf, TOPIC_BIT, TRAIT } from './traits.js';

/** A format as a small number, for the per-slot format column. */
export function formatCode(format: EventFormat): number {
  return FORMATS.indexOf(format);
}

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
 * slot for as long as it is shown (freed slots are reused); per-slot columns let hot loops read flat arrays, and
 * `order` keeps the slots sorted by start, then id. A change costs what it touches: `add` and `remove` insert into
 * and delete from the sorted lists in place, and nothing is ever rebuilt; `version` counts the changes, so caches
 * of this country's answers know when they went stale.
 */
export class CountryShard {
  /** The entry at each slot; undefined for a free slot. */
  readonly events: (IndexedEvent | undefined)[] = [];
  private readonly free: number[] = [];
  private capacity = 0;
  startMs = new Float64Array(0);
  endsAt = new Float64Array(0);
  /** When the call for papers closes, NaN without one. */
  cfpClosesAt = new Float64Array(0);
  /** Index in FORMATS. */
  formatCode = new Uint8Array(0);
  /** Gazetteer place of the city, 0 when none. */
  geonameId = new Int32Array(0);
  lat = new Float64Array(0);
  lng = new Float64Array(0);
  long = new Uint8Array(0);
  /** TOPIC_BIT of each taxonomy field the event carries; TRAIT's bits of its kinds, seniority and price. */
  topicBits = new Uint32Array(0);
  traitBits = new Uint16Array(0);
  /** Slots sorted by start, then id: listings without a prompt, date windows, tie-breaks. */
  readonly order: SlotList;
  readonly byTopic = new Postings<string>(true);
  readonly byKind = new Postings<string>(true);
  readonly byFormat = new Postings<string>(true);
  readonly byPrice = new Postings<string>(true);
  readonly bySeniority = new Postings<string>(true);
  readonly byPlace = new Postings<number>();
  readonly byCell = new Postings<number>();
  /** Words of titles and organizers (as `plain` splits them), for phrase matches. */
  readonly byNameWord = new Postings<string>();
  readonly longEvents = new SlotList();
  /** At least the longest duration among events that are not long (it never shrinks; a window scan bound). */
  longestShortMs = 0;
  readonly text = new FullTextIndex();
  /** Events with a founder fit and the fit by slot, made on the first query that asks (most never do). */
  private founderSlots: { slots: SlotList; fit: Uint8Array } | undefined;
  /** Per-query-value facts about events (see `memo`), by slot: -1 while not yet known. */
  private readonly memos = new Map<string, Int8Array>();
  /** The memo asked for last: ranking asks one key of thousands of slots in a row. */
  private lastMemo: { key: string; memo: Int8Array } | undefined;
  /** Scratch for scoring: one query at a time (the engine is synchronous). */
  score = new Float64Array(0);
  stamp = new Uint32Array(0);
  stampEpoch = 0;
  /** Scratch bitsets, one for each constraint of a ranking (see rank-shard.ts, `bySelectivity`). */
  readonly lanes = new Lanes();
  /** Scratch for visiting several posting lists once per slot (see `beginVisits`). */
  visited = new Uint32Array(0);
  private visitMark = 0;
  /** When this country and its parts last changed: what cached answers about them are kept by. */
  readonly changes: Changes;
  /** What is shown, as `eventDigest`s XORed: equal on every node that shows the same events (see cursor.ts). */
  digest = 0;
  size = 0;

  constructor(
    readonly country: Country,
    clock = { n: 0 },
  ) {
    this.changes = new Changes(clock);
    this.order = new OrderedSlots((a, b) => compareByStart(this.at(a), this.at(b)));
  }

  /** The event at `slot` (which must be in use). */
  at(slot: number): IndexedEvent {
    return this.events[slot]!;
  }

  /** The country's latest change: answers about it are valid while it is the same. */
  get version(): number {
    return this.changes.latest;
  }

  /** Shows an entry: gives it a slot and adds it to every list. */
  add(entry: IndexedEvent): void {
    this.changes.tick();
    const slot = this.free.pop() ?? this.newSlot();
    this.show(entry, slot);
    if (this.founderSlots) {
      const fit = founderFitOf(entry);
      this.founderSlots.fit[slot] = fit;
      if (fit > 0) this.founderSlots.slots.insert(slot);
    }
    for (const memo of this.memos.values()) memo[slot] = -1;
    this.text.add(slot, entry.event);
    this.changes.mark(partsOf(entry));
  }

  /** Hides an entry: takes it off every list and frees its slot. */
  remove(entry: IndexedEvent): void {
    const slot = entry.slot;
    if (slot < 0 || this.events[slot] !== entry) throw new Error(`remove: ${entry.event.id} is not shown here`);
    this.changes.tick();
    this.changes.mark(partsOf(entry));
    const ev = entry.event;
    this.text.remove(slot, ev);
    this.order.delete(slot);
    this.post(entry, slot, 'remove');
    if (this.long[slot]) this.longEvents.delete(slot);
    this.founderSlots?.slots.delete(slot);
    this.events[slot] = undefined;
    this.free.push(slot);
    entry.slot = -1;
    this.size--;
    this.digest ^= eventDigest(ev.id, ev.revision);
  }

  /** Replaces the content with these entries (start-up): slots in start order, the full text built at once. */
  load(entries: readonly IndexedEvent[]): void {
    const sorted = [...entries].sort(compareByStart);
    this.changes.reset();
    this.events.length = 0;
    this.free.length = 0;
    this.capacity = 0;
    this.resize(sorted.length);
    this.founderSlots = undefined;
    this.memos.clear();
    this.lastMemo = undefined;
    for (const list of [this.order, this.longEvents]) list.length = 0;
    const postings: { clear(): void }[] = [
      this.byTopic,
      this.byKind,
      this.byFormat,
      this.byPrice,
      this.bySeniority,
      this.byPlace,
      this.byCell,
      this.byNameWord,
    ];
    for (const list of postings) list.clear();
    this.digest = 0;
    this.size = 0;
    for (const entry of sorted) this.show(entry, this.newSlot());
    this.text.load(sorted.map((entry) => ({ slot: entry.slot, event: entry.event })));
  }

  /**
   * A change that alters no list: an event hidden or unlisted, whose page changed, or one shown that now links other
   * sources (`entry`: the parts it shows in change too).
   */
  touch(entry?: IndexedEvent): void {
    this.changes.tick();
    if (entry) this.changes.mark(partsOf(entry));
  }

  /** The shown events in start order. */
  *inOrder(): Generator<IndexedEvent> {
    for (let i = 0; i < this.order.length; i++) yield this.events[this.order.items[i]!]!;
  }

  /** Slots in the 3 × 3 cells around a point: every event `roughlyNear` it, and some more. */
  *cellsAround(lat: number, lng: number): Generator<SlotList> {
    for (const key of cellKeysAround(lat, lng)) {
      const list = this.byCell.get(key);
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
    const items = this.order.items;
    let lo = 0;
    let hi = this.order.length;
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
    return [this.firstStartingAt(fromMs - this.longestShortMs), this.firstStartingAt(toMs)];
  }

  /** Events with a founder fit (ascending slots) and the fit of each slot. */
  founders(): { slots: SlotList; fit: Uint8Array } {
    if (!this.founderSlots) {
      const fit = new Uint8Array(this.capacity);
      const slots: number[] = [];
      for (let slot = 0; slot < this.events.length; slot++) {
        const entry = this.events[slot];
        if (!entry) continue;
        fit[slot] = founderFitOf(entry);
        if (fit[slot]! > 0) slots.push(slot);
      }
      this.founderSlots = { slots: SlotList.fromSorted(slots), fit };
    }
    return this.founderSlots;
  }

  /**
   * A small fact (0–127) about the event at `slot` that depends on a query value named by `key`, computed by
   * `make(entry, arg, slot)` on first use and kept until that slot changes: e.g. whether a title names a prompt's
   * technology, which takes pattern matching that recurs from prompt to prompt. At most 128 keys are kept. `make`
   * takes the query value as `arg` so that callers pass a function made once, not a closure made per slot.
   */
  memo<A>(key: string, slot: number, arg: A, make: (entry: IndexedEvent, arg: A, slot: number) => number): number {
    const last = this.lastMemo;
    const memo = last !== undefined && last.key === key ? last.memo : this.memoOf(key);
    let known = memo[slot]!;
    if (known === -1) {
      known = make(this.events[slot]!, arg, slot);
      memo[slot] = known;
    }
    return known;
  }

  /** Starts a walk over several lists; returns the mark a walker sets in `visited` for each slot it visits. */
  beginVisits(): number {
    if (this.visitMark === 0xffffffff) {
      this.visited.fill(0);
      this.visitMark = 0;
    }
    return ++this.visitMark;
  }

  /** Starts a new query's scratch scores; returns the stamp marking the slots it touches. */
  nextEpoch(): number {
    if (this.stampEpoch === 0xffffffff) {
      this.stamp.fill(0);
      this.stampEpoch = 0;
    }
    return ++this.stampEpoch;
  }

  /** Puts an entry at `slot`: its columns, its place in start order and in every posting list. */
  private show(entry: IndexedEvent, slot: number): void {
    entry.slot = slot;
    this.events[slot] = entry;
    this.size++;
    this.fillColumns(entry, slot);
    this.order.insert(slot);
    this.post(entry, slot, 'add');
    if (this.long[slot]) this.longEvents.insert(slot);
    this.digest ^= eventDigest(entry.event.id, entry.event.revision);
  }

  /** Adds `slot` to, or removes it from, the posting list of each value the entry has. */
  private post(entry: IndexedEvent, slot: number, change: 'add' | 'remove'): void {
    const ev = entry.event;
    const keys = postingKeys(entry);
    for (const t of keys.topics) this.byTopic[change](t, slot);
    for (const k of entry.kinds) this.byKind[change](k, slot);
    this.byFormat[change](ev.format, slot);
    this.byPrice[change](ev.priceType, slot);
    for (const s of keys.seniority) this.bySeniority[change](s, slot);
    if (keys.place !== undefined) this.byPlace[change](keys.place, slot);
    if (keys.cell !== undefined) this.byCell[change](keys.cell, slot);
    for (const w of keys.nameWords) this.byNameWord[change](w, slot);
  }

  private newSlot(): number {
    const slot = this.events.length;
    if (slot >= this.capacity) this.resize(Math.max(16, Math.ceil(this.capacity * 1.5)));
    this.events.push(undefined);
    return slot;
  }

  private fillColumns(entry: IndexedEvent, slot: number): void {
    const ev = entry.event;
    const startMs = ev.start.getTime();
    const endMs = endsAt(ev);
    this.startMs[slot] = startMs;
    this.endsAt[slot] = endMs;
    this.cfpClosesAt[slot] = cfpClosesAt(ev);
    this.formatCode[slot] = formatCode(ev.format);
    this.geonameId[slot] = entry.place?.geonameId ?? 0;
    this.lat[slot] = ev.lat ?? Number.NaN;
    this.lng[slot] = ev.lng ?? Number.NaN;
    const duration = endMs - startMs;
    this.long[slot] = duration > LONG_EVENT_MS ? 1 : 0;
    this.topicBits[slot] = bitsOf(TOPIC_BIT, ev.topics);
    this.traitBits[slot] =
      bitsOf(TRAIT.kind, entry.kinds) | bitsOf(TRAIT.seniority, ev.seniority) | bitsOf(TRAIT.price, [ev.priceType]);
    if (!this.long[slot] && duration > this.longestShortMs) {
      // Date windows look this much further back in start order: every window's parts change.
      this.longestShortMs = duration;
      this.changes.mark([PART.span]);
    }
  }

  /** The memo of `key`, made (all slots unknown) when it has none; it becomes the memo asked for last. */
  private memoOf(key: string): Int8Array {
    let memo = this.memos.get(key);
    if (!memo) {
      if (this.memos.size >= 128) this.memos.clear();
      memo = new Int8Array(this.capacity).fill(-1);
      this.memos.set(key, memo);
    }
    this.lastMemo = { key, memo };
    return memo;
  }

  /** Grows (or, when loading, sets) the per-slot columns to `capacity` slots, keeping what they hold. */
  private resize(capacity: number): void {
    this.startMs = resized(this.startMs, capacity);
    this.endsAt = resized(this.endsAt, capacity);
    this.cfpClosesAt = resized(this.cfpClosesAt, capacity);
    this.formatCode = resized(this.formatCode, capacity);
    this.geonameId = resized(this.geonameId, capacity);
    this.lat = resized(this.lat, capacity);
    this.lng = resized(this.lng, capacity);
    this.long = resized(this.long, capacity);
    this.topicBits = resized(this.topicBits, capacity);
    this.traitBits = resized(this.traitBits, capacity);
    this.score = new Float64Array(capacity);
    this.stamp = new Uint32Array(capacity);
    this.stampEpoch = 0;
    this.visited = new Uint32Array(capacity);
    this.visitMark = 0;
    if (this.founderSlots) this.founderSlots.fit = resized(this.founderSlots.fit, capacity);
    for (const [key, memo] of this.memos) this.memos.set(key, resized(memo, capacity, -1));
    this.lastMemo = undefined;
    this.capacity = capacity;
  }
}

type Column = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;

/** A copy of a column with room for `capacity` slots (new slots hold `fill`). */
function resized<A extends Column>(old: A, capacity: number, fill = 0): A {
  const next = new (old.constructor as new (n: number) => A)(capacity);
  if (fill !== 0) next.fill(fill);
  (next as Float64Array).set((old as Float64Array).subarray(0, Math.min(old.length, capacity)));
  return next;
}
