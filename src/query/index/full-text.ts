import { LRUCache } from 'lru-cache';
import type { CatalogueEvent } from '../../catalogue/event.js';
import { foldText } from '../../catalogue/lexicon.js';
import { isTopic, topicLabel } from '../../catalogue/taxonomy.js';
import { countIn, frequencyOf, type Postings, removeFrom, slotOf } from './postings.js';
import { SlotBits } from './slot-bits.js';
import { TermHits } from './term-hits.js';

export { TermHits } from './term-hits.js';

/** Lower-case, accent-folded, with simple plural endings removed, so "Konferenzen"/"meetups" meet "meetup". */
export function processTerm(term: string): string | null {
  const folded = foldText(term);
  if (folded.length < 2) return null;
  if (folded.length > 4 && folded.endsWith('s') && !folded.endsWith('ss')) return folded.slice(0, -1);
  return folded;
}

export const SEARCH_FIELDS = ['title', 'organizer', 'topics', 'venue', 'city', 'description'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
const FIELDS = SEARCH_FIELDS.length;

/** A field as one bit, so a full-text hit carries the fields it matched in one number. */
export function fieldBit(field: SearchField): number {
  return 1 << SEARCH_FIELDS.indexOf(field);
}

/** How much a match in each field counts, in SEARCH_FIELDS order: a title says more than a description. */
const BOOST = [3, 2, 1.5, 1, 1, 0.6];
/** BM25+ (term-frequency saturation, length normalisation, a floor for any match). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Words of this length also match the longer words they begin ("kube" → "kubernetes"), weighted down. */
const PREFIX_FROM = 4;
const PREFIX_WEIGHT = 0.375;
/** Words of this length also match words a fifth of their length away in edits, at most two, weighted down. */
const FUZZY_FROM = 5;
const FUZZY_WEIGHT = 0.45;
const MAX_EDITS = 2;

/** Splits on spaces, line breaks and punctuation, as the full-text index always has. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;

/** The processed terms of a text, as the index and queries derive them. */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(SPACE_OR_PUNCTUATION)) {
    const term = processTerm(token);
    if (term) out.push(term);
  }
  return out;
}

/** A topic list as searchable text: the topics' labels. */
function topicsText(topics: readonly string[]): string {
  return topics.map((t) => (isTopic(t) ? topicLabel(t) : t)).join(' ');
}

/** The searchable text of an event, field by field in SEARCH_FIELDS order. */
function fieldsOf(event: CatalogueEvent): string[] {
  return [
    event.title,
    event.organizer,
    topicsText(event.topics),
    event.venue ?? '',
    event.city ?? '',
    event.description ?? '',
  ];
}

/**
 * Levenshtein distances with two rows reused: a search computes one for every word of like length in the index when a
 * query word is fuzzy. Each full-text index holds its own (the rows are scratch of one call at a time).
 */
export class EditDistance {
  #previous = new Uint16Array(64);
  #current = new Uint16Array(64);

  /** The distance of `a` and `b` when it is at most `max`; otherwise some number above `max`. */
  between(a: string, b: string, max: number): number {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    if (b.length >= this.#previous.length) {
      this.#previous = new Uint16Array(b.length + 1);
      this.#current = new Uint16Array(b.length + 1);
    }
    let row = this.#previous;
    let next = this.#current;
    for (let j = 0; j <= b.length; j++) row[j] = j;
    for (let i = 1; i <= a.length; i++) {
      next[0] = i;
      let least = i;
      for (let j = 1; j <= b.length; j++) {
        const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
        next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + cost);
        if (next[j]! < least) least = next[j]!;
      }
      if (least > max) return max + 1;
      [row, next] = [next, row];
    }
    return row[b.length]!;
  }
}

/** The edits a query word may be away from a word it matches (0: exact matches only). */
const editsAllowed = (term: string) =>
  term.length >= FUZZY_FROM ? Math.min(MAX_EDITS, Math.round(term.length * 0.2)) : 0;

/** A word's weight for a query word: 1 exact, less for a prefix, less still a few edits away; 0 for no match. */
export function matchWeight(query: string, term: string, edits: EditDistance): number {
  if (term === query) return 1;
  if (query.length >= PREFIX_FROM && term.startsWith(query)) {
    return (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - query.length));
  }
  const allowed = editsAllowed(query);
  if (allowed === 0) return 0;
  const distance = edits.between(query, term, allowed);
  return distance <= allowed ? (FUZZY_WEIGHT * term.length) / (term.length + distance) : 0;
}

