import { type EventKind, type Format, isSeniority, type Seniority } from '../../catalogue/taxonomy.js';
import type { Phrase } from '../../catalogue/words.js';
import { formatCode } from '../index/country-shard.js';
import { PART } from '../index/parts.js';
import { forEachSlot, orInto, setAll } from '../index/slot-bits.js';
import { TRAIT } from '../index/traits.js';
import type { DateWindowHit } from '../prompt/dates.js';
import type { SpokenLanguage } from '../prompt/wishes.js';
import { byFacets, type Constraint, everyStated, toldAs } from './constraints.js';
import {
  type AskedPlace,
  AT_PLACE,
  CLOSE,
  closeness,
  km,
  NONE,
  ONLINE,
  only,
  Strength,
  visitAround,
  visitList,
  visitTopics,
} from './evidence.js';
import {
  type AskedField,
  type Facet,
  type ImpliedFields,
  type NearMiss,
  type PreparedQuery,
  type PreparedTechnology,
  scoresAny,
} from './facet.js';
import { fillAround, fillTopics, fillWindow } from './fills.js';
import {
  aboutOf,
  homeReason,
  impliedFit,
  phraseIn,
  phraseReason,
  technologyReason,
  technologyStrength,
  textReason,
  titled,
  titledReason,
  titleOnTopic,
  topicReason,
  topicReasons,
  visitPhrase,
  visitWindow,
  whenAgainst,
  whereAgainst,
  windowReason,
  worthTheTrip,
} from './fits.js';
import { neighbourCarried, neighboursOf } from './neighbours.js';
import { points } from './points.js';
import { audienceOf, DIFFERS, just, RESTATE, SAID } from './said.js';
import { listLength, oneList, placeCount, placeParts, topicsLength, windowCount, windowParts } from './selectivity.js';
import { FOUNDER_POINTS, HYBRID_POINTS, NEARNESS, POINTS, STRENGTH_POINTS, WEIGHT } from './weights.js';

/**
 * The facet table: every kind of evidence a prompt can ask for — how it scores, constrains and is told as a near
 * miss — and below it the constraints the facets state. fits.ts and evidence.ts hold what it reads of an event,
 * weights.ts what each kind weighs, said.ts what it says; docs/ranking.md explains the choices.
 */

const HYBRID = formatCode('hybrid');

const { otherWay, elsewhere } = NEARNESS;

// ---------------------------------------------------------------- how an event missing a constraint is told

const SUBJECT_MISS: NearMiss = {
  // Related: a wider technology, the field of one asked or a neighbouring field (the facets' own points for them), a
  // general tech event, or a conference: one draws people of many subjects.
  nearness(shard, slot, q) {
    if (scoresAny(SUBJECT_EVIDENCE, shard, slot, q)) return NEARNESS.relatedSubject;
    const e = shard.at(slot);
    const related = e.event.topics.includes('general') || e.kinds.has('conference');
    return related ? NEARNESS.relatedSubject : NEARNESS.otherSubject;
  },
  upTo: NEARNESS.relatedSubject,
  differs: (shard, slot) => aboutOf(shard.at(slot)),
};

const AUDIENCE_MISS: NearMiss = {
  nearness: otherWay,
  differs(shard, slot, q) {
    const levels = shard.at(slot).event.seniority.filter(isSeniority);
    if (levels.length > 0) return { words: DIFFERS.forLevels, values: { levels: { levels } } };
    return { words: q.u.founders ? DIFFERS.notForFounders : DIFFERS.forEveryone };
  },
};

/** The country searched is a constraint stated by no facet (a shard meets it or not as a whole). */
const COUNTRY_MISS: NearMiss = {
  nearness: elsewhere,
  differs(shard, slot): Phrase {
    const ev = shard.at(slot).event;
    const country = shard.country;
    if (ev.format === 'online') return { words: DIFFERS.onlineHostedIn, values: { country } };
    return ev.city
      ? { words: DIFFERS.cityInCountry, values: { city: ev.city, name: { country } } }
      : { words: DIFFERS.inCountry, values: { country } };
  },
};

// ---------------------------------------------------------------- the table

/** Gives a row its item type; the table holds rows of any. */
const row = <A>(facet: Facet<A>) => facet as Facet<never> as Facet<unknown>;

