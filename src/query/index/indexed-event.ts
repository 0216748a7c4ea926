import { classifyKinds } from '../../catalogue/classify-kind.js';
import { duplicateKey } from '../../catalogue/duplicates.js';
import { type CatalogueEvent, endsAt } from '../../catalogue/event.js';
import { founderFit } from '../../catalogue/founders.js';
import { foldText } from '../../catalogue/lexicon.js';
import type { EventKind } from '../../catalogue/taxonomy.js';
import type { Place } from '../../places/gazetteer.js';
import { wordsOf } from './names.js';
import type { Organizer, SharedValues } from './shared-values.js';

/**
 * An event with everything the engine needs precomputed once, when it enters the index rather than per query.
 * Its times are not copied here: shown events have them in their shard's columns; the rest read the event's dates.
 */
export interface IndexedEvent {
  event: CatalogueEvent;
  /** The gazetteer place of its city (for city filters and "in Zürich" reasons). */
  place: Place | undefined;
  /** How well it fits `who=founders` (see founders.ts); -1 until first asked, as most queries never ask. */
  founderFit: -1 | 0 | 1 | 2;
  /**
   * The topic terms its title uses (see `titleNames` in ranking/evidence.ts); undefined until a prompt first asks, as
   * matching the lexicon costs more than the rest of an entry.
   */
  titleNames: readonly string[] | undefined;
  kinds: ReadonlySet<EventKind>;
  foldedTitle: string;
  /** Shared by the events of one organizer. */
  organizer: Organizer;
  /** The index's shared values, where what entries make lazily is shared too (see `titleNames`). */
  shared: SharedValues;
  /** Country and normalised title: events that may be the same event listed twice share it (see duplicates.ts). */
  duplicateKey: string;
  /** Links to the same event listed by other sources (cross-source duplicates), on the record that is shown. */
  alsoListedAt: readonly string[];
  /** Its slot in the country shard while it is shown; -1 while hidden as a duplicate of a richer record. */
  slot: number;
}

/** How long an ended event stays in the index (its page and duplicates resolve from memory a little longer). */
export const ENDED_KEPT_MS = 86_400_000;

/** One rule of when an event ends, for the index as for the writes (catalogue/event.ts). */
export { endsAt };

/** Whether the index holds an event at `nowMs`: listed, public, and not ended more than ENDED_KEPT_MS ago. */
export function belongsInIndex(event: CatalogueEvent, nowMs: number): boolean {
  return event.lifecycle === 'listed' && event.visibility === 'public' && endsAt(event) > nowMs - ENDED_KEPT_MS;
}

/** The entry's fit for `who=founders`, computed on first use and kept. */
export function founderFitOf(entry: IndexedEvent): 0 | 1 | 2 {
  if (entry.founderFit === -1) entry.founderFit = founderFit(entry.event);
  return entry.founderFit;
}

/** The `alsoListedAt` of every event without duplicates (most of them): one frozen array rather than 100k. */
export const NO_LINKS: readonly string[] = Object.freeze([]);

/** An event as the index holds it, sharing what other entries share through `shared` (the index's). */
export function indexEvent(event: CatalogueEvent, shared: SharedValues): IndexedEvent {
  return {
    event,
    place: event.city ? shared.city(event.city, event.country) : undefined,
    founderFit: -1,
    titleNames: undefined,
    kinds: shared.kinds(classifyKinds(event)),
    foldedTitle: foldText(event.title),
    organizer: shared.organizer(event.organizer),
    shared,
    duplicateKey: duplicateKey(event),
    alsoListedAt: NO_LINKS,
    slot: -1,
  };
}

/** The order of a listing without a prompt, and of equal scores: by start, then by id. */
export function compareByStart(a: IndexedEvent, b: IndexedEvent): number {
  return (
    a.event.start.getTime() - b.event.start.getTime() ||
    (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0)
  );
}

/**
 * The entry's title and organizer words. The title's list is made on each call rather than kept on the entry, as it
 * is asked for rarely (indexing, phrases, reasons); an organizer's list is shared (see SharedValues).
 */
export function nameWordsOf(entry: IndexedEvent): { title: readonly string[]; organizer: readonly string[] } {
  return { title: wordsOf(entry.foldedTitle), organizer: entry.organizer.words };
}
