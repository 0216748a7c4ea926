import type { CatalogueEvent } from '../../catalogue/event.js';
import { foldText, isLexiconWord, matchLexicon, termKey } from '../../catalogue/lexicon.js';
import { technologiesNamed } from '../../catalogue/lexicon-technologies.js';
import { isTopic } from '../../catalogue/taxonomy.js';
import { distanceKm, type Place } from '../../places/gazetteer.js';
import { type CountryShard, formatCode } from '../index/country-shard.js';
import { type IndexedEvent, nameWordsOf } from '../index/indexed-event.js';
import type { SharedValues } from '../index/shared-values.js';
import type { ReadonlySlotList } from '../index/slot-list.js';
import { NEAR_RADIUS_KM } from '../params.js';
import type { PreparedQuery, PreparedTechnology } from './facet.js';

export const NONE: readonly never[] = Object.freeze([]);

/**
 * What a facet asking one item asks, as a list made once per item and query (`q.singles`): ranking asks each facet
 * for its items for every event it scores, and a list made each time is garbage a thousand times a prompt.
 */
export function only<A>(q: PreparedQuery, item: A | undefined): readonly A[] {
  if (item === undefined) return NONE;
  let list = q.singles.get(item);
  if (!list) {
    list = Object.freeze([item]);
    q.singles.set(item, list);
  }
  return list as readonly A[];
}

export function visitList(list: ReadonlySlotList | undefined, visit: (slot: number) => void): void {
  if (!list) return;
  const { items, length } = list;
  for (let i = 0; i < length; i++) visit(items[i]!);
}

/** Visits the events carrying any of `topics` (one carrying several, once for each). */
export function visitTopics(shard: CountryShard, topics: readonly string[], visit: (slot: number) => void): void {
  for (const topic of topics) visitList(shard.byTopic.get(topic), visit);
}

/** Whether the event carries one of the first `count` topics (all of them by default). */
export function carriesAny(ev: CatalogueEvent, topics: readonly string[], count = topics.length): boolean {
  for (let i = 0; i < count; i++) if (ev.topics.includes(topics[i]!)) return true;
  return false;
}

/** The slots on both ascending lists. */
export function intersect(a: ArrayLike<number>, aLength: number, b: ArrayLike<number>, bLength: number): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < aLength; i++) {
    const slot = a[i]!;
    while (j < bLength && b[j]! < slot) j++;
    if (j === bLength) break;
    if (b[j] === slot) out.push(slot);
  }
  return out;
}

// ---------------------------------------------------------------- what titles and organizers name

/**
 * The topic terms a name uses, as triples (topic, lexicon term, words used), computed once per title and organizer
 * and shared by every name using the same terms alike ("AI Meetup #12" and "#13"), so memory does not grow per event.
 */
export type Named = readonly string[];
const NAMES_NOTHING: Named = Object.freeze([]);

/** The terms a name uses, as the index's shared list of them (a catalogue's names use a few thousand combinations). */
function termsIn(text: string, shared: SharedValues): Named {
  const out: string[] = [];
  for (const hit of matchLexicon(text)) {
    if (hit.kind === 'topic') out.push(hit.value, hit.term, text.slice(hit.start, hit.start + hit.length));
  }
  return out.length > 0 ? shared.named(out) : NAMES_NOTHING;
}

export function titleNames(e: IndexedEvent): Named {
  e.titleNames ??= termsIn(e.event.title, e.shared);
  return e.titleNames;
}

/** The terms the entry's organizer uses, made once for every event of that organizer. */
export function organizerNames(e: IndexedEvent): Named {
  e.organizer.names ??= termsIn(e.event.organizer, e.shared);
  return e.organizer.names;
}

/** The words of the title naming topic `slug`: the field as a whole ("KI") if it does, else a part ("LLMs"). */
export function titleNamesTopic(e: IndexedEvent, slug: string): { words: string; whole: boolean } | undefined {
  const named = titleNames(e);
  let part: string | undefined;
  for (let i = 0; i < named.length; i += 3) {
    if (named[i] !== slug) continue;
    if (technologiesNamed(named[i + 1]!).includes(slug)) return { words: named[i + 2]!, whole: true };
    part ??= named[i + 2];
  }
  return part === undefined ? undefined : { words: part, whole: false };
}

/** How strongly an event speaks for a technology, weakest first; `Described` is the description's, others a name's. */
export enum Strength {
  None = 0,
  Field = 1,
  Wider = 2,
  Described = 3,
  Part = 4,
  Same = 5,
  Typed = 6,
}