/** Every facet, in the order their weights are added up. */
export const FACETS: readonly Facet<unknown>[] = [
  // The event named by its title: a match whatever its words imply (rank-shard.ts, `namedMatch`), first.
  row<readonly string[]>({
    name: 'title',
    asks: (q) => (q.titleWords.length > 0 ? only(q, q.titleWords) : NONE),
    score: (shard, slot, words) => (titled(shard, slot, words) ? POINTS.titled : 0),
    role: 'rank',
    reasons: (shard, slot, _words, _q, out) => out.push(titledReason(shard.at(slot))),
  }),
  row<readonly string[]>({
    name: 'phrase',
    asks: (q) => (q.phraseWords.length > 0 ? only(q, q.phraseWords) : NONE),
    score: (shard, slot, words) => (phraseIn(shard, slot, words) ? POINTS.phrase : 0),
    role: 'words',
    candidates: (shard, words, _q, visit) => visitPhrase(shard, words, visit),
    reasons: (shard, slot, words, _q, out) => out.push(phraseReason(shard.at(slot), words)),
  }),
  row<PreparedTechnology>({
    name: 'technology',
    asks: (q) => q.technologies,
    score: (shard, slot, t) => STRENGTH_POINTS[technologyStrength(shard, slot, t)]!,
    role: 'filter',
    constraint: 'subject',
    // Named in a title or organizer (it, another name of it, a part of it), or in the description.
    meets: (shard, slot, t) => technologyStrength(shard, slot, t) >= Strength.Described,
    nearMiss: SUBJECT_MISS,
    candidates(shard, t, _q, visit) {
      visitTopics(shard, t.topics, visit);
      forEachSlot(t.hits.words, visit);
    },
    fill: (shard, t, _q, bits) => fillTopics(shard, t.topics, bits, t.hits),
    count: (shard, t) => topicsLength(shard, t.topics) + t.hits.size,
    reasons: (shard, slot, t, _q, out) => out.push(technologyReason(shard, slot, t)),
  }),
  row<AskedField>({
    name: 'topic',
    asks: (q) => q.fields,
    score(shard, slot, f) {
      const named = shard.memo(f.memo, slot, f.slug, titleOnTopic);
      if (named === 0) return neighbourCarried(shard.at(slot), f.slug) ? POINTS.neighbour : 0;
      return named === 1 ? POINTS.field : POINTS.field + (named === 3 ? POINTS.fieldTitle : POINTS.fieldTitlePart);
    },
    role: 'filter',
    constraint: 'subject',
    meets: (shard, slot, f) => shard.hasTopic(slot, f.slug),
    nearMiss: SUBJECT_MISS,
    // Events of a neighbouring field too, when no other constraint's candidates hold those that meet all but the
    // field: they never meet it, but are near misses.
    candidates: (shard, f, q, visit) =>
      visitTopics(shard, subjectAlone(q) ? [f.slug, ...neighboursOf(f.slug)] : [f.slug], visit),
    fill: (shard, f, q, bits) =>
      fillTopics(shard, subjectAlone(q) ? [f.slug, ...neighboursOf(f.slug)] : [f.slug], bits),
    // With two constraints or more (the only rankings that count), a field's candidates are its own events.
    count: (shard, f) => topicsLength(shard, [f.slug]),
    parts: (_shard, f) => [PART.topic(f.slug)],
    reasons: (shard, slot, f, _q, out) => topicReasons(shard.at(slot), f.slug, out),
  }),
  row<AskedPlace>({
    name: 'place',
    asks: (q) => only(q, q.u.place),
    score(shard, slot, { place: here, mode }) {
      const near = closeness(shard, slot, here);
      if (near === AT_PLACE) return POINTS.place;
      // Within 45 km counts less than the place itself, and less still when the prompt said "in" rather than "near".
      return near > 0 ? points((WEIGHT.place * (mode === 'near' ? 0.9 : 0.75) * near) / CLOSE) : 0;
    },
    role: 'filter',
    constraint: 'place',
    nearMiss: { nearness: elsewhere, differs: (shard, slot, q) => whereAgainst(shard.at(slot), q.u.place!.place) },
    candidates: (shard, { place: here }, _q, visit) => visitAround(shard, here, visit),
    fill: (shard, { place: here }, _q, bits) => fillAround(shard, here, bits),
    count: (shard, { place: here }) => placeCount(shard, here),
    parts: (_shard, { place: here }) => placeParts(here),
    reasons(shard, slot, { place: here }, _q, out) {
      if (shard.geonameId[slot] === here.geonameId) out.push({ words: SAID.in, values: { place: here.name } });
      else out.push({ words: SAID.distance, values: { km: km(shard, slot, here), place: here.name } });
    },
  }),
  row<PreparedQuery['text'][number]>({
    name: 'text',
    asks: (q) => q.text,
    score(_shard, slot, { hits }, q) {
      const i = hits.indexOf(slot);
      // At least a point: a hit matches, however weak against the best one.
      return i < 0 ? 0 : Math.max(1, points((WEIGHT.text * hits.scores[i]!) / q.maxText));
    },
    role: 'words',
    candidates: (_shard, { hits }, _q, visit) => {
      for (let i = 0; i < hits.size; i++) visit(hits.slots[i]!);
    },
    reasons(shard, slot, { term, hits }, _q, out) {
      const reason = textReason(shard.at(slot), term, hits.fields[hits.indexOf(slot)]!);
      if (reason) out.push(reason);
    },
  }),
  row<DateWindowHit>({
    name: 'window',
    asks: (q) => only(q, q.u.window),
    score: (shard, slot, w) =>
      shard.startMs[slot]! < w.to.getTime() && shard.endsAt[slot]! > w.from.getTime() ? POINTS.window : 0,
    role: 'filter',
    constraint: 'window',
    nearMiss: {
      nearness: otherWay,
      differs: (shard, slot, q) => whenAgainst(shard, slot, q.u.window!, q),
    },
    candidates: (shard, w, _q, visit) => visitWindow(shard, w, visit),
    fill: (shard, w, _q, bits) => fillWindow(shard, w, bits),
    count: windowCount,
    parts: windowParts,
    reasons: (shard, slot, w, q, out) => out.push(windowReason(shard, slot, w, q)),
  }),
  row<ImpliedFields>({
    name: 'field',
    asks: (q) => only(q, q.implied),
    score(shard, slot, f) {
      const fit = shard.memo(f.memo, slot, f, impliedFit);
      return fit === 1 ? POINTS.implied : fit === 2 ? POINTS.general : 0;
    },
    role: 'rank',
    reasons(shard, slot, f, _q, out) {
      const carried = f.slugs.find((s) => shard.at(slot).event.topics.includes(s));
      out.push(carried ? topicReason(carried) : { words: SAID.general });
    },
  }),
  row<Format>({
    name: 'format',
    asks: (q) => q.u.formats,
    score(shard, slot, f) {
      const code = shard.formatCode[slot];
      return code === formatCode(f) ? POINTS.format : code === HYBRID ? HYBRID_POINTS : 0;
    },
    role: 'filter',
    constraint: 'format',
    nearMiss: {
      nearness: otherWay,
      differs: (shard, slot) => ({ words: DIFFERS.format, values: { format: shard.at(slot).event.format } }),
    },
    candidates(shard, f, _q, visit) {
      visitList(shard.byFormat.get(f), visit);
      if (f !== 'hybrid') visitList(shard.byFormat.get('hybrid'), visit);
    },
    fill(shard, f, _q, bits) {
      orInto(bits, shard.byFormat.bits(f));
      if (f !== 'hybrid') orInto(bits, shard.byFormat.bits('hybrid'));
    },
    count: (shard, f) => listLength(shard.byFormat, f) + (f === 'hybrid' ? 0 : listLength(shard.byFormat, 'hybrid')),
    parts: (_shard, f) => [PART.format(f), PART.format('hybrid')],
    reasons(shard, slot, f, _q, out) {
      const own = shard.at(slot).event.format === f;
      out.push(
        own ? { words: SAID.format, values: { format: { format: f } } } : { words: SAID.hybrid, values: { format: f } },
      );
    },
  }),
  row<'free' | 'paid'>({
    name: 'price',
    asks: (q) => only(q, q.u.price),
    score: (shard, slot, p) => (shard.hasTrait(slot, TRAIT.price[p]) ? POINTS.price : 0),
    role: 'filter',
    constraint: 'price',
    nearMiss: {
      nearness: otherWay,
      differs: (shard, slot) => ({ words: DIFFERS.price, values: { price: shard.at(slot).event.priceType } }),
    },
    ...oneList((shard) => shard.byPrice, PART.price),
    reasons: (_shard, _slot, price, _q, out) => out.push({ words: SAID.price, values: { price } }),
  }),
  row<true>({
    name: 'founders',
    asks: (q) => (q.u.founders ? only(q, true as const) : NONE),
    // From the shard's column of fits (0, 1 or 2): half the weight for a fit of 1.
    score: (shard, slot) => FOUNDER_POINTS[shard.founders().fit[slot]!]!,
    role: 'filter',
    constraint: 'audience',
    nearMiss: AUDIENCE_MISS,
    candidates: (shard, _a, _q, visit) => visitList(shard.founders().slots, visit),
    fill(shard, _a, _q, bits) {
      const { slots } = shard.founders();
      setAll(bits, slots.items, slots.length);
    },
    count: (shard) => shard.founders().slots.length,
    reasons: (_shard, _slot, _a, _q, out) => out.push({ words: SAID.founders }),
  }),
  row<Seniority>({
    name: 'seniority',
    asks: (q) => q.u.seniority,
    score: (shard, slot, s) => (shard.hasTrait(slot, TRAIT.seniority[s]) ? POINTS.seniority : 0),
    role: 'filter',
    constraint: 'audience',
    nearMiss: AUDIENCE_MISS,
    ...oneList((shard) => shard.bySeniority, PART.seniority),
    reasons: (_shard, _slot, level, _q, out) => out.push({ words: SAID.level, values: { level: { level } } }),
  }),
  row<EventKind>({
    name: 'kind',
    asks: (q) => q.u.kinds,
    score: (shard, slot, k) => (shard.hasTrait(slot, TRAIT.kind[k]) ? POINTS.kind : 0),
    role: 'filter',
    constraint: 'kind',
    nearMiss: {
      nearness: otherWay,
      differs(shard, slot, q) {
        const first = [...shard.at(slot).kinds][0];
        return first
          ? { words: DIFFERS.kind, values: { kind: first } }
          : { words: DIFFERS.notKind, values: { kind: q.u.kinds[0]! } };
      },
    },
    ...oneList((shard) => shard.byKind, PART.kind),
    reasons: (_shard, _slot, kind, _q, out) => out.push({ words: SAID.kind, values: { kind: { kind } } }),
  }),
  row<AskedPlace>({
    name: 'home',
    asks: (q) => only(q, q.u.home),
    score(shard, slot, { place: here }) {
      const near = closeness(shard, slot, here);
      if (near === AT_PLACE) return POINTS.home;
      if (near > 0) return points((WEIGHT.home * near) / CLOSE);
      // Within reach from there: online, or worth the trip.
      return shard.formatCode[slot] === ONLINE || worthTheTrip(shard.at(slot)) ? POINTS.reach : 0;
    },
    role: 'rank',
    reasons: (shard, slot, { place: here }, _q, out) => out.push(homeReason(shard, slot, here)),
  }),
  row<SpokenLanguage>({
    name: 'language',
    asks: (q) => only(q, q.u.language),
    score: (shard, slot, l) => (shard.at(slot).event.language === l ? POINTS.language : 0),
    role: 'rank',
    reasons: (_shard, _slot, language, _q, out) =>
      out.push({ words: SAID.language, values: { language: { language } } }),
  }),
];

