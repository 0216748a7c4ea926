import { DateTime } from 'luxon';
import { foldText } from '../../catalogue/lexicon.js';
import { technologiesNamed } from '../../catalogue/lexicon-technologies.js';
import { isTopic, type TopicSlug, topicLabel } from '../../catalogue/taxonomy.js';
import type { Phrase } from '../../catalogue/words.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import { distanceKm, type Place } from '../../places/gazetteer.js';
import { zoneNamed } from '../../places/zones.js';
import type { CountryShard } from '../index/country-shard.js';
import { fieldBit, type SearchField } from '../index/full-text.js';
import { type IndexedEvent, nameWordsOf } from '../index/indexed-event.js';
import { hasPhrase, withoutYears } from '../index/names.js';
import type { ReadonlySlotList } from '../index/slot-list.js';
import type { DateWindowHit } from '../prompt/dates.js';
import {
  AT_PLACE,
  carriesAny,
  citedIn,
  closeness,
  evidenceAt,
  intersect,
  km,
  type Named,
  NOT_A_CANDIDATE,
  ONLINE,
  organizerNames,
  Strength,
  titleNames,
  titleNamesTopic,
  visitList,
} from './evidence.js';
import type { ImpliedFields, PreparedQuery, PreparedTechnology } from './facet.js';
import { neighbourCarried } from './neighbours.js';
import { DIFFERS, SAID } from './said.js';

/**
 * What the facet table (facets.ts) reads of an event, and the words it says: how well an event fits what a prompt
 * asks, which events to visit, how a reason or a difference is put. The rules — how much each fit is worth, whether
 * it meets a constraint, how near a miss comes — are the table's.
 */

// ---------------------------------------------------------------- candidates

/** Every word of a phrase found in a name is a word of that name: the events on every word's list (rarest first). */
export function visitPhrase(shard: CountryShard, words: readonly string[], visit: (slot: number) => void): void {
  const lists: ReadonlySlotList[] = [];
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
}

/** The events of a window: those starting in it, or before it and still on (short ones), and every long event. */
export function visitWindow(shard: CountryShard, w: DateWindowHit, visit: (slot: number) => void): void {
  const [first, end] = shard.stretchUnderWay(w.from.getTime(), w.to.getTime());
  const { items } = shard.order;
  for (let i = first; i < end; i++) {
    const slot = items[i]!;
    if (shard.long[slot] === 0) visit(slot);
  }
  visitList(shard.longEvents, visit);
}

// ---------------------------------------------------------------- fits

/** Whether the event's title is the prompt's words (years aside, as `plain` splits them): the event named. */
export function titled(shard: CountryShard, slot: number, words: readonly string[]): boolean {
  for (const word of words) if (!shard.byNameWord.get(word)?.has(slot)) return false;
  const title = withoutYears(nameWordsOf(shard.at(slot)).title);
  return title.length === words.length && title.every((w, i) => w === words[i]);
}

/** Whether a phrase is found as typed in the event's title or organizer. */
export function phraseIn(shard: CountryShard, slot: number, words: readonly string[]): boolean {
  // On every word's list first: most candidates of other facets are on none, and their names need not be split.
  for (const word of words) if (!shard.byNameWord.get(word)?.has(slot)) return false;
  const names = nameWordsOf(shard.at(slot));
  return hasPhrase(names.title, words) || hasPhrase(names.organizer, words);
}

/** The strength of an event's evidence for a technology (see Strength), None when it is no candidate. */
export function technologyStrength(shard: CountryShard, slot: number, t: PreparedTechnology): Strength {
  const evidence = evidenceAt(shard, slot, t);
  return evidence === NOT_A_CANDIDATE ? Strength.None : evidence >> 1;
}

/** 0: not on the topic; 1: on it, the title not naming the field; 2: naming a part of it; 3: the field as a whole. */
export function titleOnTopic(e: IndexedEvent, slug: TopicSlug): number {
  if (!e.event.topics.includes(slug)) return 0;
  const words = titleNamesTopic(e, slug);
  return words ? (words.whole ? 3 : 2) : 1;
}

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
export function impliedFit(e: IndexedEvent, f: ImpliedFields): number {
  const ev = e.event;
  if (carriesAny(ev, f.slugs)) {
    const title = namedInFields(titleNames(e), f);
    const organizer = namedInFields(organizerNames(e), f);
    return title === 1 || organizer === 1 || (title === 0 && organizer === 0) ? 1 : 0;
  }
  return f.general && ev.topics.includes('general') ? 2 : 0;
}

/** Conferences and hackathons are worth a trip; an evening meetup far away is not. */
export function worthTheTrip(e: IndexedEvent): boolean {
  return e.kinds.has('conference') || e.kinds.has('hackathon');
}

// ---------------------------------------------------------------- words (said.ts)

const FIELD_REASON: Record<SearchField, (term: string, e: IndexedEvent) => Phrase> = {
  title: (term) => ({ words: SAID.titleMentions, values: { term } }),
  organizer: (_t, e) => ({ words: SAID.organizer, values: { name: e.event.organizer } }),
  topics: (term) => ({ words: SAID.topicMentions, values: { term } }),
  venue: (_t, e) => ({ words: SAID.at, values: { venue: e.event.venue ?? '' } }),
  city: (_t, e) => ({ words: SAID.in, values: { place: e.event.city ?? '' } }),
  description: (term) => ({ words: SAID.descriptionMentions, values: { term } }),
};
const FIELD_ORDER: SearchField[] = ['title', 'organizer', 'topics', 'venue', 'city', 'description'];

