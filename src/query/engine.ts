import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import { SecondSight } from '../cache-admission.js';
import { COUNTRY_INFO, type Country } from '../catalogue/countries.js';
import type { CatalogueEvent } from '../catalogue/event.js';
import { foldText, isTopicName, matchLexicon } from '../catalogue/lexicon.js';
import {
  EVENT_KIND_LABELS,
  type EventKind,
  FORMAT_LABELS,
  SENIORITY_LABELS,
  type TopicSlug,
  topicLabel,
} from '../catalogue/taxonomy.js';
import { distanceKm } from '../places/gazetteer.js';
import {
  type CatalogueIndex,
  fieldBit,
  founderFitOf,
  type IndexedEvent,
  type SearchField,
  type TextHit,
} from './catalogue-index.js';
import { interned, remembered } from './memo.js';
import { NEAR_RADIUS_KM, type SearchParams, toQueryString } from './params.js';
import { type CountryShard, formatCode, hasPhrase, nameWordsOf, type Postings, plain } from './postings.js';
import { describeQuery } from './restate.js';
import { effectiveCountry, type Understanding, understandQuery } from './understand.js';

export interface RankedEvent {
  entry: IndexedEvent;
  score: number;
  reasons: string[];
}

/** The one result every output renders: JSON, markdown, iCal, pages and MCP tools. */
export interface SearchResult {
  params: SearchParams;
  /** The country searched (a place named in `q` picks it when `country` was not given). */
  country: Country;
  understanding: Understanding;
  understood: string;
  /** Every match, before `limit`. */
  total: number;
  events: RankedEvent[];
}

/** Weights of each kind of match; a full match of a prompt outranks any partial one. */
const WEIGHT = {
  topic: 4,
  place: 4,
  window: 4,
  founders: 3,
  format: 2,
  price: 2,
  seniority: 2,
  kind: 1,
  text: 3,
  /** The title or organizer repeats the query's word for a topic that is more specific than the field ("Python"). */
  titleTerm: 2,
  /** Else: the title names the topic in any words (another language, a synonym: "KI" for "AI", "Rust" for PL). */
  titleTopic: 0.5,
  /** Else: the description repeats the query's word. */
  descriptionTerm: 0.5,
  /** The title or organizer holds the whole query of two or more words, as typed: a series or group by name. */
  phrase: 3,
};

/**
 * The topics each title names, with the words it uses (slug, words, slug, words, …), computed once per event
 * version. Most titles name none and share one empty list. Descriptions are folded when asked instead of kept: a
 * real catalogue's descriptions run to hundreds of characters, and topic bonuses are kept per shard anyway.
 */
const titleTopics = new WeakMap<CatalogueEvent, readonly string[]>();
const NO_TOPICS: readonly string[] = Object.freeze([]);

/** The words of `ev`'s title that name topic `slug`, if it names it. */
function titleNamesTopic(ev: CatalogueEvent, slug: string): string | undefined {
  let named = titleTopics.get(ev);
  if (!named) {
    const pairs: string[] = [];
    for (const hit of matchLexicon(ev.title)) {
      if (hit.kind === 'topic' && !pairs.some((v, i) => i % 2 === 0 && v === hit.value))
        pairs.push(hit.value, ev.title.slice(hit.start, hit.start + hit.length));
    }
    named = pairs.length > 0 ? pairs : NO_TOPICS;
    titleTopics.set(ev, named);
  }
  for (let i = 0; i < named.length; i += 2) if (named[i] === slug) return named[i + 1];
  return undefined;
}

const wordPatterns = new Map<string, RegExp>();

/** Whether folded `text` has a word starting with folded `term` ("symfony" in "symfonylive", not "ia" in "artificiale"). */
function mentions(text: string, term: string): boolean {
  return remembered(wordPatterns, term, 1001, wordPattern).test(text);
}

