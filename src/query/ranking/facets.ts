import type { CatalogueEvent } from '../../catalogue/event.js';
import { foldText, isLexiconWord, matchLexicon, termKey } from '../../catalogue/lexicon.js';
import {
  technologiesNamed,
  technologyAndParts,
  technologyFinder,
  topicsOfTechnologies,
  widerTechnologies,
} from '../../catalogue/lexicon-technologies.js';
import {
  EVENT_KIND_LABELS,
  type EventKind,
  FORMAT_LABELS,
  type Format,
  isTopic,
  SENIORITY_LABELS,
  type Seniority,
  type TopicSlug,
  topicLabel,
} from '../../catalogue/taxonomy.js';
import { distanceKm, type Place } from '../../places/gazetteer.js';
import { CELL_LAT, CELL_LNG, type CountryShard, formatCode } from '../index/country-shard.js';
import { fieldBit, type SearchField, type TextHit } from '../index/full-text.js';
import { founderFitOf, type IndexedEvent } from '../index/indexed-event.js';
import { hasPhrase, nameWordsOf, plain } from '../index/names.js';
import type { SlotList } from '../index/slot-list.js';
import { remembered } from '../memo.js';
import { NEAR_RADIUS_KM } from '../params.js';
import type { DateWindowHit } from '../prompt/dates.js';
import type { Understanding } from '../prompt/understand.js';

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
  hits: ReadonlyMap<number, TextHit>;
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
  text: { term: string; hits: ReadonlyMap<number, TextHit> }[];
  /** The best full-text score of any word (scores are scaled by it). */
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
 * - `score`: the weight one event earns for an item, 0 when it does not match;
 * - `reasons`: why it matched, only asked for events returned (building strings for every candidate would be most
 *   of a query's cost).
 * An event's score is the sum of its weights: first those of the facets that decide the match, then those of the
 * others, each in facet order and item order — the same floating-point sum whether it is reached through
 * candidates or by scanning every event.
 */
export interface Facet<A> {
  name: string;
  role: Role;
  asks(q: PreparedQuery): readonly A[];
  candidates(shard: CountryShard, a: A, q: PreparedQuery, visit: (slot: number) => void): void;
  score(shard: CountryShard, slot: number, a: A, q: PreparedQuery): number;
  reasons(shard: CountryShard, slot: number, a: A, q: PreparedQuery, out: string[]): void;
}

const NONE: readonly never[] = Object.freeze([]);

function visitList(list: SlotList | undefined, visit: (slot: number) => void): void {
  if (!list) return;
  const { items, length } = list;
  for (let i = 0; i < length; i++) visit(items[i]!);
}

/** Visits the events carrying any of `topics`, each once (an event on several lists is visited from the first). */
function visitTopics(shard: CountryShard, topics: readonly string[], visit: (slot: number) => void): void {
  topics.forEach((topic, i) => {
    const list = shard.byTopic.get(topic);
    if (!list) return;
    const { items, length } = list;
    for (let k = 0; k < length; k++) {
      const slot = items[k]!;
      if (i === 0 || !carriesAny(shard.at(slot).event, topics, i)) visit(slot);
    }
  });
}

/** Whether the event carries one of the first `count` topics (all of them by default). */
function carriesAny(ev: CatalogueEvent, topics: readonly string[], count = topics.length): boolean {
  for (let i = 0; i < count; i++) if (ev.topics.includes(topics[i]!)) return true;
  return false;
}

/** The slots on both ascending lists. */
function intersect(a: ArrayLike<number>, aLength: number, b: ArrayLike<number>, bLength: number): number[] {
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
 * The topic terms a name uses, as triples (topic, the lexicon's term, the words used), computed once per title and
 * per organizer. Most names use none and share one empty list.
 */
type Named = readonly string[];
const NAMES_NOTHING: Named = Object.freeze([]);
const titleTerms = new WeakMap<CatalogueEvent, Named>();
const organizerTerms = new Map<string, Named>();

function termsIn(text: string): Named {
  const out: string[] = [];
  for (const hit of matchLexicon(text)) {
    if (hit.kind === 'topic') out.push(hit.value, hit.term, text.slice(hit.start, hit.start + hit.length));
  }
  return out.length > 0 ? out : NAMES_NOTHING;
}

function titleNames(ev: CatalogueEvent): Named {
  let named = titleTerms.get(ev);
  if (!named) {
    named = termsIn(ev.title);
    titleTerms.set(ev, named);
  }
  return named;
}

const organizerNames = (ev: CatalogueEvent): Named => remembered(organizerTerms, ev.organizer, 20_000, termsIn);

/**
 * The words of `ev`'s title that name topic `slug`, if it names it: the field as a whole ("IT Security", "KI",
 * "Nullcon") if it does, else a part of it ("Confidential Computing", "LLMs").
 */
function titleNamesTopic(ev: CatalogueEvent, slug: string): { words: string; whole: boolean } | undefined {
  const named = titleNames(ev);
  let part: string | undefined;
  for (let i = 0; i < named.length; i += 3) {
    if (named[i] !== slug) continue;
    if (technologiesNamed(named[i + 1]!).includes(slug)) return { words: named[i + 2]!, whole: true };
    part ??= named[i + 2];
  }
  return part === undefined ? undefined : { words: part, whole: false };
}

/**
 * How strongly an event speaks for a technology, weakest first; `Described` is the description's, the others a
 * name's (title or organizer).
 */
enum Strength {
  None = 0,
  Field = 1,
  Wider = 2,
  Described = 3,
  Part = 4,
  Same = 5,
  Typed = 6,
}
const STRENGTH_WEIGHT = [0, WEIGHT.widerField, WEIGHT.wider, WEIGHT.described, WEIGHT.part, WEIGHT.same, WEIGHT.typed];

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

/**
 * The strongest evidence an event shows for a technology, as one small number memoized per slot: the strength
 * times two, plus one when the organizer shows it rather than the title.
 */
function technologyEvidence(e: IndexedEvent, t: PreparedTechnology): number {
  const names = nameWordsOf(e);
  const title = strengthIn(titleNames(e.event), names.title, t).strength;
  const organizer = strengthIn(organizerNames(e.event), names.organizer, t).strength;
  const named = organizer > title ? organizer * 2 + 1 : title * 2;
  if (named >> 1 > Strength.Described) return named;
  const description = e.event.description;
  if (t.description && description && t.description.any.test(foldText(description))) return Strength.Described * 2;
  return named;
}

/** Kept per slot in the shard, as a prompt's technologies recur from query to query. */
function evidenceAt(shard: CountryShard, slot: number, t: PreparedTechnology): number {
  return shard.memo(t.memo, slot, (e) => technologyEvidence(e, t));
}

/** The words a name uses for a technology, for the reason. */
function citedIn(named: Named, words: readonly string[], t: PreparedTechnology): string {
  const { at } = strengthIn(named, words, t);
  if (at >= 0) return named[at + 2]!;
  return words.find((w) => w.startsWith(t.word)) ?? t.term;
}

// ---------------------------------------------------------------- places

/** A cheap box test before the great-circle distance: 45 km is under 0.41° of latitude and 0.7° of longitude here. */
export function roughlyNear(here: { lat: number; lng: number }, lat: number, lng: number): boolean {
  return Math.abs(lat - here.lat) < 0.41 && Math.abs(lng - here.lng) < 0.7;
}

type AskedPlace = { place: Place; mode: 'in' | 'near' };

/** Distance from a place to the event at a slot, when it has a point and is not online; else Infinity. */
function distanceFrom(shard: CountryShard, slot: number, here: Place): number {
  const lat = shard.lat[slot]!;
  const lng = shard.lng[slot]!;
  if (shard.formatCode[slot] === ONLINE || Number.isNaN(lat) || !roughlyNear(here, lat, lng))
    return Number.POSITIVE_INFINITY;
  return distanceKm(here, { lat, lng });
}
const ONLINE = formatCode('online');

/** The events at a place and in the grid cells around it, each once. */
function visitAround(shard: CountryShard, here: Place, visit: (slot: number) => void): void {
  visitList(shard.byPlace.get(here.geonameId), visit);
  for (const cell of shard.cellsAround(here.lat, here.lng)) {
    for (let i = 0; i < cell.length; i++) {
      const slot = cell.items[i]!;
      if (shard.geonameId[slot] !== here.geonameId) visit(slot);
    }
  }
}

/** AT_PLACE for an event at the place itself; else 1 falling to 0.5 at 45 km away; 0 beyond, online or unplaced. */
function closeness(shard: CountryShard, slot: number, here: Place): number {
  if (shard.formatCode[slot] === ONLINE || Number.isNaN(shard.lat[slot]!)) return 0;
  if (shard.geonameId[slot] === here.geonameId) return AT_PLACE;
  const d = distanceFrom(shard, slot, here);
  return d <= NEAR_RADIUS_KM ? 1 - d / (2 * NEAR_RADIUS_KM) : 0;
}
const AT_PLACE = 2;

const km = (shard: CountryShard, slot: number, here: Place) => Math.max(1, Math.round(distanceFrom(shard, slot, here)));

// ---------------------------------------------------------------- the facets

const FIELD_REASON: Record<SearchField, (term: string, e: IndexedEvent) => string> = {
  title: (t) => `Title mentions “${t}”`,
  organizer: (_t, e) => `Organizer: ${e.event.organizer}`,
  topics: (t) => `Topic mentions “${t}”`,
  venue: (_t, e) => `At ${e.event.venue}`,
  city: (_t, e) => `In ${e.event.city}`,
  description: (t) => `Description mentions “${t}”`,
};
const FIELD_ORDER: SearchField[] = ['title', 'organizer', 'topics', 'venue', 'city', 'description'];

const phrase: Facet<readonly string[]> = {
  name: 'phrase',
  role: 'name',
  asks: (q) => (q.phraseWords.length > 0 ? [q.phraseWords] : NONE),
  candidates(shard, words, _q, visit) {
    // Every word of a phrase found in a name is a word of that name: the events on every word's list (rarest first).
    const lists: SlotList[] = [];
    for (const word of words) {
      const list = shard.byNameWord.get(word);
      if (!list) return;
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    let candidates: ArrayLike<number> = lists[0]!.items;
    let length = lists[0]!.length;
    for (let i = 1; i < lists.length && length > 0; i++) {
      const next = lists[i]!;
      candidates = intersect(candidates, length, next.items, next.length);
      length = candidates.length;
    }
    for (let i = 0; i < length; i++) visit(candidates[i]!);
  },
  score(shard, slot, words) {
    const names = nameWordsOf(shard.at(slot));
    return hasPhrase(names.title, words) || hasPhrase(names.organizer, words) ? WEIGHT.phrase : 0;
  },
  reasons(shard, slot, words, _q, out) {
    const e = shard.at(slot);
    out.push(
      hasPhrase(nameWordsOf(e).title, words)
        ? `Title mentions “${words.join(' ')}”`
        : `Organizer: ${e.event.organizer}`,
    );
  },
};

const technology: Facet<PreparedTechnology> = {
  name: 'technology',
  role: 'match',
  asks: (q) => q.technologies,
  candidates(shard, t, _q, visit) {
    visitTopics(shard, t.topics, visit);
    for (const slot of t.hits.keys()) if (!carriesAny(shard.at(slot).event, t.topics)) visit(slot);
  },
  score(shard, slot, t) {
    if (!t.hits.has(slot) && !carriesAny(shard.at(slot).event, t.topics)) return 0;
    return STRENGTH_WEIGHT[evidenceAt(shard, slot, t) >> 1]!;
  },
  reasons(shard, slot, t, _q, out) {
    const e = shard.at(slot);
    const evidence = evidenceAt(shard, slot, t);
    const names = nameWordsOf(e);
    if (evidence >> 1 === Strength.Described) {
      const folded = foldText(e.event.description ?? '');
      const found = t.description?.each.find(([, pattern]) => pattern.test(folded));
      out.push(`Description mentions “${found?.[0] ?? t.term}”`);
    } else if (evidence % 2 === 0) out.push(`Title mentions “${citedIn(titleNames(e.event), names.title, t)}”`);
    else out.push(`Organizer: ${e.event.organizer}`);
  },
};

const topic: Facet<AskedField> = {
  name: 'topic',
  role: 'match',
  asks: (q) => q.fields,
  candidates: (shard, f, _q, visit) => visitList(shard.byTopic.get(f.slug), visit),
  score(shard, slot, f) {
    const ev = shard.at(slot).event;
    if (!ev.topics.includes(f.slug)) return 0;
    const named = titleNamesTopic(ev, f.slug);
    return named ? WEIGHT.field + (named.whole ? WEIGHT.fieldTitle : WEIGHT.fieldTitlePart) : WEIGHT.field;
  },
  reasons(shard, slot, f, _q, out) {
    const ev = shard.at(slot).event;
    out.push(`Topic: ${topicLabel(f.slug)}`);
    const named = titleNamesTopic(ev, f.slug);
    if (named) out.push(`Title mentions “${named.words}”`);
  },
};

const place: Facet<AskedPlace> = {
  name: 'place',
  role: 'match',
  asks: (q) => (q.u.place ? [q.u.place] : NONE),
  candidates: (shard, { place: here }, _q, visit) => visitAround(shard, here, visit),
  score(shard, slot, { place: here, mode }) {
    const near = closeness(shard, slot, here);
    if (near === AT_PLACE) return WEIGHT.place;
    // Within 45 km counts less than the place itself, and less still when the prompt said "in" rather than "near".
    return near > 0 ? WEIGHT.place * (mode === 'near' ? 0.9 : 0.75) * near : 0;
  },
  reasons(shard, slot, { place: here }, _q, out) {
    if (shard.geonameId[slot] === here.geonameId) out.push(`In ${here.name}`);
    else out.push(`${km(shard, slot, here)} km from ${here.name}`);
  },
};

const text: Facet<PreparedQuery['text'][number]> = {
  name: 'text',
  role: 'match',
  asks: (q) => q.text,
  candidates: (_shard, { hits }, _q, visit) => {
    for (const slot of hits.keys()) visit(slot);
  },
  score(_shard, slot, { hits }, q) {
    const hit = hits.get(slot);
    return hit ? (WEIGHT.text * hit.score) / q.maxText : 0;
  },
  reasons(shard, slot, { term, hits }, _q, out) {
    const hit = hits.get(slot)!;
    const field = FIELD_ORDER.find((f) => hit.fields & fieldBit(f));
    if (field) out.push(FIELD_REASON[field](term, shard.at(slot)));
  },
};

const window: Facet<DateWindowHit> = {
  name: 'window',
  role: 'qualify',
  asks: (q) => (q.u.window ? [q.u.window] : NONE),
  candidates(shard, w, _q, visit) {
    const from = w.from.getTime();
    const end = shard.firstStartingAt(w.to.getTime());
    const { items } = shard.order;
    for (let i = shard.firstStartingAt(from - shard.longestShortMs); i < end; i++) {
      const slot = items[i]!;
      if (shard.long[slot] === 0) visit(slot);
    }
    visitList(shard.longEvents, visit);
  },
  score: (shard, slot, w) =>
    shard.startMs[slot]! < w.to.getTime() && shard.endsAt[slot]! > w.from.getTime() ? WEIGHT.window : 0,
  reasons(shard, slot, w, q, out) {
    const phrase = w.label.split(' (')[0]!;
    const ev = shard.at(slot).event;
    const shown = shard.startMs[slot]! >= w.from.getTime() ? ev.start : w.from;
    out.push(`${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}: ${q.day(shown)}`);
  },
};

/**
 * What a title or organizer names of the implied fields: 1 a technology the prompt asks for (or a part or a wider
 * one), -1 only others — neighbours ("PyCon" for "Java") —, 0 none.
 */
function namedInFields(named: Named, f: ImpliedFields): number {
  let found = 0;
  for (let i = 0; i < named.length; i += 3) {
    if (!f.slugs.includes(named[i] as TopicSlug)) continue;
    const ids = technologiesNamed(named[i + 1]!);
    if (ids.some((id) => f.related.has(id))) return 1;
    if (ids.some((id) => !isTopic(id))) found = -1;
  }
  return found;
}

/** 1: carries an implied field and names no neighbour only; 2: a general tech event; 0: neither. */
function impliedFit(e: IndexedEvent, f: ImpliedFields): number {
  const ev = e.event;
  if (carriesAny(ev, f.slugs)) {
    const title = namedInFields(titleNames(ev), f);
    const organizer = namedInFields(organizerNames(ev), f);
    return title === 1 || organizer === 1 || (title === 0 && organizer === 0) ? 1 : 0;
  }
  return f.general && ev.topics.includes('general') ? 2 : 0;
}

const field: Facet<ImpliedFields> = {
  name: 'field',
  role: 'qualify',
  asks: (q) => (q.implied ? [q.implied] : NONE),
  candidates(shard, f, _q, visit) {
    visitTopics(shard, f.slugs, visit);
    if (f.general) {
      visitList(shard.byTopic.get('general'), (slot) => {
        if (!carriesAny(shard.at(slot).event, f.slugs)) visit(slot);
      });
    }
  },
  score(shard, slot, f) {
    const fit = shard.memo(f.memo, slot, (e) => impliedFit(e, f));
    return fit === 1 ? WEIGHT.implied : fit === 2 ? WEIGHT.general : 0;
  },
  reasons(shard, slot, f, _q, out) {
    const ev = shard.at(slot).event;
    const carried = f.slugs.find((s) => ev.topics.includes(s));
    out.push(carried ? `Topic: ${topicLabel(carried)}` : 'General tech event');
  },
};

const format: Facet<Format> = {
  name: 'format',
  role: 'qualify',
  asks: (q) => q.u.formats,
  candidates(shard, f, _q, visit) {
    visitList(shard.byFormat.get(f), visit);
    if (f !== 'hybrid') visitList(shard.byFormat.get('hybrid'), visit);
  },
  score(shard, slot, f) {
    const ev = shard.at(slot).event;
    return ev.format === f ? WEIGHT.format : ev.format === 'hybrid' ? WEIGHT.format * 0.75 : 0;
  },
  reasons(shard, slot, f, _q, out) {
    out.push(
      shard.at(slot).event.format === f ? FORMAT_LABELS[f] : `Hybrid: also ${f === 'online' ? 'online' : 'in person'}`,
    );
  },
};

const price: Facet<'free' | 'paid'> = {
  name: 'price',
  role: 'qualify',
  asks: (q) => (q.u.price ? [q.u.price] : NONE),
  candidates: (shard, p, _q, visit) => visitList(shard.byPrice.get(p), visit),
  score: (shard, slot, p) => (shard.at(slot).event.priceType === p ? WEIGHT.price : 0),
  reasons: (_shard, _slot, p, _q, out) => out.push(p === 'free' ? 'Free' : 'Paid'),
};

const founders: Facet<true> = {
  name: 'founders',
  role: 'qualify',
  asks: (q) => (q.u.founders ? [true] : NONE),
  candidates: (shard, _a, _q, visit) => visitList(shard.founders().slots, visit),
  score: (shard, slot) => (WEIGHT.founders * founderFitOf(shard.at(slot))) / 2,
  reasons: (_shard, _slot, _a, _q, out) => out.push('For founders'),
};

const seniority: Facet<Seniority> = {
  name: 'seniority',
  role: 'qualify',
  asks: (q) => q.u.seniority,
  candidates: (shard, s, _q, visit) => visitList(shard.bySeniority.get(s), visit),
  score: (shard, slot, s) => (shard.at(slot).event.seniority.includes(s) ? WEIGHT.seniority : 0),
  reasons: (_shard, _slot, s, _q, out) => out.push(`For ${SENIORITY_LABELS[s].toLowerCase()}`),
};

const kind: Facet<EventKind> = {
  name: 'kind',
  role: 'qualify',
  asks: (q) => q.u.kinds,
  candidates: (shard, k, _q, visit) => visitList(shard.byKind.get(k), visit),
  score: (shard, slot, k) => (shard.at(slot).kinds.has(k) ? WEIGHT.kind : 0),
  reasons: (_shard, _slot, k, _q, out) => out.push(EVENT_KIND_LABELS[k]),
};

/** Conferences and hackathons are worth a trip; an evening meetup far away is not. */
function worthTheTrip(e: IndexedEvent): boolean {
  return e.kinds.has('conference') || e.kinds.has('hackathon');
}

/** Whether an event is one `visitAround` visits: located, and at the place or in the grid cells around it. */
function isAround(shard: CountryShard, slot: number, here: Place): boolean {
  const lat = shard.lat[slot]!;
  const lng = shard.lng[slot]!;
  if (shard.formatCode[slot] === ONLINE || Number.isNaN(lat) || Number.isNaN(lng)) return false;
  if (shard.geonameId[slot] === here.geonameId) return true;
  return (
    Math.abs(Math.floor(lat / CELL_LAT) - Math.floor(here.lat / CELL_LAT)) <= 1 &&
    Math.abs(Math.floor(lng / CELL_LNG) - Math.floor(here.lng / CELL_LNG)) <= 1
  );
}

const home: Facet<AskedPlace> = {
  name: 'home',
  role: 'prefer',
  asks: (q) => (q.u.home ? [q.u.home] : NONE),
  candidates(shard, { place: here }, _q, visit) {
    visitAround(shard, here, visit);
    const elsewhere = (slot: number) => !isAround(shard, slot, here);
    visitList(shard.byKind.get('conference'), (slot) => elsewhere(slot) && visit(slot));
    visitList(shard.byKind.get('hackathon'), (slot) => {
      if (elsewhere(slot) && !shard.at(slot).kinds.has('conference')) visit(slot);
    });
    visitList(shard.byFormat.get('online'), (slot) => !worthTheTrip(shard.at(slot)) && visit(slot));
  },
  score(shard, slot, { place: here }) {
    const near = closeness(shard, slot, here);
    if (near === AT_PLACE) return WEIGHT.home;
    if (near > 0) return WEIGHT.home * near;
    // Within reach from there: online, or worth the trip.
    return shard.formatCode[slot] === ONLINE || worthTheTrip(shard.at(slot)) ? WEIGHT.reach : 0;
  },
  reasons(shard, slot, { place: here }, _q, out) {
    const near = closeness(shard, slot, here);
    if (near === AT_PLACE) out.push(`Near your base in ${here.name}`);
    else if (near > 0) out.push(`${km(shard, slot, here)} km from your base in ${here.name}`);
    else if (shard.formatCode[slot] === ONLINE) out.push(`Online: no travel from ${here.name}`);
    else out.push(`Worth the trip from ${here.name}`);
  },
};

/** Every facet, in the order their weights are added up. */
export const FACETS: readonly Facet<unknown>[] = [
  phrase,
  technology,
  topic,
  place,
  text,
  window,
  field,
  format,
  price,
  founders,
  seniority,
  kind,
  home,
] as Facet<never>[] as Facet<unknown>[];

// ---------------------------------------------------------------- preparing a query

function prepareTechnology(shard: CountryShard, term: string, typed: string, ids: readonly string[]) {
  const own = new Set(ids);
  const parts = new Set<string>();
  for (const id of ids) for (const part of technologyAndParts(id)) if (!own.has(part)) parts.add(part);
  const wider = new Set<string>();
  for (const id of ids) for (const w of widerTechnologies(id)) if (!own.has(w) && !parts.has(w)) wider.add(w);
  const topics = [...topicsOfTechnologies([...own, ...parts, ...wider])].filter((t) => t !== 'general');
  const folded = foldText(typed).trim();
  const word = /^[\p{L}\p{N}]+$/u.test(folded) ? folded : '';
  return {
    term,
    typedKey: termKey(term),
    word,
    ids: own,
    parts,
    wider,
    topics,
    hits: shard.text.searchTerm(typed),
    description: remembered(FINDERS, [...own, ...parts].sort().join(' '), 1000, (key) =>
      technologyFinder(key.split(' ')),
    ),
    // Everything the evidence depends on: the term, the word as typed, the technologies.
    memo: `tech|${term}|${word}|${[...own].join(',')}`,
  } satisfies PreparedTechnology;
}
const FINDERS = new Map<string, ReturnType<typeof technologyFinder>>();

/** What a query asks of the facets, worked out once (see PreparedQuery). */
export function prepareQuery(u: Understanding, shard: CountryShard, day: (date: Date) => string): PreparedQuery {
  const broad = new Set(u.topics.filter((t) => !t.specific).map((t) => t.slug));
  const fields = [...broad].map((slug) => ({ slug, term: u.topics.find((t) => t.slug === slug)!.term }));
  const technologies = u.technologies.map((t) => prepareTechnology(shard, t.term, t.typed, t.ids));
  const impliedSlugs = [...new Set(u.topics.filter((t) => t.specific && !broad.has(t.slug)).map((t) => t.slug))];
  const related = new Set(technologies.flatMap((t) => [...t.ids, ...t.parts, ...t.wider]));
  const general = u.topics.length > 0;
  const implied =
    impliedSlugs.length > 0 || general
      ? {
          slugs: impliedSlugs,
          related,
          general,
          memo: `field|${impliedSlugs.join(',')}|${[...related].sort().join(',')}|${general}`,
        }
      : undefined;
  const text = u.terms.map((term) => ({ term, hits: shard.text.searchTerm(term) }));
  let maxText = 0;
  for (const { hits } of text) for (const h of hits.values()) maxText = Math.max(maxText, h.score);
  const phraseWords = plain(foldText(u.phrase)).trim().split(' ');
  return {
    u,
    fields,
    technologies,
    implied,
    text,
    maxText: maxText || 1,
    phraseWords: phraseWords.length >= 2 ? phraseWords : NONE,
    day,
  };
}