/** Where a full-text word was found (the first field of the bits matched), said as a reason. */
export function textReason(e: IndexedEvent, term: string, matched: number): Phrase | undefined {
  const field = FIELD_ORDER.find((f) => matched & fieldBit(f));
  return field && FIELD_REASON[field](term, e);
}

export const titledReason = (e: IndexedEvent): Phrase => ({ words: SAID.titled, values: { title: e.event.title } });

const organizerReason = (e: IndexedEvent): Phrase => ({ words: SAID.organizer, values: { name: e.event.organizer } });

export const phraseReason = (e: IndexedEvent, words: readonly string[]): Phrase =>
  hasPhrase(nameWordsOf(e).title, words)
    ? { words: SAID.titleMentions, values: { term: words.join(' ') } }
    : organizerReason(e);

/** Where the technology is named: the description, the title, or the organizer. */
export function technologyReason(shard: CountryShard, slot: number, t: PreparedTechnology): Phrase {
  const e = shard.at(slot);
  const evidence = evidenceAt(shard, slot, t);
  if (evidence >> 1 === Strength.Described) {
    const folded = foldText(e.event.description ?? '');
    const found = t.description?.each.find(([, pattern]) => pattern.test(folded));
    return { words: SAID.descriptionMentions, values: { term: found?.[0] ?? t.term } };
  }
  if (evidence % 2 === 0)
    return { words: SAID.titleMentions, values: { term: citedIn(titleNames(e), nameWordsOf(e).title, t) } };
  return organizerReason(e);
}

/** The field, or the neighbouring field the event is on instead, and the title's words for it. */
export function topicReasons(e: IndexedEvent, slug: TopicSlug, out: Phrase[]): void {
  if (!e.event.topics.includes(slug)) {
    out.push({ words: SAID.relatedTopic, values: { topic: { topic: neighbourCarried(e, slug)! } } });
    return;
  }
  out.push(topicReason(slug));
  const named = titleNamesTopic(e, slug);
  if (named) out.push({ words: SAID.titleMentions, values: { term: named.words } });
}

export const topicReason = (slug: string): Phrase => ({ words: SAID.topic, values: { topic: { topic: slug } } });

/** "Next week: Thu 26 Nov": the window's phrase and the day shown (the window's first when it began before). */
export function windowReason(shard: CountryShard, slot: number, w: DateWindowHit, q: PreparedQuery): Phrase {
  const day = Math.max(shard.startMs[slot]!, w.from.getTime());
  return {
    words: SAID.when,
    values: { window: { window: w, zone: q.zone, now: q.now, capital: true }, day: { day, zone: q.zone } },
  };
}

/** Where the person's base is, against the event: there, how far, online, or a trip worth making. */
export function homeReason(shard: CountryShard, slot: number, here: Place): Phrase {
  const near = closeness(shard, slot, here);
  const place = here.name;
  if (near === AT_PLACE) return { words: SAID.nearBase, values: { place } };
  if (near > 0) return { words: SAID.distanceFromBase, values: { km: km(shard, slot, here), place } };
  if (shard.formatCode[slot] === ONLINE) return { words: SAID.onlineFromBase, values: { place } };
  return { words: SAID.worthTrip, values: { place } };
}

/** Where an event outside the place asked is: online, its city, or its city and how far from the place. */
export function whereAgainst(e: IndexedEvent, here: Place): Phrase {
  const ev = e.event;
  if (ev.format === 'online') return { words: DIFFERS.online };
  if (ev.lat === null || ev.lng === null)
    return ev.city ? { words: DIFFERS.city, values: { city: ev.city } } : { words: DIFFERS.noPlace };
  const values = { km: Math.round(distanceKm(here, ev.lat, ev.lng)), place: here.name };
  return ev.city
    ? { words: DIFFERS.cityDistance, values: { ...values, city: ev.city } }
    : { words: DIFFERS.elsewhereDistance, values };
}

/** When an event outside a window is, against the window: "on Tue 3 Mar" that month, else "in March (2027)". */
export function whenAgainst(shard: CountryShard, slot: number, w: DateWindowHit, q: PreparedQuery): Phrase {
  const zone = COUNTRY_INFO[shard.country].timeZone;
  const startMs = shard.startMs[slot]!;
  const start = DateTime.fromMillis(startMs, { zone: zoneNamed(zone) });
  const from = DateTime.fromJSDate(w.from, { zone: zoneNamed(zone) });
  const window = { window: w, zone: q.zone, now: q.now, capital: false };
  return start.hasSame(from, 'month')
    ? { words: DIFFERS.onDay, values: { day: { day: startMs, zone }, window } }
    : {
        words: DIFFERS.inMonth,
        values: { month: { month: startMs, zone, year: !start.hasSame(from, 'year') }, window },
      };
}

/** What an event is about: what its title names ("about Rust"), else its first topic. */
export function aboutOf(e: IndexedEvent): Phrase {
  // Triples of (topic, the lexicon's term, the words used): the words as the title writes them.
  const named = titleNames(e)[2];
  const about = (english: string) => (/^[aeiou]/i.test(english) ? DIFFERS.aboutVowel : DIFFERS.about);
  if (named) return { words: about(named), values: { topic: named } };
  const topic = e.event.topics.find((t): t is TopicSlug => t !== 'general' && isTopic(t));
  if (topic) return { words: about(topicLabel(topic)), values: { topic: { topic } } };
  return { words: e.event.topics.includes('general') ? DIFFERS.generalEvent : DIFFERS.otherSubject };
}
