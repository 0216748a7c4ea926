import { DateTime } from 'luxon';
import { type EventKind, isSeniority, isTopic, SENIORITY_LABELS, topicLabel } from '../../catalogue/taxonomy.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import { distanceKm } from '../../places/gazetteer.js';
import type { CountryShard } from '../index/country-shard.js';
import { zoneNamed } from '../zones.js';
import { titleNames } from './evidence.js';
import type { ConstraintName, Facet, PreparedQuery } from './facet.js';
import { FACETS } from './facets.js';

export { CONSTRAINT_NAMES, type ConstraintName } from './facet.js';

/**
 * The constraints a prompt can state, each defined once: what it is (the facets that state it, or the country
 * searched), whether an event meets it, how `understood` restates it, and how an event that misses it differs, in
 * plain words. Every output derives from this table: an event is listed when it meets every constraint asked, it is
 * a near miss (`alternatives`) when it misses exactly one, and an empty answer says which constraint to drop to find
 * what.
 */
export interface Constraint {
  name: ConstraintName;
  /** Where `understood` says it: before the subject ("free"), as it, as the kind of event, after, or at the end. */
  part: 'adjective' | 'subject' | 'noun' | 'audience' | 'where' | 'when';
  /** The facets that state it (none for the country, which a shard meets or not as a whole). */
  facets: readonly Facet<unknown>[];
  /** Whether the query asks it. */
  asked(q: PreparedQuery): boolean;
  /** Whether the event at a slot meets it. */
  meets(shard: CountryShard, slot: number, q: PreparedQuery): boolean;
  /** How `understood` restates it: "AI & ML or Java", "meetups", "in or near Zürich", "next week (30 Nov – 6 Dec 2026)". */
  says(q: PreparedQuery): string;
  /** How an event that misses it differs: "in March, not next week", "Winterthur, 52 km from Zürich", "a DevOps event". */
  differs(shard: CountryShard, slot: number, q: PreparedQuery): string;
}

/** Whether the event at a slot meets any item any of the facets asks (a constraint of several values is met by one). */
export function meetsAny(facets: readonly Facet<unknown>[], shard: CountryShard, slot: number, q: PreparedQuery) {
  for (const facet of facets) {
    for (const a of facet.asks(q)) {
      if (facet.meets ? facet.meets(shard, slot, a, q) : facet.score(shard, slot, a, q) > 0) return true;
    }
  }
  return false;
}

function joinWith(items: readonly string[], word: 'and' | 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}
export const joinOr = (items: readonly string[]) => joinWith(items, 'or');
export const joinAnd = (items: readonly string[]) => joinWith(items, 'and');

const KIND_PLURAL: Record<EventKind, string> = {
  meetup: 'meetups',
  conference: 'conferences',
  workshop: 'workshops',
  hackathon: 'hackathons',
  talk: 'talks',
  networking: 'networking events',
};
const KIND_ONE: Record<EventKind, string> = {
  meetup: 'a meetup',
  conference: 'a conference',
  workshop: 'a workshop',
  hackathon: 'a hackathon',
  talk: 'a talk',
  networking: 'a networking event',
};

const withArticle = (words: string) => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;

/** What an event is about, in a few words: what its title names ("Rust", "DevOps"), else its first topic. */
function aboutOf(shard: CountryShard, slot: number): string {
  // Triples of (topic, the lexicon's term, the words used): the words as the title writes them.
  const named = titleNames(shard.at(slot).event)[2];
  if (named) return `${withArticle(named)} event`;
  const topic = shard.at(slot).event.topics.find((t) => t !== 'general' && isTopic(t));
  if (topic && isTopic(topic)) return `${withArticle(topicLabel(topic))} event`;
  return shard.at(slot).event.topics.includes('general') ? 'a general tech event' : 'on another subject';
}

/** The window's phrase without its dates: "next week", "in March 2027", "on Fri 4 Dec". */
const windowPhrase = (label: string) => label.split(' (')[0]!;

/** A constraint stated by facets (those naming it in facets.ts): asked when one of them asks, met when one is met. */
function byFacets(name: ConstraintName): Pick<Constraint, 'facets' | 'asked' | 'meets'> {
  const facets = FACETS.filter((f) => f.constraint === name);
  return {
    facets,
    asked: (q) => facets.some((f) => f.asks(q).length > 0),
    meets: (shard, slot, q) => meetsAny(facets, shard, slot, q),
  };
}

