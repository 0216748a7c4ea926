import { LRUCache } from 'lru-cache';
import { classifyKinds } from '../catalogue/classify-kind.js';
import type { Country } from '../catalogue/countries.js';
import type { CatalogueEvent } from '../catalogue/event.js';
import { foldText } from '../catalogue/lexicon.js';
import { type EventKind, isTopic, topicLabel } from '../catalogue/taxonomy.js';
import { groupDuplicates } from '../importers/dedupe.js';
import { type Place, resolveCity } from '../places/gazetteer.js';
import { founderFit } from './founders.js';
import { remembered } from './memo.js';
import { CountryShard } from './postings.js';
import { BulkMiniSearch } from './search-index.js';

/** An event with everything the engine needs precomputed once, at write time rather than per query. */
export interface IndexedEvent {
  event: CatalogueEvent;
  /** The gazetteer place of its city (for city filters and "in Zürich" reasons). */
  place: Place | undefined;
  /** How well it fits `who=founders` (see founders.ts); -1 until first asked, as most queries never ask. */
  founderFit: -1 | 0 | 1 | 2;
  kinds: ReadonlySet<EventKind>;
  /** Epoch ms of the start, for sorting and windows without touching Date objects. */
  startMs: number;
  /** Epoch ms after which the event is over (listings hold only events not yet ended). */
  endsAt: number;
  foldedTitle: string;
  foldedOrganizer: string;
  /**
   * The words of title and organizer in order, as `plain` splits them (see `nameWordsOf` in postings.ts), for the
   * shards' word lists and phrase matches; undefined until first asked.
   */
  titleWords: readonly string[] | undefined;
  organizerWords: readonly string[] | undefined;
  /** Links to the same event listed by other sources (cross-source duplicates). */
  alsoListedAt: string[];
}

/** Events without an end are taken to last this long (a typical evening meetup). */
const DEFAULT_DURATION_MS = 3 * 60 * 60 * 1000;

/** The entry's fit for `who=founders`, computed on first use and kept. */
export function founderFitOf(entry: IndexedEvent): 0 | 1 | 2 {
  if (entry.founderFit === -1) entry.founderFit = founderFit(entry.event);
  return entry.founderFit;
}

export function endsAt(event: Pick<CatalogueEvent, 'start' | 'end'>): number {
  return event.end ? event.end.getTime() : event.start.getTime() + DEFAULT_DURATION_MS;
}

/** Lower-case, accent-folded, with simple plural endings removed, so "Konferenzen"/"meetups" meet "meetup". */
export function processTerm(term: string): string | null {
  const folded = foldText(term);
  if (folded.length < 2) return null;
  if (folded.length > 4 && folded.endsWith('s') && !folded.endsWith('ss')) return folded.slice(0, -1);
  return folded;
}

/** What MiniSearch indexes of an event (see `toDocument`). */
export interface SearchDocument {
  id: string;
  title: string;
  description: string;
  organizer: string;
  venue: string;
  city: string;
  topics: string;
}

