import { PLAIN_FIELDS } from '../../catalogue/event.js';
import { foldText } from '../../catalogue/lexicon.js';
import { technologiesNamed } from '../../catalogue/lexicon-technologies.js';
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
import { formatCode } from '../index/country-shard.js';
import { fieldBit, type SearchField } from '../index/full-text.js';
import type { IndexedEvent } from '../index/indexed-event.js';
import { hasPhrase, nameWordsOf } from '../index/names.js';
import type { SlotList } from '../index/slot-list.js';
import { TRAIT } from '../index/traits.js';
import type { DateWindowHit } from '../prompt/dates.js';
import type { SpokenLanguage } from '../prompt/wishes.js';
import {
  type AskedPlace,
  AT_PLACE,
  CLOSE,
  carriesAny,
  citedIn,
  closeness,
  evidenceAt,
  intersect,
  km,
  type Named,
  NONE,
  NOT_A_CANDIDATE,
  ONLINE,
  organizerNames,
  STRENGTH_POINTS,
  Strength,
  titleNames,
  titleNamesTopic,
  visitAround,
  visitList,
  visitTopics,
} from './evidence.js';
import {
  type AskedField,
  type Facet,
  type ImpliedFields,
  POINTS,
  type PreparedQuery,
  type PreparedTechnology,
  WEIGHT,
} from './facet.js';
import { neighbourCarried, neighboursOf } from './neighbours.js';
import { points } from './points.js';

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
  role: 'words',
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
    // On every word's list first: most candidates of other facets are on none, and their names need not be split.
    for (const word of words) if (!shard.byNameWord.get(word)?.has(slot)) return 0;
    const names = nameWordsOf(shard.at(slot));
    return hasPhrase(names.title, words) || hasPhrase(names.organizer, words) ? POINTS.phrase : 0;
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

/** A technology is met by a title or organizer naming it, another name of it or a part of it, or a description naming it. */
function meetsTechnology(evidence: number): boolean {
  return evidence !== NOT_A_CANDIDATE && evidence >> 1 >= Strength.Described;
}

