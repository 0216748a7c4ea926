import { LRUCache } from 'lru-cache';
import MiniSearch from 'minisearch';
import type { CatalogueEvent } from '../../catalogue/event.js';
import { foldText } from '../../catalogue/lexicon.js';
import { isTopic, topicLabel } from '../../catalogue/taxonomy.js';
import { BulkMiniSearch, type ScoredMatches } from './bulk-minisearch.js';

/** Lower-case, accent-folded, with simple plural endings removed, so "Konferenzen"/"meetups" meet "meetup". */
export function processTerm(term: string): string | null {
  const folded = foldText(term);
  if (folded.length < 2) return null;
  if (folded.length > 4 && folded.endsWith('s') && !folded.endsWith('ss')) return folded.slice(0, -1);
  return folded;
}

/** What MiniSearch indexes of an event; `id` is the event's slot in its country shard. */
export interface SearchDocument {
  id: number;
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

/**
 * The events matching one full-text term in a shard: their slots, how well each matches (BM25) and in which fields
 * (bits of `fieldBit`), in flat arrays ordered by slot. A term's hits are kept across prompts and dropped with the
 * next change of the shard: as objects, a common word's thousands of hits outlived the young generation and then
 * died, a large part of what reads under writes left to the full collections that pause every request. A slot is
 * found by binary search, as a Map of positions would be one more object per hit.
 */
export class TermHits {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly fields: Uint8Array;
  /** The best score, 0 without hits. */
  readonly maxScore: number;