export const SEARCH_FIELDS = ['title', 'organizer', 'topics', 'venue', 'city', 'description'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** A field as one bit, so a full-text hit carries the fields it matched in one number. */
export function fieldBit(field: SearchField): number {
  return 1 << SEARCH_FIELDS.indexOf(field);
}
const FIELD_BITS = new Map<string, number>(SEARCH_FIELDS.map((f) => [f, fieldBit(f)]));

/** How well one event matches one full-text term, and in which fields (bits of `fieldBit`). */
export interface TextHit {
  score: number;
  fields: number;
}

/**
 * The read path: every public, listed, not-yet-ended event in memory, with a MiniSearch full-text index.
 * Kept in step with the database by `apply` (local writes, and NOTIFYs from other app nodes); a revision
 * check makes late or repeated notifications harmless.
 */
export class CatalogueIndex {
  private readonly entries = new Map<string, IndexedEvent>();
  /**
   * The highest revision seen of events not listed (any more); a listed event's is its entry's (see `revisionSeen`):
   * a second map of every listed id would cost some 5 MB at 100k events.
   */
  private readonly revisions = new Map<string, number>();
  private readonly search = new BulkMiniSearch<SearchDocument>({
    idField: 'id',
    fields: [...SEARCH_FIELDS],
    processTerm,
  });
  private duplicatesDirty = true;
  /**
   * Recent full-text results by term, valid for one index version. Bounded by hits as well as terms: at 100k events
   * a common word matches tens of thousands of them (~50 bytes a hit).
   */
  private readonly termHits = new LRUCache<string, Map<string, TextHit>>({
    max: 256,
    maxSize: 400_000,
    sizeCalculation: (hits) => Math.max(1, hits.size),
  });
  private termsVersion = -1;
  private readonly byCountry = new Map<Country, CountryShard>();
  private hidden = new Set<string>();
  /** Bumped on every change; outputs derive ETags from it. */
  version = 0;
  /** RSVPs (registered + waitlisted) per event id, for crowd estimates; kept in step like the events. */
  readonly attendance = new Map<string, number>();

  setAttendance(counts: Iterable<[string, number]>): void {
    for (const [id, n] of counts) {
      if (n > 0) this.attendance.set(id, n);
      else this.attendance.delete(id);
    }
    this.version++;
  }

  constructor(private readonly now: () => Date) {}

  /** Replaces the whole content (start-up). */
  load(events: Iterable<CatalogueEvent>): void {
    this.beginLoad();
    this.loadBatch(events);
    this.endLoad();
    // V8 gives the first objects of a shape field representations that later rows generalise (null beside numbers,
    // …), leaving the bulk of a freshly loaded catalogue on deprecated hidden classes and every scan megamorphic
    // (measured: 4× slower queries). Copies made now all get the final shape. (Events of `loadPages`, decoded by
    // the storage layer's BulkDecoder, all share one hidden class already.)
    for (const entry of this.entries.values()) entry.event = { ...entry.event };
  }

  /**
   * Replaces the whole content with pages as the database delivers them (start-up; see
   * EventsRepository.pagesNotEndedSince): each page is indexed and dropped before the next arrives.
   */
  async loadPages(pages: AsyncIterable<readonly CatalogueEvent[]>): Promise<void> {
    this.beginLoad();
    try {
      for await (const page of pages) this.loadBatch(page);
    } finally {
      this.endLoad();
    }
  }

  private beginLoad(): void {
    for (const [id, entry] of this.entries) this.revisions.set(id, entry.event.revision);
    this.entries.clear();
    this.search.removeAll();
    this.changed();
  }

  private endLoad(): void {
    this.search.forgetBulkMemo();
    this.changed();
  }

  /** After a change: outputs key cached responses on the version; shards and duplicates are rebuilt on demand. */
  private changed(): void {
    this.version++;
    this.duplicatesDirty = true;
    this.byCountry.clear();
  }

  /** `apply` for many events, with their full-text documents added in one `addAll` (much faster than one by one). */
  private loadBatch(events: Iterable<CatalogueEvent>): void {
    const now = this.now().getTime();
    const documents: SearchDocument[] = [];
    for (const event of events) {
      if (this.entries.has(event.id)) {
        // Seen before (a repeated id, or a change applied during the load): the general path, in order.
        this.search.addAll(documents.splice(0));
        this.apply(event);
        continue;
      }
      const seen = this.revisions.get(event.id);
      if (seen !== undefined && seen > event.revision) continue;
      if (event.lifecycle === 'listed' && event.visibility === 'public' && endsAt(event) > now - 86_400_000) {
        if (seen !== undefined) this.revisions.delete(event.id);
        this.entries.set(event.id, indexEvent(event));
        documents.push(toDocument(event));
      } else {
        this.revisions.set(event.id, event.revision);
      }
    }
    this.search.addAll(documents);
    this.changed();
  }

  /** Adds, replaces or removes one event according to its current state. Returns whether anything changed. */
  apply(event: CatalogueEvent): boolean {
    const seen = this.revisionSeen(event.id);
    if (seen !== undefined && seen > event.revision) return false;
    const listed =
      event.lifecycle === 'listed' &&
      event.visibility === 'public' &&
      endsAt(event) > this.now().getTime() - 86_400_000;
    const had = this.entries.has(event.id);
    if (had) {
      this.search.discard(event.id);
      this.entries.delete(event.id);
    }
    if (listed) {
      this.revisions.delete(event.id);
      this.entries.set(event.id, indexEvent(event));
      this.search.add(toDocument(event));
    } else {
      this.revisions.set(event.id, event.revision);
    }
    // Every change counts for the version (outputs key cached responses on it), listed or not: an unlisted or
    // cancelled event's page changes too.
    this.version++;
    if (had || listed) {
      this.duplicatesDirty = true;
      this.byCountry.clear();
    }
    return had || listed;
  }

  /** The highest revision seen of an event, listed or not. */
  private revisionSeen(id: string): number | undefined {
    return this.entries.get(id)?.event.revision ?? this.revisions.get(id);
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): IndexedEvent | undefined {
    return this.entries.get(id);
  }

  /** A country's visible events (listed, not hidden as a duplicate of a richer record) sorted by start, then id; rebuilt only after a change. */
  visibleIn(country: Country): readonly IndexedEvent[] {
    return this.shard(country).events;
  }

  /** A country's visible events with their posting lists (see postings.ts); rebuilt on the first read after a change. */
  shard(country: Country): CountryShard {
    this.refreshDuplicates();
    let shard = this.byCountry.get(country);
    if (!shard) {
      const list = [...this.entries.values()].filter(
        (e) => e.event.country === country && !this.hidden.has(e.event.id),
      );
      list.sort((a, b) => a.startMs - b.startMs || (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0));
      shard = new CountryShard(list);
      this.byCountry.set(country, shard);
    }
    return shard;
  }

  /**
   * Full-text scores of one query term: id → score and the fields it matched. Kept until the next change: people
   * and programs ask with the same words over and over, and a common word matches a large part of the catalogue.
   */
  searchTerm(term: string): ReadonlyMap<string, TextHit> {
    if (this.termsVersion !== this.version) {
      this.termHits.clear();
      this.termsVersion = this.version;
    }
    let hits = this.termHits.get(term);
    if (!hits) {
      hits = this.searchTermUncached(term);
      this.termHits.set(term, hits);
    }
    return hits;
  }

  private searchTermUncached(term: string): Map<string, TextHit> {
    const results = this.search.search(term, {
      boost: { title: 3, organizer: 2, topics: 1.5, venue: 1, city: 1, description: 0.6 },
      prefix: (t) => t.length >= 4,
      fuzzy: (t) => (t.length >= 5 ? 0.2 : false),
      // At most two edits: 0.2 of a long word would allow three ("modernisation" → "tokenisation").
      maxFuzzy: 2,
    });
    const out = new Map<string, TextHit>();
    for (const r of results) {
      let fields = 0;
      for (const matched of Object.values(r.match)) for (const f of matched) fields |= FIELD_BITS.get(f) ?? 0;
      out.set(String(r.id), { score: r.score, fields });
    }
    return out;
  }

  private refreshDuplicates(): void {
    if (!this.duplicatesDirty) return;
    this.duplicatesDirty = false;
    const hidden = new Set<string>();
    for (const entry of this.entries.values()) entry.alsoListedAt = NO_LINKS;
    for (const group of groupDuplicates([...this.entries.values()].map((e) => e.event))) {
      const canonical = this.entries.get(group.canonical.id);
      for (const duplicate of group.duplicates) {
        hidden.add(duplicate.id);
        const link = duplicate.sourceUrl ?? duplicate.url;
        if (canonical && link && !canonical.alsoListedAt.includes(link)) {
          if (canonical.alsoListedAt === NO_LINKS) canonical.alsoListedAt = [];
          canonical.alsoListedAt.push(link);
        }
      }
    }
    this.hidden = hidden;
  }
}

/** The `alsoListedAt` of every event without duplicates (most of them): one frozen array rather than 100k. */
const NO_LINKS = Object.freeze([]) as unknown as string[];

/** Folded organiser names: a catalogue has a few thousand organisers for 100k events. */
const FOLDED_ORGANIZERS = new Map<string, string>();

function foldedOrganizer(organizer: string): string {
  return remembered(FOLDED_ORGANIZERS, organizer, 20_000, foldText);
}

/** One Set per combination of kinds, shared by every event of that combination (a Set costs 150 bytes). */
const KIND_SETS = new Map<string, ReadonlySet<EventKind>>();

function sharedKinds(kinds: Set<EventKind>): ReadonlySet<EventKind> {
  const key = kinds.size === 0 ? '' : kinds.size === 1 ? kinds.values().next().value! : [...kinds].join(' ');
  const shared = KIND_SETS.get(key);
  if (shared) return shared;
  KIND_SETS.set(key, kinds);
  return kinds;
}

function indexEvent(event: CatalogueEvent): IndexedEvent {
  return {
    event,
    place: event.city ? resolveCity(event.city, event.country) : undefined,
    founderFit: -1,
    kinds: sharedKinds(classifyKinds(event)),
    startMs: event.start.getTime(),
    endsAt: endsAt(event),
    foldedTitle: foldText(event.title),
    foldedOrganizer: foldedOrganizer(event.organizer),
    titleWords: undefined,
    organizerWords: undefined,
    alsoListedAt: NO_LINKS,
  };
}

function toDocument(event: CatalogueEvent): SearchDocument {
  return {
    id: event.id,
    title: event.title,
    description: event.description ?? '',
    organizer: event.organizer,
    venue: event.venue ?? '',
    city: event.city ?? '',
    topics: topicsText(event.topics),
  };
}

/** Topic lists as searchable text; events read in bulk share their (frozen) topic lists, so this is mostly a lookup. */
const TOPICS_TEXT = new WeakMap<readonly string[], string>();

function topicsText(topics: readonly string[]): string {
  let text = TOPICS_TEXT.get(topics);
  if (text === undefined) {
    text = topics.map((t) => (isTopic(t) ? topicLabel(t) : t)).join(' ');
    if (Object.isFrozen(topics)) TOPICS_TEXT.set(topics, text);
  }
  return text;
}
