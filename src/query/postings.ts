import type { EventFormat } from '../catalogue/event.js';
import { FORMATS } from '../catalogue/taxonomy.js';
import type { IndexedEvent } from './catalogue-index.js';
import { founderFitOf } from './catalogue-index.js';
import { interned, remembered } from './memo.js';

/** Grid cells for "near" lookups: a cell is as large as the box `roughlyNear` accepts, so 3 × 3 cells cover it. */
export const CELL_LAT = 0.41;
export const CELL_LNG = 0.7;
/** Events lasting longer than this are kept apart, so date windows can bound the rest by start alone. */
const LONG_EVENT_MS = 14 * 86_400_000;

/** Letters and digits only, single-spaced and padded: how a query is found as a phrase in a title or organizer. */
export function plain(folded: string): string {
  return ` ${folded.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

const FORMAT_CODES: readonly EventFormat[] = FORMATS;

/** A format as a small number, for the per-slot format column. */
export function formatCode(format: EventFormat): number {
  return FORMAT_CODES.indexOf(format);
}

function cellKey(lat: number, lng: number): number {
  // Cells are integers in a small range (lat 40–60° → ~100–150, lng 0–20° → 0–30): one number per cell.
  return Math.floor(lat / CELL_LAT) * 1000 + Math.floor(lng / CELL_LNG);
}

/**
 * A posting list: the slots of the events that have one value, ascending. Built as arrays, kept as exact-size
 * Int32Arrays: half the bytes of an array of small integers, with none of an array's room to grow (at 100k events,
 * ~11 MB less over the three shards).
 */
export type Postings = Int32Array;

/** The lists of a map built with `push`, each as an exact-size Postings. */
function frozen<K>(lists: Map<K, number[]>): ReadonlyMap<K, Postings> {
  const out = new Map<K, Postings>();
  for (const [key, list] of lists) out.set(key, Int32Array.from(list));
  return out;
}

function push<K>(map: Map<K, number[]>, key: K, slot: number): void {
  const list = map.get(key);
  if (list) list.push(slot);
  else map.set(key, [slot]);
}

/** One string per distinct name word, shared by every entry that has it (a catalogue's titles use a few thousand). */
const NAME_WORDS = new Map<string, string>();

function sharedWord(word: string): string {
  return interned(NAME_WORDS, word, 200_000);
}

/** A folded name's words in order, as `plain` splits it, each a shared string. */
export function wordsOf(folded: string): readonly string[] {
  const words = plain(folded).trim();
  return words === '' ? NO_WORDS : words.split(' ').map(sharedWord);
}
const NO_WORDS: readonly string[] = Object.freeze([]);

/** Organizers' words, shared by their events (a catalogue has a few thousand organizers for 100k events). */
const ORGANIZER_WORDS = new Map<string, readonly string[]>();

/** `push`, unless the slot is already the list's last (a word repeated in a name, or in title and organizer). */
function pushOnce<K>(map: Map<K, number[]>, key: K, slot: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [slot]);
  else if (list[list.length - 1] !== slot) list.push(slot);
}

/**
 * The entry's title and organizer words, computed on first use and kept on the entry (a change replaces an entry,
 * never alters its title): every change rebuilds the shards, and splitting 100k titles again was a good part of that.
 * Word lists rather than plain copies of the names: 8 bytes a word, the words' strings shared.
 */
export function nameWordsOf(entry: IndexedEvent): { title: readonly string[]; organizer: readonly string[] } {
  entry.titleWords ??= wordsOf(entry.foldedTitle);
  entry.organizerWords ??= remembered(ORGANIZER_WORDS, entry.foldedOrganizer, 20_000, wordsOf);
  return { title: entry.titleWords, organizer: entry.organizerWords };
}

/**
 * Whether `phrase` (two or more words) appears in `words` as consecutive words: what `plain(name).includes(
 * plain(phrase))` answers, without a plain copy of every name.
 */
export function hasPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  const last = words.length - phrase.length;
  outer: for (let i = 0; i <= last; i++) {
    for (let j = 0; j < phrase.length; j++) if (words[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * One country's visible events, sorted by start then id, with posting lists: for every value a prompt can ask for,
 * the positions ("slots") of the events that have it. The engine scores a prompt facet by facet over these lists
 * (term at a time) instead of scoring every event of the country, so a query costs what it matches.
 * Built when first queried after a change; read-only afterwards, apart from caches keyed by query values.
 */
export class CountryShard {
  /** Slot of each event id (for full-text hits, which come by id). */
  readonly slotOf = new Map<string, number>();
  /** Per-slot columns, so hot loops read flat arrays instead of chasing every event object. */
  readonly startMs: Float64Array;
  readonly endsAt: Float64Array;
  /** Index in FORMAT_CODES. */
  readonly formatCode: Uint8Array;
  /** Gazetteer place of the city, 0 when none. */
  readonly geonameId: Int32Array;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  readonly long: Uint8Array;
  readonly byTopic: ReadonlyMap<string, Postings>;
  readonly byKind: ReadonlyMap<string, Postings>;
  readonly byFormat: ReadonlyMap<string, Postings>;
  readonly byPrice: ReadonlyMap<string, Postings>;
  readonly bySeniority: ReadonlyMap<string, Postings>;
  /** Events with coordinates that are not online (the only ones a place can rank), by gazetteer place … */
  readonly byPlace: ReadonlyMap<number, Postings>;
  /** … and by grid cell. */
  readonly byCell: ReadonlyMap<number, Postings>;
  /** Words of titles and organizers (as `plain` splits them), for phrase matches. */
  readonly byNameWord: ReadonlyMap<string, Postings>;
  /** Slots of events longer than LONG_EVENT_MS, and the longest duration among the others. */
  readonly longEvents: Postings;
  readonly longestShortMs: number;
  private foundersList: { slots: number[]; fits: number[] } | undefined;
  /** Per-query-value scores worth keeping (topic title bonuses), dropped when they grow past a bound. */
  readonly memo = new Map<string, Float64Array>();
  /** Scratch for scoring: one query at a time (the engine is synchronous). */
  readonly score: Float64Array;
  readonly stamp: Uint32Array;
  /** The slots a query scored, in the order it first touched them (`count` from scoreShard says how many). */
  readonly touched: Int32Array;
  stampEpoch = 0;

  constructor(readonly events: readonly IndexedEvent[]) {
    const n = events.length;
    this.startMs = new Float64Array(n);
    this.endsAt = new Float64Array(n);
    this.formatCode = new Uint8Array(n);
    this.geonameId = new Int32Array(n);
    this.lat = new Float64Array(n);
    this.lng = new Float64Array(n);
    this.long = new Uint8Array(n);
    this.score = new Float64Array(n);
    this.stamp = new Uint32Array(n);
    this.touched = new Int32Array(n);
    const byTopic = new Map<string, number[]>();
    const byKind = new Map<string, number[]>();
    const byFormat = new Map<string, number[]>();
    const byPrice = new Map<string, number[]>();
    const bySeniority = new Map<string, number[]>();
    const byPlace = new Map<number, number[]>();
    const byCell = new Map<number, number[]>();
    const byNameWord = new Map<string, number[]>();
    const longEvents: number[] = [];
    let longestShort = 0;
    for (let slot = 0; slot < n; slot++) {
      const entry = events[slot]!;
      const ev = entry.event;
      this.slotOf.set(ev.id, slot);
      this.startMs[slot] = entry.startMs;
      this.endsAt[slot] = entry.endsAt;
      this.formatCode[slot] = formatCode(ev.format);
      this.geonameId[slot] = entry.place?.geonameId ?? 0;
      this.lat[slot] = ev.lat ?? Number.NaN;
      this.lng[slot] = ev.lng ?? Number.NaN;
      const duration = entry.endsAt - entry.startMs;
      if (duration > LONG_EVENT_MS) {
        longEvents.push(slot);
        this.long[slot] = 1;
      } else if (duration > longestShort) longestShort = duration;
      for (const t of new Set(ev.topics)) push(byTopic, t, slot);
      for (const k of entry.kinds) push(byKind, k, slot);
      push(byFormat, ev.format, slot);
      push(byPrice, ev.priceType, slot);
      for (const s of new Set(ev.seniority)) push(bySeniority, s, slot);
      if (ev.format !== 'online' && ev.lat !== null && ev.lng !== null) {
        if (entry.place) push(byPlace, entry.place.geonameId, slot);
        push(byCell, cellKey(ev.lat, ev.lng), slot);
      }
      const names = nameWordsOf(entry);
      for (const w of names.title) pushOnce(byNameWord, w, slot);
      for (const w of names.organizer) pushOnce(byNameWord, w, slot);
    }
    this.byTopic = frozen(byTopic);
    this.byKind = frozen(byKind);
    this.byFormat = frozen(byFormat);
    this.byPrice = frozen(byPrice);
    this.bySeniority = frozen(bySeniority);
    this.byPlace = frozen(byPlace);
    this.byCell = frozen(byCell);
    this.byNameWord = frozen(byNameWord);
    this.longEvents = Int32Array.from(longEvents);
    this.longestShortMs = longestShort;
  }

  get size(): number {
    return this.events.length;
  }

  /** Slots in the 3 × 3 cells around a point: every event `roughlyNear` it, and some more. */
  *cellsAround(lat: number, lng: number): Generator<Postings> {
    const row = Math.floor(lat / CELL_LAT);
    const col = Math.floor(lng / CELL_LNG);
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = col - 1; c <= col + 1; c++) {
        const list = this.byCell.get(r * 1000 + c);
        if (list) yield list;
      }
    }
  }

  /** First slot whose start is at or after `ms` (binary search over the start order). */
  firstStartingAt(ms: number): number {
    let lo = 0;
    let hi = this.startMs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.startMs[mid]! < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Events with a founder fit, and the fit, computed on the first query that asks (most never do). */
  founders(): { slots: number[]; fits: number[] } {
    if (!this.foundersList) {
      const slots: number[] = [];
      const fits: number[] = [];
      this.events.forEach((entry, slot) => {
        const fit = founderFitOf(entry);
        if (fit > 0) {
          slots.push(slot);
          fits.push(fit);
        }
      });
      this.foundersList = { slots, fits };
    }
    return this.foundersList;
  }

  /** Starts a new query's scratch scores; returns the stamp marking the slots it touches. */
  nextEpoch(): number {
    if (this.stampEpoch === 0xffffffff) {
      this.stamp.fill(0);
      this.stampEpoch = 0;
    }
    return ++this.stampEpoch;
  }
}
