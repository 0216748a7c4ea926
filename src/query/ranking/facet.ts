import type { technologyFinder } from '../../catalogue/lexicon-technologies.js';
import type { TopicSlug } from '../../catalogue/taxonomy.js';
import type { Country } from '../../places/countries.js';
import type { CountryShard } from '../index/country-shard.js';
import type { TermHits } from '../index/full-text.js';
import type { Understanding } from '../prompt/understand.js';
import { points } from './points.js';

/**
 * What one event earns for each kind of evidence. Every event listed meets every constraint of the prompt (see
 * constraints.ts), so the weights order what meets them, and order the near misses among themselves: how strongly an
 * event meets what was asked, and what it offers beyond. The specific outranks the general.
 *
 * - A technology or name the person typed, found in an event's title or organizer, is the strongest evidence (6):
 *   "Java" in "JUG München: Java 24". Another name of the same technology is nearly as good (5.5: "JCON" for
 *   "Java", "PyCon" for "Python"), a part of it a little less (5: "Spring Boot" for "Java"), the description naming
 *   it less still (3: a talk among others). Weaker evidence does not meet the technology, but orders near misses: a
 *   wider technology in the title (2: a JavaScript conference for "Svelte"), the field named as a whole (1.5: a
 *   DevOpsCon for "Kubernetes"). The prompt of two or more words found as typed in a title or organizer is a series
 *   or group by name (3).
 * - The place named (4) at the place itself, less within 45 km, falling with the distance: Hamburg's events first for
 *   "KI Hamburg". A field named in general words (3, plus 0.5 when the title names the field as a whole, 0.25 when it
 *   names a part of it).
 * - Full-text words the lexicon does not know count up to 3, scaled by how well the best event matches them (BM25).
 * - The date window (4), founders (3: half for a description that only mentions them), format (2, a hybrid event 1.5
 *   for "online" or "in person"), price and seniority (2), the kind of event (1): the same for every event that meets
 *   them, so they matter among near misses.
 * - The field a specific word implies (1) and a general tech conference for any field (1) only order: an event naming
 *   only a neighbouring technology of that field (PyCon for "Java") gets nothing from it.
 * - Where the person is orders and never narrows: 2 in their city, falling to 1 at 45 km, 0.5 for what is within reach
 *   from anywhere (online, or a conference or hackathon worth the trip), nothing for an evening meetup far away.
 * - A language wished for (20) puts every event held in it first: more than all other differences between two events
 *   that meet the same constraints add up to.
 * - Among near misses, an event in another country than the one asked loses what a place asked would give (4): the
 *   same events at home, missing something else, come first.
 */
export const WEIGHT = {
  phrase: 3,
  typed: 6,
  same: 5.5,
  part: 5,
  described: 3,
  wider: 2,
  widerField: 1.5,
  place: 4,
  field: 3,
  fieldTitle: 0.5,
  fieldTitlePart: 0.25,
  text: 3,
  window: 4,
  founders: 3,
  format: 2,
  price: 2,
  seniority: 2,
  kind: 1,
  implied: 1,
  general: 1,
  home: 2,
  reach: 0.5,
  language: 20,
  elsewhere: 4,
} as const;

/** The fixed weights in points. */
export const POINTS = Object.fromEntries(Object.entries(WEIGHT).map(([k, w]) => [k, points(w)])) as {
  readonly [K in keyof typeof WEIGHT]: number;
};

/**
 * How a facet takes part. `filter`: it states a constraint (its `constraint`, see constraints.ts) — every event listed
 * meets every constraint asked, and the facet's points order them. `words`: the prompt's own words (full text, the
 * prompt found as typed in a name) order what the constraints let through, and decide what matches only when the
 * prompt states no constraint. `rank`: it only orders — where the person is, the language they wish for, the field a
 * specific word implies.
 */
export type Role = 'filter' | 'words' | 'rank';

/** The constraints a prompt can state (see constraints.ts, where each is defined). */
export const CONSTRAINT_NAMES = [
  'subject',
  'kind',
  'format',
  'price',
  'audience',
  'place',
  'country',
  'window',
] as const;
export type ConstraintName = (typeof CONSTRAINT_NAMES)[number];