/** What states the subject, and the field a technology implies: what they give an event off the subject is weaker. */
const SUBJECT_EVIDENCE = FACETS.filter((f) => f.constraint === 'subject' || f.name === 'field');

/** Whether the subject is the only constraint asked (the country's aside). */
function subjectAlone(q: PreparedQuery): boolean {
  return FACETS.every((f) => f.role !== 'filter' || f.constraint === 'subject' || f.asks(q).length === 0);
}

// ---------------------------------------------------------------- the constraints

/** A constraint stated by facets of the table, and how a query asking it says so. */
const stated = <N extends string>(name: N, restates: Constraint['restates']): Constraint<N> => ({
  name,
  ...byFacets(FACETS, name),
  restates,
});

/** Every constraint, in the order `understood` and the near misses name them, with how each is said. */
export const CONSTRAINTS = [
  stated('price', (q) => ({ words: RESTATE.price, values: { price: q.u.price! } })),
  stated('format', (q) => just({ or: q.u.formats.map((format) => ({ words: RESTATE.format, values: { format } })) })),
  // A specific word as asked ("Java conferences"), a field by its name ("AI & ML meetups").
  stated('subject', (q) =>
    just({ or: [...q.technologies.map((t) => t.term), ...q.fields.map((f) => ({ topic: f.slug }))] }),
  ),
  stated('kind', (q) => just({ or: q.u.kinds.map((kind) => ({ words: RESTATE.kinds, values: { kind } })) })),
  stated('audience', (q) => ({
    words: RESTATE.for,
    values: { audience: { or: audienceOf(q.u.founders, q.u.seniority) } },
  })),
  stated('place', ({ u }) => ({
    words: u.place!.mode === 'near' ? RESTATE.near : RESTATE.inOrNear,
    values: { place: u.place!.place.name },
  })),
  {
    name: 'country' as const,
    facets: [],
    asked: (q: PreparedQuery) => q.country !== undefined,
    meets: (shard, _slot, q) => shard.country === q.country,
    fill: () => {
      throw new Error('a shard meets the country or not as a whole: it has no candidates to tally');
    },
    ...toldAs(COUNTRY_MISS),
  } satisfies Constraint<'country'>,
  stated('window', (q) => just({ window: q.u.window!, zone: q.zone, now: q.now, capital: false, dated: true })),
] as const;

export type ConstraintName = (typeof CONSTRAINTS)[number]['name'];
export type NamedConstraint = Constraint<ConstraintName>;
export const CONSTRAINT_NAMES = CONSTRAINTS.map((c) => c.name) as [ConstraintName, ...ConstraintName[]];
everyStated(FACETS, CONSTRAINT_NAMES);