function wordPattern(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}`, 'u');
}

const FIELD_REASON: Record<SearchField, (term: string, e: IndexedEvent) => string> = {
  title: (t) => `Title mentions “${t}”`,
  organizer: (_t, e) => `Organizer: ${e.event.organizer}`,
  topics: (t) => `Topic mentions “${t}”`,
  venue: (_t, e) => `At ${e.event.venue}`,
  city: (_t, e) => `In ${e.event.city}`,
  description: (t) => `Description mentions “${t}”`,
};
const FIELD_ORDER: SearchField[] = ['title', 'organizer', 'topics', 'venue', 'city', 'description'];

function localDay(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toFormat('ccc d LLL');
}

/**
 * A cheap box test before the great-circle distance: 45 km is under 0.41° of latitude anywhere and under 0.7° of
 * longitude in ch/de/at (45°–55° N), so points outside the box cannot be near.
 */
function roughlyNear(here: { lat: number; lng: number }, lat: number, lng: number): boolean {
  return Math.abs(lat - here.lat) < 0.41 && Math.abs(lng - here.lng) < 0.7;
}

/** Structured parameters that need the event itself (time and format filters read the shard's columns). */
function passesFilters(e: IndexedEvent, p: SearchParams, org: string | undefined): boolean {
  const ev = e.event;
  if (p.topics.length && !p.topics.some((t) => ev.topics.includes(t))) return false;
  if (p.seniority.length && !p.seniority.some((s) => ev.seniority.includes(s))) return false;
  if (org !== undefined && org !== e.foldedOrganizer) return false;
  if (p.who === 'founders' && founderFitOf(e) === 0) return false;
  if (p.city) {
    if (p.near) {
      if (ev.format === 'online' || ev.lat === null || ev.lng === null) return false;
      if (!roughlyNear(p.city, ev.lat, ev.lng) || distanceKm(p.city, { lat: ev.lat, lng: ev.lng }) > NEAR_RADIUS_KM)
        return false;
    } else if (e.place?.geonameId !== p.city.geonameId) {
      return false;
    }
  }
  return true;
}

/** Reasons a structured filter matched, so listings without `q` still explain themselves. */
function filterReasons(e: IndexedEvent, p: SearchParams): string[] {
  const reasons: string[] = [];
  for (const t of p.topics) if (e.event.topics.includes(t)) reasons.push(`Topic: ${topicLabel(t)}`);
  if (p.city) {
    const d =
      e.event.lat !== null && e.event.lng !== null ? distanceKm(p.city, { lat: e.event.lat, lng: e.event.lng }) : 0;
    reasons.push(
      e.place?.geonameId === p.city.geonameId ? `In ${p.city.name}` : `${Math.round(d)} km from ${p.city.name}`,
    );
  }
  if (p.who === 'founders') reasons.push('For founders');
  for (const s of p.seniority)
    if (e.event.seniority.includes(s)) reasons.push(`For ${SENIORITY_LABELS[s].toLowerCase()}`);
  if (p.format) reasons.push(FORMAT_LABELS[p.format]);
  if (p.org) reasons.push(`Organizer: ${e.event.organizer}`);
  return reasons;
}

/** What a query needs per event, computed once per query rather than once per event. */
interface PreparedQuery {
  u: Understanding;
  topics: { slug: string; term: string; word: string; specific: boolean }[];
  text: Map<string, ReadonlyMap<string, TextHit>>;
  maxText: number;
  /**
   * The whole prompt's words as `plain` splits it (["ai", "meetup", "berlin"]) when it has two or more, else none:
   * found as consecutive words of a title or organizer, a series or group by name (see `hasPhrase`).
   */
  phraseWords: readonly string[];
  /** Local day labels by day, for date reasons ("Next week: Thu 26 Nov"). */
  day: (date: Date) => string;
}

function prepare(
  u: Understanding,
  text: PreparedQuery['text'],
  maxText: number,
  zone: string,
  phraseWords: readonly string[],
): PreparedQuery {
  const days = new Map<number, string>();
  return {
    u,
    topics: u.topics.map(({ slug, term }) => {
      const word = foldText(term);
      return { slug, term, word, specific: word.length >= 2 && !isTopicName(slug as TopicSlug, term) };
    }),
    text,
    maxText,
    phraseWords,
    day: (date) => {
      const key = Math.floor(date.getTime() / 3_600_000);
      let label = days.get(key);
      if (label === undefined) {
        label = localDay(date, zone);
        days.set(key, label);
      }
      return label;
    },
  };
}

type TopicEvidence = 'title' | 'organizer' | 'named' | 'description';
const TOPIC_EVIDENCE_WEIGHT: Record<TopicEvidence, number> = {
  title: WEIGHT.titleTerm,
  organizer: WEIGHT.titleTerm,
  named: WEIGHT.titleTopic,
  description: WEIGHT.descriptionTerm,
};

/**
 * How strongly an event carrying a prompt's topic is about what was asked, strongest evidence only (see WEIGHT): the
 * title or organizer repeats the query's word, else the title names the topic, else the description repeats the word.
 */
function topicEvidence(
  e: IndexedEvent,
  t: { slug: string; word: string; specific: boolean },
): TopicEvidence | undefined {
  if (t.specific && mentions(e.foldedTitle, t.word)) return 'title';
  if (t.specific && mentions(e.foldedOrganizer, t.word)) return 'organizer';
  if (titleNamesTopic(e.event, t.slug)) return 'named';
  if (t.specific && e.event.description && mentions(foldText(e.event.description), t.word)) return 'description';
  return undefined;
}

/**
 * Scores one event against the prompt; undefined when it matches nothing of it. With `reasons`, also says why —
 * done only for the events returned, since building strings for every candidate is most of the cost.
 */
function scorePrompt(e: IndexedEvent, q: PreparedQuery, reasons?: string[]): number | undefined {
  const { u, text, maxText, phraseWords } = q;
  let matched = false;
  const ev = e.event;
  let score = 0;
  if (phraseWords.length > 0) {
    const names = nameWordsOf(e);
    if (hasPhrase(names.title, phraseWords)) {
      matched = true;
      score += WEIGHT.phrase;
      reasons?.push(`Title mentions “${phraseWords.join(' ')}”`);
    } else if (hasPhrase(names.organizer, phraseWords)) {
      matched = true;
      score += WEIGHT.phrase;
      reasons?.push(`Organizer: ${ev.organizer}`);
    }
  }
  for (const { slug, term, word, specific } of q.topics) {
    if (!ev.topics.includes(slug)) continue;
    matched = true;
    score += WEIGHT.topic;
    reasons?.push(`Topic: ${topicLabel(slug as TopicSlug)}`);
    const evidence = topicEvidence(e, { slug, word, specific });
    if (evidence) {
      score += TOPIC_EVIDENCE_WEIGHT[evidence];
      reasons?.push(
        evidence === 'organizer'
          ? `Organizer: ${ev.organizer}`
          : evidence === 'named'
            ? `Title mentions “${titleNamesTopic(ev, slug)}”`
            : evidence === 'title'
              ? `Title mentions “${term}”`
              : `Description mentions “${term}”`,
      );
    }
  }
  if (u.place && ev.format !== 'online' && ev.lat !== null && ev.lng !== null) {
    const here = u.place.place;
    if (e.place?.geonameId === here.geonameId) {
      matched = true;
      score += WEIGHT.place;
      reasons?.push(`In ${here.name}`);
    } else {
      const d = roughlyNear(here, ev.lat, ev.lng)
        ? distanceKm(here, { lat: ev.lat, lng: ev.lng })
        : Number.POSITIVE_INFINITY;
      if (d <= NEAR_RADIUS_KM) {
        matched = true;
        score += WEIGHT.place * (u.place.mode === 'near' ? 0.9 : 0.75) * (1 - d / (2 * NEAR_RADIUS_KM));
        reasons?.push(`${Math.max(1, Math.round(d))} km from ${here.name}`);
      }
    }
  }
  if (u.window) {
    const start = e.startMs;
    const overlaps = start < u.window.to.getTime() && e.endsAt > u.window.from.getTime();
    if (overlaps) {
      matched = true;
      score += WEIGHT.window;
      const phrase = u.window.label.split(' (')[0]!;
      const shown = start >= u.window.from.getTime() ? ev.start : u.window.from;
      reasons?.push(`${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}: ${q.day(shown)}`);
    }
  }
  for (const f of u.formats) {
    if (ev.format === f) {
      matched = true;
      score += WEIGHT.format;
      reasons?.push(FORMAT_LABELS[f]);
    } else if (ev.format === 'hybrid') {
      matched = true;
      score += WEIGHT.format * 0.75;
      reasons?.push(`Hybrid: also ${f === 'online' ? 'online' : 'in person'}`);
    }
  }
  if (u.price && ev.priceType === u.price) {
    matched = true;
    score += WEIGHT.price;
    reasons?.push(u.price === 'free' ? 'Free' : 'Paid');
  }
  if (u.founders && founderFitOf(e) > 0) {
    matched = true;
    score += (WEIGHT.founders * founderFitOf(e)) / 2;
    reasons?.push('For founders');
  }
  for (const s of u.seniority) {
    if (ev.seniority.includes(s)) {
      matched = true;
      score += WEIGHT.seniority;
      reasons?.push(`For ${SENIORITY_LABELS[s].toLowerCase()}`);
    }
  }
  for (const k of u.kinds) {
    if (e.kinds.has(k as EventKind)) {
      matched = true;
      score += WEIGHT.kind;
      reasons?.push(EVENT_KIND_LABELS[k as EventKind]);
    }
  }
  for (const [term, hits] of text) {
    const hit = hits.get(ev.id);
    if (!hit) continue;
    matched = true;
    score += (WEIGHT.text * hit.score) / maxText;
    const field = FIELD_ORDER.find((f) => hit.fields & fieldBit(f));
    if (field) {
      const reason = FIELD_REASON[field](term, e);
      if (reasons && !reasons.includes(reason)) reasons.push(reason);
    }
  }
  return matched ? score : undefined;
}

/** The slots on both ascending lists. */
function intersect(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const slot = a[i]!;
    while (j < b.length && b[j]! < slot) j++;
    if (j === b.length) break;
    if (b[j] === slot) out.push(slot);
  }
  return out;
}

/**
 * Title bonuses of a prompt topic for every event of the topic's posting list, as `scorePrompt` gives them; kept per
 * shard, since a shard lives until the next change and prompts repeat their topics' words.
 */
function topicBonuses(shard: CountryShard, list: Postings, t: PreparedQuery['topics'][number]): Float64Array {
  const key = `${t.slug}|${t.specific ? t.word : ''}`;
  let bonuses = shard.memo.get(key);
  if (bonuses) return bonuses;
  bonuses = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const evidence = topicEvidence(shard.events[list[i]!]!, t);
    if (evidence) bonuses[i] = TOPIC_EVIDENCE_WEIGHT[evidence];
  }
  if (shard.memo.size >= 256) shard.memo.clear();
  shard.memo.set(key, bonuses);
  return bonuses;
}

/**
 * Scores a prompt over a country's posting lists, facet by facet (term at a time), touching only the events that
 * match something. Facets are added in `scorePrompt`'s order, so each event's score is the very same floating-point
 * sum. Scores land in the shard's scratch arrays (no list grown per query: a broad prompt touches most of a country,
 * and growing that list was nearly all a query allocated); returns how many slots of `shard.touched` it filled.
 */
function scoreShard(shard: CountryShard, q: PreparedQuery): number {
  const { u } = q;
  const { events, score, stamp, touched } = shard;
  const epoch = shard.nextEpoch();
  let count = 0;
  const add = (slot: number, weight: number) => {
    if (stamp[slot] === epoch) {
      score[slot] = score[slot]! + weight;
    } else {
      stamp[slot] = epoch;
      score[slot] = weight;
      touched[count++] = slot;
    }
  };
  if (q.phraseWords.length > 0) {
    // Every word of a phrase found in a name is a word of that name: the events on every word's list are the
    // candidates (lists ascend by slot; intersected rarest first).
    const lists: ArrayLike<number>[] = q.phraseWords
      .map((word) => shard.byNameWord.get(word) ?? [])
      .sort((a, b) => a.length - b.length);
    let candidates = lists[0]!;
    for (let i = 1; i < lists.length && candidates.length > 0; i++) candidates = intersect(candidates, lists[i]!);
    for (let c = 0; c < candidates.length; c++) {
      const slot = candidates[c]!;
      const names = nameWordsOf(events[slot]!);
      if (hasPhrase(names.title, q.phraseWords) || hasPhrase(names.organizer, q.phraseWords)) add(slot, WEIGHT.phrase);
    }
  }
  for (const t of q.topics) {
    const list = shard.byTopic.get(t.slug);
    if (!list) continue;
    const bonuses = topicBonuses(shard, list, t);
    for (let i = 0; i < list.length; i++) {
      const slot = list[i]!;
      add(slot, WEIGHT.topic);
      if (bonuses[i]) score[slot] = score[slot]! + bonuses[i]!;
    }
  }
  if (u.place) {
    const here = u.place.place;
    for (const slot of shard.byPlace.get(here.geonameId) ?? []) add(slot, WEIGHT.place);
    const factor = u.place.mode === 'near' ? 0.9 : 0.75;
    for (const cell of shard.cellsAround(here.lat, here.lng)) {
      for (const slot of cell) {
        if (shard.geonameId[slot] === here.geonameId) continue;
        const lat = shard.lat[slot]!;
        const lng = shard.lng[slot]!;
        if (!roughlyNear(here, lat, lng)) continue;
        const d = distanceKm(here, { lat, lng });
        if (d <= NEAR_RADIUS_KM) add(slot, WEIGHT.place * factor * (1 - d / (2 * NEAR_RADIUS_KM)));
      }
    }
  }
  if (u.window) {
    const from = u.window.from.getTime();
    const to = u.window.to.getTime();
    const end = shard.firstStartingAt(to);
    for (let slot = shard.firstStartingAt(from - shard.longestShortMs); slot < end; slot++) {
      if (shard.long[slot] === 0 && shard.endsAt[slot]! > from) add(slot, WEIGHT.window);
    }
    for (const slot of shard.longEvents) {
      if (shard.startMs[slot]! < to && shard.endsAt[slot]! > from) add(slot, WEIGHT.window);
    }
  }
  for (const f of u.formats) {
    for (const slot of shard.byFormat.get(f) ?? []) add(slot, WEIGHT.format);
    if (f !== 'hybrid') for (const slot of shard.byFormat.get('hybrid') ?? []) add(slot, WEIGHT.format * 0.75);
  }
  if (u.price) for (const slot of shard.byPrice.get(u.price) ?? []) add(slot, WEIGHT.price);
  if (u.founders) {
    const { slots, fits } = shard.founders();
    for (let i = 0; i < slots.length; i++) add(slots[i]!, (WEIGHT.founders * fits[i]!) / 2);
  }
  for (const s of u.seniority) for (const slot of shard.bySeniority.get(s) ?? []) add(slot, WEIGHT.seniority);
  for (const k of u.kinds) for (const slot of shard.byKind.get(k) ?? []) add(slot, WEIGHT.kind);
  for (const hits of q.text.values()) {
    // forEach rather than for…of: the latter allocates an [id, hit] pair per hit, and a common word has thousands.
    hits.forEach((hit, id) => {
      const slot = shard.slotOf.get(id);
      if (slot !== undefined) add(slot, (WEIGHT.text * hit.score) / q.maxText);
    });
  }
  return count;
}

/**
 * The best `limit` of the slots scoreShard touched (the first `count` of `shard.touched`) that `accept` lets through,
 * best first (equal scores: earlier start first, as a stable sort of the start order would give), and how many it
 * let through. A sorted window of at most `limit` slots: no sort of every match.
 */
function topScored(
  shard: CountryShard,
  count: number,
  limit: number,
  accept: (slot: number) => boolean,
): { slots: number[]; total: number } {
  const { score, touched } = shard;
  const better = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && a < b);
  const best: number[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    const slot = touched[i]!;
    if (!accept(slot)) continue;
    total++;
    if (best.length === limit && !better(slot, best[limit - 1]!)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (better(best[mid]!, slot)) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, slot);
    if (best.length > limit) best.pop();
  }
  return { slots: best, total };
}

/** Local day bounds of the `from`/`to` parameters in the country's zone; open ends are ±infinity. */
function dateBounds(p: SearchParams, zone: string): [number, number] {
  const from = p.from ? DateTime.fromISO(p.from, { zone }).startOf('day').toMillis() : Number.NEGATIVE_INFINITY;
  const to = p.to
    ? DateTime.fromISO(p.to, { zone }).plus({ days: 1 }).startOf('day').toMillis()
    : Number.POSITIVE_INFINITY;
  return [from, to];
}

/**
 * Reason strings, one object per distinct text: results are cached, and the same few hundred reasons ("Topic: AI",
 * "In Berlin", "Free") recur in every one of them (at 100k events, 500 cached results held ~10 MB, mostly copies).
 */
const REASONS = new Map<string, string>();
/** The reason of a listing without q for an event no filter speaks for; shared, like results, so read-only. */
const UPCOMING = ['Upcoming'];

/** The reasons, each replaced by its shared string. */
function sharedReasons(reasons: string[]): string[] {
  for (let i = 0; i < reasons.length; i++) reasons[i] = interned(REASONS, reasons[i]!, 20_000);
  return reasons;
}

const recentResults = new WeakMap<
  CatalogueIndex,
  { results: LRUCache<string, SearchResult>; admission: SecondSight }
>();

/**
 * Runs a query (see `rank`), answering repeats from a small LRU: a result depends only on the parameters, the
 * index version and the minute, and assistants and feeds repeat the same queries. A result is kept from the second
 * time its query is asked (see SecondSight). Results are shared: read-only.
 */
export function search(index: CatalogueIndex, params: SearchParams, now: Date): SearchResult {
  let cache = recentResults.get(index);
  if (!cache) {
    cache = { results: new LRUCache({ max: 500 }), admission: new SecondSight(2000) };
    recentResults.set(index, cache);
  }
  const query = `${params.countryExplicit ? 1 : 0}|${params.limit}|${toQueryString(params)}`;
  const key = `${index.version}|${Math.floor(now.getTime() / 60_000)}|${query}`;
  let result = cache.results.get(key);
  if (!result) {
    result = rank(index, params, now);
    if (cache.admission.admit(query)) cache.results.set(key, result);
  }
  return result;
}

/** What a query resolves to before any event is looked at. */
interface Plan {
  understanding: Understanding;
  country: Country;
  shard: CountryShard;
  prepared: PreparedQuery;
  /** Whether the event at a slot is upcoming and passes the structured filters. */
  accept: (slot: number) => boolean;
}

function plan(index: CatalogueIndex, params: SearchParams, now: Date): Plan {
  const understanding = understandQuery(params.q, now, COUNTRY_INFO[params.country].timeZone);
  const country = effectiveCountry(understanding, params.country, params.countryExplicit);
  const zone = COUNTRY_INFO[country].timeZone;
  const nowMs = now.getTime();
  const [from, to] = dateBounds(params, zone);

  const text = new Map<string, ReadonlyMap<string, TextHit>>();
  let maxText = 0;
  for (const term of understanding.terms) {
    const hits = index.searchTerm(term);
    text.set(term, hits);
    for (const h of hits.values()) maxText = Math.max(maxText, h.score);
  }

  const typed = plain(foldText(params.q)).trim().split(' ');
  const prepared = prepare(understanding, text, maxText || 1, zone, typed.length >= 2 ? typed : []);
  const org = params.org === undefined ? undefined : foldText(params.org);
  const shard = index.shard(country);
  // Time and format filters read the shard's columns; the others need the event itself.
  const format = params.format === undefined ? -1 : formatCode(params.format);
  const needsEvent =
    params.topics.length > 0 ||
    params.seniority.length > 0 ||
    org !== undefined ||
    params.who !== undefined ||
    params.city !== undefined;
  const accept = (slot: number) =>
    shard.endsAt[slot]! > nowMs &&
    shard.startMs[slot]! >= from &&
    shard.startMs[slot]! < to &&
    (format === -1 || shard.formatCode[slot] === format) &&
    (!needsEvent || passesFilters(shard.events[slot]!, params, org));
  return { understanding, country, shard, prepared, accept };
}

/**
 * Ranks a query over the in-memory index: hard filters from parameters; with `q`, every facet of the prompt and
 * its full-text words rank (scored over posting lists, see `scoreShard`), and events matching nothing of it are
 * left out. Sorted by start without `q`. Reasons are built only for the events returned.
 */
function rank(index: CatalogueIndex, params: SearchParams, now: Date): SearchResult {
  const { understanding, country, shard, prepared, accept } = plan(index, params, now);
  let total = 0;
  let events: RankedEvent[];
  if (params.q) {
    const ranked = topScored(shard, scoreShard(shard, prepared), params.limit, accept);
    total = ranked.total;
    events = ranked.slots.map((slot) => {
      const entry = shard.events[slot]!;
      const reasons: string[] = [];
      scorePrompt(entry, prepared, reasons);
      for (const r of filterReasons(entry, params)) if (!reasons.includes(r)) reasons.push(r);
      return { entry, score: shard.score[slot]!, reasons: sharedReasons(reasons) };
    });
  } else {
    // The country's events come sorted by start (then id): a listing without q is the first that pass.
    events = [];
    for (let slot = 0; slot < shard.size; slot++) {
      if (!accept(slot)) continue;
      total++;
      if (events.length < params.limit) {
        const reasons = filterReasons(shard.events[slot]!, params);
        events.push({
          entry: shard.events[slot]!,
          score: 0,
          reasons: reasons.length > 0 ? sharedReasons(reasons) : UPCOMING,
        });
      }
    }
  }
  return {
    params,
    country,
    understanding,
    understood: describeQuery(params, understanding, country),
    total,
    events,
  };
}

/**
 * What the posting lists must agree with: every accepted event of the country scored one by one with
 * `scorePrompt`, best first (equal scores in start order). A full scan, for tests; `search` is the fast path.
 */
export function scoreByScan(index: CatalogueIndex, params: SearchParams, now: Date): { id: string; score: number }[] {
  const { shard, prepared, accept } = plan(index, params, now);
  const scored: { id: string; score: number }[] = [];
  for (let slot = 0; slot < shard.size; slot++) {
    if (!accept(slot)) continue;
    const score = scorePrompt(shard.events[slot]!, prepared);
    if (score !== undefined) scored.push({ id: shard.events[slot]!.event.id, score });
  }
  return scored.sort((a, b) => b.score - a.score);
}
