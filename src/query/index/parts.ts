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

/**
 * The names of the parts of a country (see Changes), one way for the write side (partsOf) and the facets that read
 * them (ranking/facets.ts, `parts`): a posting list's part, the week of start counted from the epoch, long events,
 * the span date windows look back (changed when the longest short event grows), a title.
 */
export const PART = {
  topic: (slug: string) => `topic ${slug}`,
  kind: (kind: string) => `kind ${kind}`,
  format: (format: string) => `format ${format}`,
  price: (price: string) => `price ${price}`,
  seniority: (seniority: string) => `seniority ${seniority}`,
  place: (geonameId: number) => `place ${geonameId}`,
  cell: (key: number) => `cell ${key}`,
  week: (ms: number) => `week ${Math.floor(ms / WEEK_MS)}`,
  long: 'long',
  span: 'span',
  /** The events titled so (title words as `plain` splits them, years aside). */
  title: (words: readonly string[]) => `title ${words.join(' ')}`,
} as const;

/** The parts of a country an entry shows in (see Changes): its posting lists, its week of start, long events. */
export function partsOf(entry: IndexedEvent): string[] {
  const ev = entry.event;
  const parts = [PART.week(ev.start.getTime()), PART.format(ev.format), PART.price(ev.priceType)];
  for (const t of ev.topics) parts.push(PART.topic(t));
  for (const k of entry.kinds) parts.push(PART.kind(k));
  for (const s of ev.seniority) parts.push(PART.seniority(s));
  if (ev.format !== 'online' && ev.lat !== null && ev.lng !== null) {
    if (entry.place) parts.push(PART.place(entry.place.geonameId));
    parts.push(PART.cell(cellKey(ev.lat, ev.lng)));
  }
  if (endsAt(ev) - ev.start.getTime() > LONG_EVENT_MS) parts.push(PART.long);
  // A prompt naming this title lists the event whatever it asks (rank-shard.ts, `namedMatch`).
  parts.push(PART.title(withoutYears(wordsOf(entry.foldedTitle))));
  return parts;
}