function strengthIn(named: Named, words: readonly string[], t: PreparedTechnology): { strength: Strength; at: number } {
  let best = { strength: Strength.None, at: -1 };
  for (let i = 0; i < named.length; i += 3) {
    const term = named[i + 1]!;
    let strength = Strength.None;
    if (termKey(term) === t.typedKey) strength = Strength.Typed;
    else {
      for (const id of technologiesNamed(term)) {
        if (t.ids.has(id)) strength = Math.max(strength, Strength.Same);
        else if (t.parts.has(id)) strength = Math.max(strength, Strength.Part);
        else if (t.wider.has(id)) strength = Math.max(strength, isTopic(id) ? Strength.Field : Strength.Wider);
      }
    }
    if (strength > best.strength) best = { strength, at: i };
  }
  // A name using the typed word as the start of a word the lexicon does not know: "Symfony" in "SymfonyLive".
  if (best.strength < Strength.Typed && t.word.length >= 4) {
    for (const w of words) {
      if (w.length > t.word.length && w.startsWith(t.word) && !isLexiconWord(w))
        return { strength: Strength.Typed, at: -1 };
    }
  }
  return best;
}

/** The strongest evidence for a technology, packed: strength times two, plus one when the organizer shows it. */
function technologyEvidence(e: IndexedEvent, t: PreparedTechnology): number {
  const names = nameWordsOf(e);
  const title = strengthIn(titleNames(e), names.title, t).strength;
  const organizer = strengthIn(organizerNames(e), names.organizer, t).strength;
  const named = organizer > title ? organizer * 2 + 1 : title * 2;
  if (named >> 1 > Strength.Described) return named;
  const description = e.event.description;
  if (t.description && description && t.description.any.test(foldText(description))) return Strength.Described * 2;
  return named;
}

/** The evidence of an event that is no candidate for the technology: neither on its topics nor a full-text hit. */
export const NOT_A_CANDIDATE = 127;

/**
 * The event's evidence, memoized per slot as technologies recur between prompts, or NOT_A_CANDIDATE; a slot's
 * memo resets only when its event changes.
 */
export function evidenceAt(shard: CountryShard, slot: number, t: PreparedTechnology): number {
  return shard.memo(t.memo, slot, t, evidenceOf);
}

/** Module-level rather than a closure over `t` and `slot`: it runs per slot, and a closure would be made per call. */
function evidenceOf(e: IndexedEvent, t: PreparedTechnology, slot: number): number {
  return t.hits.has(slot) || carriesAny(e.event, t.topics) ? technologyEvidence(e, t) : NOT_A_CANDIDATE;
}

/** The words a name uses for a technology, for the reason. */
export function citedIn(named: Named, words: readonly string[], t: PreparedTechnology): string {
  const { at } = strengthIn(named, words, t);
  if (at >= 0) return named[at + 2]!;
  return words.find((w) => w.startsWith(t.word)) ?? t.term;
}

// ---------------------------------------------------------------- places

/** A cheap box test before the great-circle distance: 45 km is under 0.41° of latitude and 0.7° of longitude here. */
export function roughlyNear(here: { lat: number; lng: number }, lat: number, lng: number): boolean {
  return Math.abs(lat - here.lat) < 0.41 && Math.abs(lng - here.lng) < 0.7;
}

export type AskedPlace = { place: Place; mode: 'in' | 'near' };

/** Distance from a place to the event at a slot, when it has a point and is not online; else Infinity. */
function distanceFrom(shard: CountryShard, slot: number, here: Place): number {
  const lat = shard.lat[slot]!;
  const lng = shard.lng[slot]!;
  if (shard.formatCode[slot] === ONLINE || Number.isNaN(lat) || !roughlyNear(here, lat, lng))
    return Number.POSITIVE_INFINITY;
  return distanceKm(here, lat, lng);
}
export const ONLINE = formatCode('online');

/** The events at a place and in the grid cells around it, each once. */
export function visitAround(shard: CountryShard, here: Place, visit: (slot: number) => void): void {
  visitList(shard.byPlace.get(here.geonameId), visit);
  for (const cell of shard.cellsAround(here.lat, here.lng)) {
    for (let i = 0; i < cell.length; i++) {
      const slot = cell.items[i]!;
      if (shard.geonameId[slot] !== here.geonameId) visit(slot);
    }
  }
}

/**
 * Closeness in thousandths: AT_PLACE at the place, else 1,000 falling to 500 at 45 km, 0 beyond, online or unplaced;
 * whole numbers, as points are (see POINTS_PER_WEIGHT).
 */
export function closeness(shard: CountryShard, slot: number, here: Place): number {
  if (shard.formatCode[slot] === ONLINE || Number.isNaN(shard.lat[slot]!)) return 0;
  if (shard.geonameId[slot] === here.geonameId) return AT_PLACE;
  const d = distanceFrom(shard, slot, here);
  return d <= NEAR_RADIUS_KM ? Math.round(CLOSE - (CLOSE * d) / (2 * NEAR_RADIUS_KM)) : 0;
}
/** The closeness of an event next to the place, but not at it. */
export const CLOSE = 1000;
export const AT_PLACE = 2 * CLOSE;

export const km = (shard: CountryShard, slot: number, here: Place) =>
  Math.max(1, Math.round(distanceFrom(shard, slot, here)));