const technology: Facet<PreparedTechnology> = {
  name: 'technology',
  role: 'filter',
  constraint: 'subject',
  asks: (q) => q.technologies,
  meets: (shard, slot, t) => meetsTechnology(evidenceAt(shard, slot, t)),
  candidates(shard, t, _q, visit) {
    const mark = visitTopics(shard, t.topics, visit);
    for (const slot of t.hits) if (shard.visited[slot] !== mark) visit(slot);
  },
  score(shard, slot, t) {
    const evidence = evidenceAt(shard, slot, t);
    return evidence === NOT_A_CANDIDATE ? 0 : STRENGTH_POINTS[evidence >> 1]!;
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

/** 0: not on the topic; 1: on it, the title not naming the field; 2: naming a part of it; 3: the field as a whole. */
function titleOnTopic(e: IndexedEvent, slug: TopicSlug): number {
  if (!e.event.topics.includes(slug)) return 0;
  const words = titleNamesTopic(e.event, slug);
  return words ? (words.whole ? 3 : 2) : 1;
}

/** Whether the subject is the only constraint asked (the country's aside). */
function subjectAlone(q: PreparedQuery): boolean {
  return FACETS.every((f) => f.role !== 'filter' || f.constraint === 'subject' || f.asks(q).length === 0);
}

const topic: Facet<AskedField> = {
  name: 'topic',
  role: 'filter',
  constraint: 'subject',
  asks: (q) => q.fields,
  meets: (shard, slot, f) => shard.hasTopic(slot, f.slug),
  // Events of a neighbouring field too, when no other constraint's candidates hold those that meet all but the field:
  // they never meet it, but are near misses.
  candidates: (shard, f, q, visit) =>
    visitTopics(shard, subjectAlone(q) ? [f.slug, ...neighboursOf(f.slug)] : [f.slug], visit),
  score(shard, slot, f) {
    const named = shard.memo(`title|${f.slug}`, slot, (e) => titleOnTopic(e, f.slug));
    if (named === 0) return neighbourCarried(shard.at(slot), f.slug) ? POINTS.neighbour : 0;
    return named === 1 ? POINTS.field : POINTS.field + (named === 3 ? POINTS.fieldTitle : POINTS.fieldTitlePart);
  },
  reasons(shard, slot, f, _q, out) {
    const e = shard.at(slot);
    if (!e.event.topics.includes(f.slug)) {
      out.push(`Related topic: ${topicLabel(neighbourCarried(e, f.slug)!)}`);
      return;
    }
    out.push(`Topic: ${topicLabel(f.slug)}`);
    const named = titleNamesTopic(e.event, f.slug);
    if (named) out.push(`Title mentions “${named.words}”`);
  },
};

const place: Facet<AskedPlace> = {
  name: 'place',
  role: 'filter',
  constraint: 'place',
  asks: (q) => (q.u.place ? [q.u.place] : NONE),
  candidates: (shard, { place: here }, _q, visit) => visitAround(shard, here, visit),
  score(shard, slot, { place: here, mode }) {
    const near = closeness(shard, slot, here);
    if (near === AT_PLACE) return POINTS.place;
    // Within 45 km counts less than the place itself, and less still when the prompt said "in" rather than "near".
    return near > 0 ? points((WEIGHT.place * (mode === 'near' ? 0.9 : 0.75) * near) / CLOSE) : 0;
  },
  reasons(shard, slot, { place: here }, _q, out) {
    if (shard.geonameId[slot] === here.geonameId) out.push(`In ${here.name}`);
    else out.push(`${km(shard, slot, here)} km from ${here.name}`);
  },
};

const text: Facet<PreparedQuery['text'][number]> = {
  name: 'text',
  role: 'words',
  asks: (q) => q.text,
  candidates: (_shard, { hits }, _q, visit) => {
    for (let i = 0; i < hits.size; i++) visit(hits.slots[i]!);
  },
  score(_shard, slot, { hits }, q) {
    const i = hits.indexOf(slot);
    // At least a point: a hit matches, however weak against the best one.
    return i < 0 ? 0 : Math.max(1, points((WEIGHT.text * hits.scores[i]!) / q.maxText));
  },
  reasons(shard, slot, { term, hits }, _q, out) {
    const matched = hits.fields[hits.indexOf(slot)]!;
    const field = FIELD_ORDER.find((f) => matched & fieldBit(f));
    if (field) out.push(FIELD_REASON[field](term, shard.at(slot)));
  },
};

const window: Facet<DateWindowHit> = {
  name: 'window',
  role: 'filter',
  constraint: 'window',
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
    shard.startMs[slot]! < w.to.getTime() && shard.endsAt[slot]! > w.from.getTime() ? POINTS.window : 0,
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
  role: 'rank',
  asks: (q) => (q.implied ? [q.implied] : NONE),
  score(shard, slot, f) {
    const fit = shard.memo(f.memo, slot, (e) => impliedFit(e, f));
    return fit === 1 ? POINTS.implied : fit === 2 ? POINTS.general : 0;
  },
  reasons(shard, slot, f, _q, out) {
    const ev = shard.at(slot).event;
    const carried = f.slugs.find((s) => ev.topics.includes(s));
    out.push(carried ? `Topic: ${topicLabel(carried)}` : 'General tech event');
  },
};

const HYBRID = formatCode('hybrid');
/** A hybrid event counts three quarters of the format asked for. */
const HYBRID_POINTS = points(WEIGHT.format * 0.75);

const format: Facet<Format> = {
  name: 'format',
  role: 'filter',
  constraint: 'format',
  asks: (q) => q.u.formats,
  candidates(shard, f, _q, visit) {
    visitList(shard.byFormat.get(f), visit);
    if (f !== 'hybrid') visitList(shard.byFormat.get('hybrid'), visit);
  },
  score(shard, slot, f) {
    const code = shard.formatCode[slot];
    return code === formatCode(f) ? POINTS.format : code === HYBRID ? HYBRID_POINTS : 0;
  },
  reasons(shard, slot, f, _q, out) {
    out.push(
      shard.at(slot).event.format === f ? FORMAT_LABELS[f] : `Hybrid: also ${f === 'online' ? 'online' : 'in person'}`,
    );
  },
};

const price: Facet<'free' | 'paid'> = {
  name: 'price',
  role: 'filter',
  constraint: 'price',
  asks: (q) => (q.u.price ? [q.u.price] : NONE),
  candidates: (shard, p, _q, visit) => visitList(shard.byPrice.get(p), visit),
  score: (shard, slot, p) => (shard.hasTrait(slot, TRAIT.price[p]) ? POINTS.price : 0),
  reasons: (_shard, _slot, p, _q, out) => out.push(p === 'free' ? 'Free' : 'Paid'),
};

/** The points of a founder fit of 0, 1 and 2. */
const FOUNDER_POINTS = [0, points(WEIGHT.founders / 2), POINTS.founders];

const founders: Facet<true> = {
  name: 'founders',
  role: 'filter',
  constraint: 'audience',
  asks: (q) => (q.u.founders ? [true] : NONE),
  candidates: (shard, _a, _q, visit) => visitList(shard.founders().slots, visit),
  // From the shard's column of fits (0, 1 or 2): half the weight for a fit of 1.
  score: (shard, slot) => FOUNDER_POINTS[shard.founders().fit[slot]!]!,
  reasons: (_shard, _slot, _a, _q, out) => out.push('For founders'),
};

const seniority: Facet<Seniority> = {
  name: 'seniority',
  role: 'filter',
  constraint: 'audience',
  asks: (q) => q.u.seniority,
  candidates: (shard, s, _q, visit) => visitList(shard.bySeniority.get(s), visit),
  score: (shard, slot, s) => (shard.hasTrait(slot, TRAIT.seniority[s]) ? POINTS.seniority : 0),
  reasons: (_shard, _slot, s, _q, out) => out.push(`For ${SENIORITY_LABELS[s].toLowerCase()}`),
};

const kind: Facet<EventKind> = {
  name: 'kind',
  role: 'filter',
  constraint: 'kind',
  asks: (q) => q.u.kinds,
  candidates: (shard, k, _q, visit) => visitList(shard.byKind.get(k), visit),
  score: (shard, slot, k) => (shard.hasTrait(slot, TRAIT.kind[k]) ? POINTS.kind : 0),
  reasons: (_shard, _slot, k, _q, out) => out.push(EVENT_KIND_LABELS[k]),
};

/** Conferences and hackathons are worth a trip; an evening meetup far away is not. */
function worthTheTrip(e: IndexedEvent): boolean {
  return e.kinds.has('conference') || e.kinds.has('hackathon');
}

const home: Facet<AskedPlace> = {
  name: 'home',
  role: 'rank',
  asks: (q) => (q.u.home ? [q.u.home] : NONE),
  score(shard, slot, { place: here }) {
    const near = closeness(shard, slot, here);
    if (near === AT_PLACE) return POINTS.home;
    if (near > 0) return points((WEIGHT.home * near) / CLOSE);
    // Within reach from there: online, or worth the trip.
    return shard.formatCode[slot] === ONLINE || worthTheTrip(shard.at(slot)) ? POINTS.reach : 0;
  },
  reasons(shard, slot, { place: here }, _q, out) {
    const near = closeness(shard, slot, here);
    if (near === AT_PLACE) out.push(`Near your base in ${here.name}`);
    else if (near > 0) out.push(`${km(shard, slot, here)} km from your base in ${here.name}`);
    else if (shard.formatCode[slot] === ONLINE) out.push(`Online: no travel from ${here.name}`);
    else out.push(`Worth the trip from ${here.name}`);
  },
};

const language: Facet<SpokenLanguage> = {
  name: 'language',
  role: 'rank',
  asks: (q) => (q.u.language ? [q.u.language] : NONE),
  score: (shard, slot, l) => (shard.at(slot).event.language === l ? POINTS.language : 0),
  reasons: (_shard, _slot, l, _q, out) => out.push(`Language: ${PLAIN_FIELDS.language.labels[l]}`),
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
  language,
] as Facet<never>[] as Facet<unknown>[];