/** A field the prompt names as such ("KI", "security", "Datenbanken" is not one: see PreparedTechnology). */
export interface AskedField {
  slug: TopicSlug;
  term: string;
}

/** A specific word of the prompt, with what it asks for worked out once per query. */
export interface PreparedTechnology {
  /** The lexicon's spelling, shown in reasons when the title uses it. */
  term: string;
  /** Its key (see termKey): a title using this very word earns `typed`. */
  typedKey: string;
  /** The word as typed, folded: also found as the start of a title word ("Symfony" in "SymfonyLive"). */
  word: string;
  /** The technologies it names; their parts; what they are part of, up to the fields. */
  ids: ReadonlySet<string>;
  parts: ReadonlySet<string>;
  wider: ReadonlySet<string>;
  /** Fields of all of these: events carrying one are candidates, as are the full-text hits of the word. */
  topics: readonly string[];
  /** The slots of the word's full-text hits (their scores play no part: the evidence ranks them). */
  hits: ReadonlySet<number>;
  description: ReturnType<typeof technologyFinder>;
  /** Key of the per-slot memo of the evidence. */
  memo: string;
}

/** The fields implied by the prompt's specific words, and whether a general tech event is a weak fit. */
export interface ImpliedFields {
  slugs: readonly TopicSlug[];
  /** Technologies the prompt asks for and what they are part of: a title naming another of the field is a neighbour. */
  related: ReadonlySet<string>;
  general: boolean;
  memo: string;
}

/** What a query needs per event, computed once per query rather than once per event. */
export interface PreparedQuery {
  u: Understanding;
  /** The country every event must be in, when the answer names one and no place (see constraints.ts). */
  country: Country | undefined;
  fields: AskedField[];
  technologies: PreparedTechnology[];
  implied: ImpliedFields | undefined;
  /** Full-text words with the events each matches in this shard. */
  text: { term: string; hits: TermHits }[];
  /** The best full-text score of any word (BM25; the facet's points are scaled by it). */
  maxText: number;
  /**
   * The prompt's words as `plain` splits them (["ai", "meetup", "berlin"]) when it has two or more, else none:
   * found as consecutive words of a title or organizer, a series or group by name (see `hasPhrase`).
   */
  phraseWords: readonly string[];
  /** Local day labels for date reasons ("Next week: Thu 26 Nov"). */
  day: (date: Date) => string;
}

/**
 * One kind of evidence a prompt can ask for, described once: scoring over posting lists, the reasons shown, and the
 * reference scan (test/engine-postings.test.ts) all follow from it.
 * - `role`: how it takes part in matching (see Role), and for a filter the constraint it states and what meets it;
 * - `asks`: what the prompt asks of this facet, one item per value asked (each topic, each format…);
 * - `candidates`: visits the slots that may earn points for an item (a superset of those `score` gives points), each
 *   once;
 * - `score`: the points (see POINTS_PER_WEIGHT) one event earns for an item, 0 when it does not match;
 * - `reasons`: why it matched, only asked for events returned (building strings for every candidate would be most
 *   of a query's cost).
 * An event's score is the sum of its points over every facet asked (whole numbers: the same sum whether it is reached
 * through candidates or by scanning every event).
 */
export interface Facet<A> {
  name: string;
  role: Role;
  /** For a filter: the constraint it states (a field and a technology both state the subject). */
  constraint?: ConstraintName;
  /**
   * For a filter: whether the event meets an item. Without it, an event meets an item it earns points for; a
   * technology earns some for weaker evidence than it asks (a JavaScript conference for "Svelte").
   */
  meets?(shard: CountryShard, slot: number, a: A, q: PreparedQuery): boolean;
  asks(q: PreparedQuery): readonly A[];
  /** For filters and words: the slots that may earn points for an item (ranking facets only add to those). */
  candidates?(shard: CountryShard, a: A, q: PreparedQuery, visit: (slot: number) => void): void;
  score(shard: CountryShard, slot: number, a: A, q: PreparedQuery): number;
  reasons(shard: CountryShard, slot: number, a: A, q: PreparedQuery, out: string[]): void;
}