  constructor(matches: ScoredMatches) {
    const n = matches.size;
    this.slots = new Int32Array(n);
    this.scores = new Float64Array(n);
    this.fields = new Uint8Array(n);
    // In slot order: each slot with its index in `matches` in its low bits, sorted as plain numbers (exact below 2^53).
    const order = new Float64Array(n);
    for (let i = 0; i < n; i++) order[i] = (matches.idAt(i) as number) * ORDER_SPAN + i;
    order.sort();
    let best = 0;
    for (let k = 0; k < n; k++) {
      const at = order[k]! % ORDER_SPAN;
      const score = matches.scoreAt(at);
      this.slots[k] = (order[k]! - at) / ORDER_SPAN;
      this.scores[k] = score;
      this.fields[k] = matches.fieldsAt(at);
      best = Math.max(best, score);
    }
    this.maxScore = best;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Where `slot` is in the arrays, -1 when it is no hit. */
  indexOf(slot: number): number {
    const { slots } = this;
    let lo = 0;
    let hi = slots.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = slots[mid]!;
      if (at === slot) return mid;
      if (at < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
/** Above any number of hits (a shard holds far fewer events), and slot × span stays below 2^53. */
const ORDER_SPAN = 2 ** 24;

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

function toDocument(slot: number, event: CatalogueEvent): SearchDocument {
  return {
    id: slot,
    title: event.title,
    description: event.description ?? '',
    organizer: event.organizer,
    venue: event.venue ?? '',
    city: event.city ?? '',
    topics: topicsText(event.topics),
  };
}

const INDEX_OPTIONS = { idField: 'id', fields: [...SEARCH_FIELDS], processTerm };

const SEARCH_OPTIONS = {
  boost: { title: 3, organizer: 2, topics: 1.5, venue: 1, city: 1, description: 0.6 },
  prefix: (t: string) => t.length >= 4,
  fuzzy: (t: string) => (t.length >= 5 ? 0.2 : false),
  // At most two edits: 0.2 of a long word would allow three ("modernisation" → "tokenisation").
  maxFuzzy: 2,
};

/**
 * The full-text index of one country shard (BM25 over title, organizer, topics, venue, city and description, with
 * prefix and fuzzy matching), documents keyed by slot. Adding and removing a document keeps every statistic exact,
 * so it ranks as an index built at once from the same documents would. Recent results are kept by term until the
 * shard's text next changes: people and programs ask with the same words over and over, and a common word
 * matches a large part of the catalogue.
 */
export class FullTextIndex {
  private readonly search = new BulkMiniSearch<SearchDocument>(INDEX_OPTIONS);
  /** Bounded by hits as well as terms: a common word matches tens of thousands of events at 100k. */
  private readonly termHits = new LRUCache<string, TermHits>({
    max: 256,
    maxSize: 400_000,
    sizeCalculation: (hits) => Math.max(1, hits.size),
  });

  /**
   * Which slots match a term, by term: kept in step with every change instead of dropped with `termHits`. Whether a
   * document matches a term does not depend on the other documents (its scores do, through BM25's statistics), so a
   * change touches only the changed slot in each set. Ranking asks this of the words that name technologies, which
   * recur from prompt to prompt while the catalogue is written. At most 128 terms, and `maxKeptSlots` slots over all
   * their sets, counted here (`keptSlots`) as the sets grow and shrink with changes: the cache measures a value only
   * when it is stored.
   */
  private readonly matching = new LRUCache<string, Set<number>>({
    max: 128,
    dispose: (slots) => {
      this.keptSlots -= slots.size;
    },
  });
  private keptSlots = 0;
  private readonly maxKeptSlots: number;

  constructor({ maxKeptSlots = 200_000 }: { maxKeptSlots?: number } = {}) {
    this.maxKeptSlots = maxKeptSlots;
  }

  /** Slots held over all kept sets of `slotsMatching`. */
  get slotsKept(): number {
    return this.keptSlots;
  }

  /** Drops the least recently asked sets until the kept slots are within bounds (the last set asked stays). */
  private trimKept(): void {
    while (this.keptSlots > this.maxKeptSlots && this.matching.size > 1) this.matching.pop();
  }

  add(slot: number, event: CatalogueEvent): void {
    const document = toDocument(slot, event);
    this.search.add(document);
    this.forgetHits();
    if (this.matching.size === 0) return;
    // The document alone in an index of its own, asked as the whole index is: it matches a term there exactly when
    // it is among the term's hits in the whole index.
    const alone = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
    alone.add(document);
    for (const [term, slots] of this.matching.entries()) {
      if (!slots.has(slot) && alone.search(term, SEARCH_OPTIONS).length > 0) {
        slots.add(slot);
        this.keptSlots++;
      }
    }
    this.trimKept();
  }

  /** Removes the document `add` made of this slot and event. */
  remove(slot: number, event: CatalogueEvent): void {
    this.search.remove(toDocument(slot, event));
    this.forgetHits();
    for (const slots of this.matching.values()) if (slots.delete(slot)) this.keptSlots--;
  }

  private forgetHits(): void {
    if (this.termHits.size > 0) this.termHits.clear();
  }

  /** Replaces the content with these documents, added in bulk (see BulkMiniSearch). */
  load(documents: Iterable<{ slot: number; event: CatalogueEvent }>): void {
    this.search.removeAll();
    const batch: SearchDocument[] = [];
    for (const { slot, event } of documents) batch.push(toDocument(slot, event));
    this.search.addAll(batch);
    this.search.forgetBulkMemo();
    this.termHits.clear();
    this.matching.clear();
  }

  get size(): number {
    return this.search.documentCount;
  }

  /** The slots of the events matching one query term, as `searchTerm` finds them, without their scores. */
  slotsMatching(term: string): ReadonlySet<number> {
    let slots = this.matching.get(term);
    if (!slots) {
      slots = new Set(this.searchTerm(term).slots);
      this.matching.set(term, slots);
      this.keptSlots += slots.size;
      this.trimKept();
    }
    return slots;
  }

  /** The events matching one query term, with their scores and the fields they matched. */
  searchTerm(term: string): TermHits {
    let hits = this.termHits.get(term);
    if (!hits) {
      // Ids are slots; field ids are positions in SEARCH_FIELDS (INDEX_OPTIONS lists them in that order), so a match's
      // field bits are those of `fieldBit`.
      hits = new TermHits(this.search.scoreQuery(term, SEARCH_OPTIONS));
      this.termHits.set(term, hits);
    }
    return hits;
  }
}