/** A full-text index as readers outside its shard see it: searched, never changed. */
export type FullTextReader = Pick<FullTextIndex, 'size' | 'slotsMatching' | 'searchTerm'>;

/**
 * One shard's full-text index: BM25+ over title, organizer, topics, venue, city and description, with prefix and fuzzy
 * matches. Statistics stay exact through adds and removes and words are visited in sorted order, so an index kept in
 * step ranks exactly as one built at once. Results are kept by query until the next change, as queries recur.
 */
export class FullTextIndex {
  /** Per term, its postings in each field (index in SEARCH_FIELDS). */
  private readonly postings = new Map<string, (Postings | undefined)[]>();
  /** The terms in sorted order, for prefix matches. */
  private sorted: string[] = [];
  /** The terms by length, for fuzzy matches. */
  private readonly byLength: Set<string>[] = [];
  /** Each document's field lengths (its distinct words per field) at `slot * FIELDS + field`; 0 for a free slot. */
  private lengths = new Uint16Array(0);
  private documents = 0;
  /** Field lengths summed over the documents (their averages are these over the count). */
  private readonly totalLengths = SEARCH_FIELDS.map(() => 0);
  /** Bounded by hits as well as queries: a common word matches tens of thousands of events at 100k. */
  private readonly termHits = new LRUCache<string, TermHits>({
    max: 256,
    maxSize: 400_000,
    sizeCalculation: (hits) => Math.max(1, hits.size),
  });
  private loading = false;
  private readonly edits = new EditDistance();

  get size(): number {
    return this.documents;
  }

  add(slot: number, event: CatalogueEvent): void {
    if (this.lengthOf(slot, 0) > 0) throw new Error(`full text: slot ${slot} is in use`);
    this.makeRoomFor(slot);
    const texts = fieldsOf(event);
    texts.forEach((text, field) => {
      const tokens = text.split(SPACE_OR_PUNCTUATION);
      // Never 0 (an empty text splits into one empty token): 0 marks a free slot.
      const length = Math.min(new Set(tokens).size, 0xffff);
      this.lengths[slot * FIELDS + field] = length;
      this.totalLengths[field]! += length;
      for (const token of tokens) {
        const term = processTerm(token);
        if (!term) continue;
        countIn(this.fieldPostings(term, field), slot);
      }
    });
    this.documents++;
    this.termHits.clear();
  }

  /** Removes the document `add` made of this slot and event. */
  remove(slot: number, event: CatalogueEvent): void {
    if (this.lengthOf(slot, 0) === 0) return;
    fieldsOf(event).forEach((text, field) => {
      this.totalLengths[field]! -= this.lengthOf(slot, field);
      for (const term of termsOf(text)) {
        const fields = this.postings.get(term);
        const list = fields?.[field];
        if (fields && list && removeFrom(list, slot) === 0) fields[field] = undefined;
        if (fields?.every((list) => list === undefined)) this.forgetTerm(term);
      }
    });
    this.lengths.fill(0, slot * FIELDS, (slot + 1) * FIELDS);
    this.documents--;
    this.termHits.clear();
  }

  /** Replaces the content with these documents. */
  load(documents: Iterable<{ slot: number; event: CatalogueEvent }>): void {
    this.postings.clear();
    this.sorted.length = 0;
    this.byLength.length = 0;
    this.lengths = new Uint16Array(0);
    this.documents = 0;
    this.totalLengths.fill(0);
    // Terms are sorted once at the end rather than inserted in order one by one.
    this.loading = true;
    try {
      for (const { slot, event } of documents) this.add(slot, event);
    } finally {
      this.loading = false;
    }
    this.sorted = [...this.postings.keys()].sort();
    this.termHits.clear();
  }

  /**
   * The slots of the events `searchTerm` finds for a query, without scoring them: as bits, a few kilobytes whatever
   * they match, where a Set of a common word's tens of thousands of slots weighed a megabyte at 100k.
   */
  slotsMatching(query: string): SlotBits {
    const slots = new SlotBits(this.lengths.length / FIELDS);
    for (const word of termsOf(query)) {
      for (const [term] of this.derived(word)) {
        for (const list of this.postings.get(term)!) if (list) for (const posting of list) slots.add(slotOf(posting));
      }
    }
    return slots;
  }

