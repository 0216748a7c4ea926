import type { technologyFinder } from '../../catalogue/lexicon-technologies.js';
import type { TopicSlug } from '../../catalogue/taxonomy.js';
import type { Phrase } from '../../catalogue/words.js';
import type { Country } from '../../places/countries.js';
import type { CountryShard } from '../index/country-shard.js';
import type { TermHits } from '../index/full-text.js';
import type { SlotBits } from '../index/slot-bits.js';
import type { Understanding } from '../prompt/understand.js';

/**
 * `filter`: states a constraint, which every event listed meets. `words`: the prompt's own words, which decide the
 * match only when no constraint is stated. `rank`: only orders (where the person is, language, implied field).
 */
export type Role = 'filter' | 'words' | 'rank';

/** A field the prompt names as such ("KI", "security", "Datenbanken" is not one: see PreparedTechnology). */
export interface AskedField {
  slug: TopicSlug;
  term: string;
  /** Key of the per-slot memo of how a title names the field (made once, not once per event scored). */
  memo: string;
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
  hits: SlotBits;
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
  /** The same without years, when they may be an event's title: that event is a match, first (see `titled`). */
  titleWords: readonly string[];
  /** The zone of the answer and the instant it is made for: date reasons name days and periods in it. */
  zone: string;
  now: number;
  /** The one-item lists facets ask, by item, made once for the query (evidence.ts, `only`). */
  singles: Map<unknown, readonly unknown[]>;
}

/** How an event missing a constraint is told and ordered as a near miss. */
export interface NearMiss {
  /**
   * How near it comes (one of NEARNESS, facets.ts): the nearest are shown first, then by points. A number when every
   * such miss comes as near; else worked out per event, and then never the nearest of all (NEARNESS.otherWay).
   */
  nearness: number | ((shard: CountryShard, slot: number, q: PreparedQuery) => number);
  /** With `nearness` worked out per event: the nearest it can come (ranking stops looking once none can show). */
  upTo?: number;
  /** How it differs (said.ts, DIFFERS): "in March, not next week", "Winterthur, 52 km from Zürich", "about DevOps". */
  differs(shard: CountryShard, slot: number, q: PreparedQuery): Phrase;
}

/**
 * One kind of evidence, a row of the facet table (facets.ts): how it scores, how it constrains, how a near miss of it
 * is told. Scoring over posting lists, the reasons shown and the reference scan (test/engine-postings.test.ts)
 * follow from it. `candidates` visits a superset of the slots `score` gives points, some more than once (the ranking
 * visits each once, see rank-shard.ts); `reasons` runs only for events returned. Points are whole numbers, so the sum is the same whether reached through candidates or by
 * scanning every event.
 */
export interface Facet<A> {
  name: string;
  /** What the prompt asks of it: none, one or several items (several values of one constraint are alternatives). */
  asks(q: PreparedQuery): readonly A[];
  /** How it scores: the points one event earns for an item. */
  score(shard: CountryShard, slot: number, a: A, q: PreparedQuery): number;
  /** How it constrains: see Role. */
  role: Role;
  /** For a filter: the constraint it states (a field and a technology both state the subject). */
  constraint?: string;
  /** For a filter: whether an event meets an item; by default, when it earns points for it. */
  meets?(shard: CountryShard, slot: number, a: A, q: PreparedQuery): boolean;
  /** For a filter: how an event missing its constraint is told as a near miss (the same for every facet stating it). */
  nearMiss?: NearMiss;
  /** For filters and words: the slots that may earn points for an item (ranking facets only add to those). */
  candidates?(shard: CountryShard, a: A, q: PreparedQuery, visit: (slot: number) => void): void;
  /**
   * For a filter: sets in `bits` the bit of every slot `candidates` visits for an item (rank-shard.ts, `bySelectivity`,
   * combines one bitset a constraint a word at a time).
   */
  fill?(shard: CountryShard, a: A, q: PreparedQuery, bits: Uint32Array): void;
  /**
   * For a filter: at most how many slots `candidates` visits for an item, read off its lists' lengths without visiting
   * them (selectivity.ts). With two constraints or more (the only rankings that count), a field's are its own events.
   */
  count?(shard: CountryShard, a: A, q: PreparedQuery): number;
  /**
   * For a filter: the parts of the country (index/parts.ts, PART) that hold its candidates for an item; undefined,
   * or no `parts`: the whole country.
   */
  parts?(shard: CountryShard, a: A, q: PreparedQuery): readonly string[] | undefined;
  /** Why an event earning points for an item matches, in the words of said.ts. */
  reasons(shard: CountryShard, slot: number, a: A, q: PreparedQuery, out: Phrase[]): void;
}

/**
 * Whether the event at a slot earns points from any item any of the facets asks. Indexed loops, as it runs per slot:
 * `for…of` over the frozen arrays `asks` returns made an iterator and a result object per item and slot.
 */
export function scoresAny(facets: readonly Facet<unknown>[], shard: CountryShard, slot: number, q: PreparedQuery) {
  for (let f = 0; f < facets.length; f++) {
    const facet = facets[f]!;
    const items = facet.asks(q);
    for (let i = 0; i < items.length; i++) if (facet.score(shard, slot, items[i], q) > 0) return true;
  }
  return false;
}
