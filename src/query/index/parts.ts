import { endsAt, type IndexedEvent } from './indexed-event.js';
import { withoutYears, wordsOf } from './names.js';

/**
 * Where an event sits in its country, apart from its values: the grid cell of its point, the week it starts in, and
 * whether it is long; and the parts of the country it shows in (see Changes).
 */

/** Grid cells for "near" lookups: a cell is as large as the box `roughlyNear` accepts, so 3 × 3 cells cover it. */
export const CELL_LAT = 0.41;
export const CELL_LNG = 0.7;
/** Events lasting longer than this are kept apart, so date windows can bound the rest by start alone. */
export const LONG_EVENT_MS = 14 * 86_400_000;

export function cellKey(lat: number, lng: number): number {
  // Cells are integers in a small range (lat 40–60° → ~100–150, lng 0–20° → 0–30): one number per cell.
  return Math.floor(lat / CELL_LAT) * 1000 + Math.floor(lng / CELL_LNG);
}

/** The keys of the 3 × 3 cells around a point: every event `roughlyNear` it is in one of them. */
export function cellKeysAround(lat: number, lng: number): number[] {
  const row = Math.floor(lat / CELL_LAT);
  const col = Math.floor(lng / CELL_LNG);
  const keys: number[] = [];
  for (let r = row - 1; r <= row + 1; r++) for (let c = col - 1; c <= col + 1; c++) keys.push(r * 1000 + c);
  return keys;
}

export const WEEK_MS = 7 * 86_400_000;
/** The part of start order an instant falls in (see Changes): the week, counted from the epoch. */
export const weekOf = (ms: number) => `week ${Math.floor(ms / WEEK_MS)}`;

/** The parts of a country an entry shows in (see Changes): its posting lists, its week of start, long events. */
/** The part of the events titled so (title words as `plain` splits them, years aside). */
export const titlePart = (words: readonly string[]) => `title ${words.join(' ')}`;

export function partsOf(entry: IndexedEvent): string[] {
  const ev = entry.event;
  const parts = [weekOf(ev.start.getTime()), `format ${ev.format}`, `price ${ev.priceType}`];
  for (const t of ev.topics) parts.push(`topic ${t}`);
  for (const k of entry.kinds) parts.push(`kind ${k}`);
  for (const s of ev.seniority) parts.push(`seniority ${s}`);
  if (ev.format !== 'online' && ev.lat !== null && ev.lng !== null) {
    if (entry.place) parts.push(`place ${entry.place.geonameId}`);
    parts.push(`cell ${cellKey(ev.lat, ev.lng)}`);
  }
  if (endsAt(ev) - ev.start.getTime() > LONG_EVENT_MS) parts.push('long');
  // A prompt naming this title lists the event whatever it asks (rank-shard.ts, `namedMatch`).
  parts.push(titlePart(withoutYears(wordsOf(entry.foldedTitle))));
  return parts;
}
