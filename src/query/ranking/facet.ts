import type { technologyFinder } from '../../catalogue/lexicon-technologies.js';
import type { TopicSlug } from '../../catalogue/taxonomy.js';
import type { CountryShard } from '../index/country-shard.js';
import type { TermHits } from '../index/full-text.js';
import type { Understanding } from '../prompt/understand.js';
import { points } from './points.js';

/**
 * What one event earns for each kind of evidence. The specific outranks the general: a technology or name typed,
 * found in the title, beats the place named, which beats the field named, which beats the kind of event.
 *
 * - A technology or name the person typed, found in an event's title or organizer, is the strongest evidence (6):
 *   "Java" in "JUG München: Java 24". Another name of the same technology is nearly as good (5.5: "JCON" for
 *   "Java", "PyCon" for "Python"; PyCon outranks a Python meetup for "Python conference" by its kind), a part of it
 *   a little less (5: "Spring Boot" for "Java"). The description naming it is weaker (3): a talk among others. A
 *   wider technology in the title is an acceptable answer (2: a JavaScript conference for "Svelte"), the field
 *   named as a whole a little less so (1.5: a DevOpsCon for "Kubernetes", a "Blockchain Week" for "Bitcoin"). The
 *   prompt of two or more words found as typed in a title or organizer is a series or group by name (3).
 * - The place named (4) comes next, so "KI Hamburg" answers with Hamburg first: it beats a field named in general
 *   words (3, plus 0.5 when the title names the field as a whole, 0.25 when it names a part of it), and loses to a
 *   typed technology in a title (≥ 5): PyCon in Darmstadt, 27 km away, beats a .NET conference in Frankfurt for
 *   "Python Frankfurt". Within 45 km a place counts less, falling with the distance.
 * - Full-text words the lexicon does not know count up to 3, scaled by how well the best event matches them (BM25).
 * - These decide which events match at all. The rest only qualify events that match (or decide, when the prompt
 *   asks none of the above: "this weekend", "Meetup"): the date window (4), founders (3), format, price and
 *   seniority (2), the kind of event (1), and the field a specific word implies (1). The implied field is a weak
 *   signal that never counts alone, so "Elixir" finds Elixir events or nothing, never other languages' meetups;
 *   an event naming only a neighbouring technology of that field (PyCon for "Java") gets nothing from it. A general
 *   tech conference is a weak fit (1) for any field or technology asked: at the place asked, it beats the place's
 *   events on other fields.
 * - Where the person is orders what matches and never makes an event match on its own: 2 in their city, falling to
 *   1 at 45 km, 0.5 for what is within reach from anywhere (online, or a conference or hackathon worth the trip),
 *   nothing for an evening meetup far away. A preference and a tie-breaker: "Sono di Zurigo e cerco un hackathon"
 *   finds hackathons, Zürich's first, and the person's city weighs half the place of "events in Munich".
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
} as const;

/** The fixed weights in points. */
export const POINTS = Object.fromEntries(Object.entries(WEIGHT).map(([k, w]) => [k, points(w)])) as {
  readonly [K in keyof typeof WEIGHT]: number;
};

/**
 * How a facet takes part in matching. `match`: its evidence makes an event match the prompt. `qualify`: it adds to
 * events that match, and makes them match only when the prompt asks nothing of any `match` facet ("this weekend",
 * "Meetup", "hackathons for students"). `prefer`: it adds to events that match, and makes them match only when the
 * prompt asks nothing else at all ("I live in Zürich"). `name`: the prompt found as typed in a name matches
 * whatever else it asks, and never keeps the others from deciding.
 */
export type Role = 'name' | 'match' | 'qualify' | 'prefer';
export const ROLE_RANK: Record<Role, number> = { name: -1, match: 0, qualify: 1, prefer: 2 };

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
 * - `role`: how it takes part in matching (see Role);
 * - `asks`: what the prompt asks of this facet, one item per value asked (each topic, each format…);
 * - `candidates`: visits the slots that may match an item (a superset of those `score` gives a weight), each once;
 * - `score`: the points (see POINTS_PER_WEIGHT) one event earns for an item, 0 when it does not match;
 * - `reasons`: why it matched, only asked for events returned (building strings for every candidate would be most
 *   of a query's cost).
 * An event's score is the sum of its points: those of the facets that decide the match, and those of the others
 * (whole numbers: the same sum whether it is reached through candidates or by scanning every event).
 */
export interface Facet<A> {
  name: string;
  role: Role;
  asks(q: PreparedQuery): readonly A[];
  candidates(shard: CountryShard, a: A, q: PreparedQuery, visit: (slot: number) => void): void;
  score(shard: CountryShard, slot: number, a: A, q: PreparedQuery): number;
  reasons(shard: CountryShard, slot: number, a: A, q: PreparedQuery, out: string[]): void;
}