/** Every constraint, in the order `understood` and the near misses name them. */
export const CONSTRAINTS: readonly Constraint[] = [
  {
    name: 'price',
    part: 'adjective',
    ...byFacets('price'),
    says: (q) => q.u.price ?? '',
    differs(shard, slot) {
      const type = shard.at(slot).event.priceType;
      return type === 'unknown' ? 'price not given' : type;
    },
  },
  {
    name: 'format',
    part: 'adjective',
    ...byFacets('format'),
    // A hybrid event can be joined either way: "online" and "in person" let it through, "hybrid" asks for it.
    says: (q) =>
      joinOr(
        q.u.formats.map((f) => (f === 'hybrid' ? 'hybrid' : `${f === 'online' ? 'online' : 'in-person'} or hybrid`)),
      ),
    differs: (shard, slot) =>
      ({ in_person: 'in person', online: 'online', hybrid: 'hybrid' })[shard.at(slot).event.format],
  },
  {
    name: 'subject',
    part: 'subject',
    ...byFacets('subject'),
    // A specific word as asked ("Java conferences"), a field by its label ("AI & ML meetups").
    says: (q) =>
      joinOr([...new Set([...q.technologies.map((t) => t.term), ...q.fields.map((f) => topicLabel(f.slug))])]),
    differs: aboutOf,
  },
  {
    name: 'kind',
    part: 'noun',
    ...byFacets('kind'),
    says: (q) => joinOr(q.u.kinds.map((k) => KIND_PLURAL[k])),
    differs(shard, slot, q) {
      const kinds = shard.at(slot).kinds;
      const first = [...kinds][0];
      return first ? KIND_ONE[first] : `not ${KIND_ONE[q.u.kinds[0]!]}`;
    },
  },
  {
    name: 'audience',
    part: 'audience',
    ...byFacets('audience'),
    says: (q) =>
      `for ${joinOr([...(q.u.founders ? ['founders'] : []), ...q.u.seniority.map((s) => SENIORITY_LABELS[s].toLowerCase())])}`,
    differs(shard, slot, q) {
      const labels = shard
        .at(slot)
        .event.seniority.filter(isSeniority)
        .map((s) => SENIORITY_LABELS[s].toLowerCase());
      if (labels.length > 0) return `for ${joinAnd(labels)}`;
      return q.u.founders ? 'not for founders' : 'for everyone';
    },
  },
  {
    name: 'place',
    part: 'where',
    ...byFacets('place'),
    says: (q) => (q.u.place?.mode === 'near' ? `near ${q.u.place.place.name}` : `in or near ${q.u.place?.place.name}`),
    differs(shard, slot, q) {
      const ev = shard.at(slot).event;
      const here = q.u.place!.place;
      if (ev.format === 'online') return 'online';
      if (ev.lat === null || ev.lng === null) return ev.city ?? 'no place given';
      return `${ev.city ?? 'elsewhere'}, ${Math.round(distanceKm(here, ev.lat, ev.lng))} km from ${here.name}`;
    },
  },
  {
    name: 'country',
    part: 'where',
    facets: [],
    asked: (q) => q.country !== undefined,
    meets: (shard, _slot, q) => shard.country === q.country,
    says: (q) => `in ${COUNTRY_INFO[q.country!].name}`,
    differs(shard, slot) {
      const ev = shard.at(slot).event;
      const country = COUNTRY_INFO[shard.country].name;
      if (ev.format === 'online') return `online, hosted in ${country}`;
      return ev.city ? `${ev.city}, ${country}` : `in ${country}`;
    },
  },
  {
    name: 'window',
    part: 'when',
    ...byFacets('window'),
    says: (q) => q.u.window?.label ?? '',
    differs(shard, slot, q) {
      const w = q.u.window!;
      const zone = zoneNamed(COUNTRY_INFO[shard.country].timeZone);
      const start = DateTime.fromMillis(shard.startMs[slot]!, { zone });
      const from = DateTime.fromJSDate(w.from, { zone });
      const when = start.hasSame(from, 'month')
        ? `on ${start.toFormat('ccc d LLL')}`
        : `in ${start.toFormat(start.hasSame(from, 'year') ? 'LLLL' : 'LLLL yyyy')}`;
      return `${when}, not ${windowPhrase(w.label)}`;
    },
  },
];
