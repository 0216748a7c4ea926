import type { technologyFinder } from '../../catalogue/lexicon-technologies.js';
import type { TopicSlug } from '../../catalogue/taxonomy.js';
import type { Country } from '../../places/countries.js';
import type { CountryShard } from '../index/country-shard.js';
import type { TermHits } from '../index/full-text.js';
import type { Understanding } from '../prompt/understand.js';
import { points } from './points.js';

/**
 * What one event earns for each kind of evidence. Every event listed meets every constraint (constraints.ts), so the
 * weights order what meets them, and the near misses among themselves; the specific outranks the general.
 * - A technology typed, in a title or organizer (6); another name of it (5.5: "JCON" for "Java"); a part of it
 *   (5: "Spring Boot"); named in the description (3). Weaker, ordering near misses only: a wider technology in the
 *   title (2), the field named as a whole (1.5), a neighbouring field of a field asked (0.5). The prompt of two or more
 *   words found as typed in a name (3).
 * - The place named (4), falling with distance to 45 km. A field named in general words (3, +0.5 when the title names
 *   the field, +0.25 a part of it). Full-text words the lexicon does not know: up to 3, scaled by the best BM25.
 * - Window (4), founders (3, half when only the description mentions them), format (2, hybrid 1.5), price and
 *   seniority (2), kind (1): equal for all that meet them, so they order near misses.
 * - Only ordering: the field a specific word implies (1, nothing for a neighbouring technology: PyCon for "Java"), a
 *   general tech conference (1), where the person is (2 in their city, 1 at 45 km, 0.5 for what is worth the trip).
 * - A language wished for (20) outweighs every other difference between events meeting the same constraints.
 * Near misses are ordered by how near they come first (nearness.ts), then by these points.
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
  neighbour: 0.5,
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
} as const;

/** The fixed weights in points. */
export const POINTS = Object.fromEntries(Object.entries(WEIGHT).map(([k, w]) => [k, points(w)])) as {
  readonly [K in keyof typeof WEIGHT]: number;
};

/**
 * `filter`: states a constraint, which every event listed meets. `words`: the prompt's own words, which decide the
 * match only when no constraint is stated. `rank`: only orders (where the person is, language, implied field).
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
  /** The prompt's words (two or more) as `plain` splits them, found in a row in a name: a series or group by name. */
  phraseWords: readonly string[];
  /** Local day labels for date reasons ("Next week: Thu 26 Nov"). */
  day: (date: Date) => string;
}

/**
 * One kind of evidence, described once: scoring over posting lists, the reasons shown and the reference scan
 * (test/engine-postings.test.ts) follow from it. `candidates` visits a superset of the slots `score` gives points,
 * each once; `reasons` runs only for events returned. Points are whole numbers, so the sum is the same whether reached
 * through candidates or by scanning every event.
 */
export interface Facet<A> {
  name: string;
  role: Role;
  /** For a filter: the constraint it states (a field and a technology both state the subject). */
  constraint?: ConstraintName;
  /** For a filter: whether an event meets an item; by default, when it earns points for it. */
  meets?(shard: CountryShard, slot: number, a: A, q: PreparedQuery): boolean;
  asks(q: PreparedQuery): readonly A[];
  /** For filters and words: the slots that may earn points for an item (ranking facets only add to those). */
  candidates?(shard: CountryShard, a: A, q: PreparedQuery, visit: (slot: number) => void): void;
  score(shard: CountryShard, slot: number, a: A, q: PreparedQuery): number;
  reasons(shard: CountryShard, slot: number, a: A, q: PreparedQuery, out: string[]): void;
}