  /**
   * Events matching any of the query's words, with scores and fields: per word and field BM25+ × the field's boost ×
   * `matchWeight`, summed, times the number of distinct query words matched.
   */
  searchTerm(query: string): TermHits {
    let hits = this.termHits.get(query);
    if (!hits) {
      hits = this.score(query);
      this.termHits.set(query, hits);
    }
    return hits;
  }

  private score(query: string): TermHits {
    const words = termsOf(query);
    const totals = new Map<number, { score: number; fields: number; words: number }>();
    words.forEach((word) => {
      const bit = 1 << words.indexOf(word);
      const sums = new Map<number, { score: number; fields: number }>();
      for (const [term, weight] of this.derived(word)) this.addScores(term, weight, sums);
      for (const [slot, { score, fields }] of sums) {
        const total = totals.get(slot);
        if (total) {
          total.score += score;
          total.fields |= fields;
          total.words |= bit;
        } else totals.set(slot, { score, fields, words: bit });
      }
    });
    const slots = [...totals.keys()].sort((a, b) => a - b);
    return new TermHits(
      slots,
      slots.map((slot) => {
        const { score, words } = totals.get(slot)!;
        return score * Math.max(1, bitCount(words));
      }),
      slots.map((slot) => totals.get(slot)!.fields),
    );
  }

  /** The terms of the index a query word matches, with their weights: itself, then the others in sorted order. */
  private derived(word: string): [string, number][] {
    const out: [string, number][] = [];
    if (this.postings.has(word)) out.push([word, 1]);
    const candidates = new Set<string>();
    if (word.length >= PREFIX_FROM) {
      for (let i = lowerBound(this.sorted, word); i < this.sorted.length; i++) {
        if (!this.sorted[i]!.startsWith(word)) break;
        candidates.add(this.sorted[i]!);
      }
    }
    const edits = editsAllowed(word);
    for (let length = word.length - edits; length <= word.length + edits; length++) {
      for (const term of this.byLength[length] ?? []) candidates.add(term);
    }
    candidates.delete(word);
    for (const term of [...candidates].sort()) {
      const weight = matchWeight(word, term, this.edits);
      if (weight > 0) out.push([term, weight]);
    }
    return out;
  }

  /** A matched term's BM25+ scores, each field in turn, into `sums`. */
  private addScores(term: string, weight: number, sums: Map<number, { score: number; fields: number }>): void {
    const count = this.documents;
    this.postings.get(term)!.forEach((list, field) => {
      if (!list) return;
      const size = list.length;
      const idf = Math.log(1 + (count - size + 0.5) / (size + 0.5));
      const average = this.totalLengths[field]! / count;
      for (const posting of list) {
        const slot = slotOf(posting);
        const freq = frequencyOf(posting);
        const length = this.lengths[slot * FIELDS + field]!;
        const raw =
          idf * (BM25.d + (freq * (BM25.k + 1)) / (freq + BM25.k * (1 - BM25.b + (BM25.b * length) / average)));
        const score = weight * BOOST[field]! * raw;
        const sum = sums.get(slot);
        if (sum) {
          sum.score += score;
          sum.fields |= 1 << field;
        } else sums.set(slot, { score, fields: 1 << field });
      }
    });
  }

  private lengthOf(slot: number, field: number): number {
    return this.lengths[slot * FIELDS + field] ?? 0;
  }

  private makeRoomFor(slot: number): void {
    if ((slot + 1) * FIELDS <= this.lengths.length) return;
    const grown = new Uint16Array(Math.max(slot + 1, 2 * (this.lengths.length / FIELDS), 64) * FIELDS);
    grown.set(this.lengths);
    this.lengths = grown;
  }

  private fieldPostings(term: string, field: number): Postings {
    let fields = this.postings.get(term);
    if (!fields) {
      fields = [];
      this.postings.set(term, fields);
      if (!this.loading) this.sorted.splice(lowerBound(this.sorted, term), 0, term);
      this.byLength[term.length] ??= new Set();
      this.byLength[term.length]!.add(term);
    }
    let list = fields[field];
    if (!list) {
      list = [];
      fields[field] = list;
    }
    return list;
  }

  private forgetTerm(term: string): void {
    this.postings.delete(term);
    this.sorted.splice(lowerBound(this.sorted, term), 1);
    this.byLength[term.length]?.delete(term);
  }
}

function bitCount(bits: number): number {
  let n = 0;
  for (; bits !== 0; bits &= bits - 1) n++;
  return n;
}

/** The first position in sorted `list` whose item is not below `item`. */
function lowerBound(list: readonly string[], item: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < item) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
