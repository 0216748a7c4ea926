import { cfpClosesAt } from '../../catalogue/cfp.js';
import type { EventFormat } from '../../catalogue/event.js';
import { FORMATS } from '../../catalogue/taxonomy.js';
import { endsAt, type IndexedEvent } from './indexed-event.js';
import { LONG_EVENT_MS } from './parts.js';
import { bitsOf, TOPIC_BIT, TRAIT } from './traits.js';

/** A format as a small number, for the per-slot format column. */
export function formatCode(format: EventFormat): number {
  return FORMATS.indexOf(format);
}

/**
 * The per-slot columns of a country shard: what ranking's hot loops read of an event, as flat arrays indexed by
 * slot. Readers get read-only views (`ArrayLike`); only the shard (country-shard.ts, which extends this) writes them,
 * through `fillColumns` and `resizeColumns`, as it shows events and grows.
 */
export abstract class SlotColumns {
  #startMs = new Float64Array(0);
  #endsAt = new Float64Array(0);
  #cfpClosesAt = new Float64Array(0);
  #formatCode = new Uint8Array(0);
  #geonameId = new Int32Array(0);
  #lat = new Float64Array(0);
  #lng = new Float64Array(0);
  #long = new Uint8Array(0);
  #topicBits = new Uint32Array(0);
  #traitBits = new Uint16Array(0);

  get startMs(): ArrayLike<number> {
    return this.#startMs;
  }
  get endsAt(): ArrayLike<number> {
    return this.#endsAt;
  }
  /** When the call for papers closes, NaN without one. */
  get cfpClosesAt(): ArrayLike<number> {
    return this.#cfpClosesAt;
  }
  /** Index in FORMATS. */
  get formatCode(): ArrayLike<number> {
    return this.#formatCode;
  }
  /** Gazetteer place of the city, 0 when none. */
  get geonameId(): ArrayLike<number> {
    return this.#geonameId;
  }
  get lat(): ArrayLike<number> {
    return this.#lat;
  }
  get lng(): ArrayLike<number> {
    return this.#lng;
  }
  /** 1 for an event lasting longer than LONG_EVENT_MS. */
  get long(): ArrayLike<number> {
    return this.#long;
  }
  /** TOPIC_BIT of each taxonomy field the event carries. */
  get topicBits(): ArrayLike<number> {
    return this.#topicBits;
  }
  /** TRAIT's bits of its kinds, seniority and price. */
  get traitBits(): ArrayLike<number> {
    return this.#traitBits;
  }

  /** Writes the entry's columns at `slot`; returns how long it lasts. */
  protected fillColumns(entry: IndexedEvent, slot: number): number {
    const ev = entry.event;
    const startMs = ev.start.getTime();
    const endMs = endsAt(ev);
    this.#startMs[slot] = startMs;
    this.#endsAt[slot] = endMs;
    this.#cfpClosesAt[slot] = cfpClosesAt(ev);
    this.#formatCode[slot] = formatCode(ev.format);
    this.#geonameId[slot] = entry.place?.geonameId ?? 0;
    this.#lat[slot] = ev.lat ?? Number.NaN;
    this.#lng[slot] = ev.lng ?? Number.NaN;
    const duration = endMs - startMs;
    this.#long[slot] = duration > LONG_EVENT_MS ? 1 : 0;
    this.#topicBits[slot] = bitsOf(TOPIC_BIT, ev.topics);
    this.#traitBits[slot] =
      bitsOf(TRAIT.kind, entry.kinds) | bitsOf(TRAIT.seniority, ev.seniority) | bitsOf(TRAIT.price, [ev.priceType]);
    return duration;
  }

  /** Grows (or, when loading, sets) the columns to `capacity` slots, keeping what they hold. */
  protected resizeColumns(capacity: number): void {
    this.#startMs = resized(this.#startMs, capacity);
    this.#endsAt = resized(this.#endsAt, capacity);
    this.#cfpClosesAt = resized(this.#cfpClosesAt, capacity);
    this.#formatCode = resized(this.#formatCode, capacity);
    this.#geonameId = resized(this.#geonameId, capacity);
    this.#lat = resized(this.#lat, capacity);
    this.#lng = resized(this.#lng, capacity);
    this.#long = resized(this.#long, capacity);
    this.#topicBits = resized(this.#topicBits, capacity);
    this.#traitBits = resized(this.#traitBits, capacity);
  }
}

type Column = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;

/** A copy of a column with room for `capacity` slots (new slots hold `fill`). */
export function resized<A extends Column>(old: A, capacity: number, fill = 0): A {
  const next = new (old.constructor as new (n: number) => A)(capacity);
  if (fill !== 0) next.fill(fill);
  (next as Float64Array).set((old as Float64Array).subarray(0, Math.min(old.length, capacity)));
  return next;
}
