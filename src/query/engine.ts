import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import { foldText } from '../catalogue/lexicon.js';
import { COUNTRY_INFO, type Country } from '../places/countries.js';
import { SecondSight } from '../runtime/cache-admission.js';
import { type CursorState, type PageKey, SeenFilter } from './cursor.js';
import { filterReasons, passesFilters } from './filters.js';
import type { AnswerWatch } from './index/answer-watch.js';
import type { CatalogueIndex } from './index/catalogue-index.js';
import { type CountryShard, formatCode } from './index/country-shard.js';
import type { IndexedEvent } from './index/indexed-event.js';
import { interned } from './memo.js';
import { type SearchParams, toQueryString } from './params.js';
import { describeQuery } from './prompt/restate.js';
import { effectiveCountry, type Understanding, understandQuery } from './prompt/understand.js';
import { type Facet, type PreparedQuery, ROLE_RANK } from './ranking/facet.js';
import { FACETS } from './ranking/facets.js';
import { prepareQuery } from './ranking/prepare.js';

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
  /** Where the next page starts, when more events match (see cursor.ts). */
  next: CursorState | undefined;
  /**
   * Whether the result still holds after later changes to its country, for first pages ranked without full-text
   * words (see `watchable`); undefined when it holds for the version of its country it was ranked at only.
   */
  watch: AnswerWatch | undefined;
}

/**
 * Reason strings, one object per distinct text: results are cached, and the same few hundred reasons ("Topic: AI",
 * "In Berlin", "Free") recur in every one of them.
 */
const REASONS = new Map<string, string>();
/** The reason of a listing without q for an event no filter speaks for; shared, like results, so read-only. */
const UPCOMING = ['Upcoming'];

/** The distinct reasons, in order, each as its shared string (a handful: a list is cheaper than a Set). */
function sharedReasons(reasons: string[]): string[] {
  const out: string[] = [];
  for (const reason of reasons) {
    const shared = interned(REASONS, reason, 20_000);
    if (!out.includes(shared)) out.push(shared);
  }
  return out;
}

/**
 * The facets that decide which events match (those of the first role the prompt asks anything of, see Role), and
 * the others asked, which only add to events that match. Each in facet order.
 */
function split(q: PreparedQuery): { deciding: Facet<unknown>[]; adding: Facet<unknown>[] } {
  const asked = FACETS.filter((f) => f.asks(q).length > 0);
  const rank = Math.min(...asked.filter((f) => f.role !== 'name').map((f) => ROLE_RANK[f.role]));
  return {
    deciding: asked.filter((f) => f.role === 'name' || ROLE_RANK[f.role] === rank),
    adding: asked.filter((f) => f.role !== 'name' && ROLE_RANK[f.role] > rank),
  };
}

/**
 * Whether the prompt asks anything of the facets: one of only filler and a country ("tech events in Austria",
 * "what's on?") asks for the country's listing, as no prompt does.
 */
function asksAnything(q: PreparedQuery): boolean {
  return FACETS.some((f) => f.asks(q).length > 0);
}

/** Scores a prompt over a country's posting lists, facet by facet; returns how many slots of `shard.touched` it filled. */
function scoreShard(shard: CountryShard, q: PreparedQuery): number {
  const { score, stamp, touched } = shard;
  const epoch = shard.nextEpoch();
  const { deciding, adding } = split(q);
  let count = 0;
  for (const facet of deciding) {
    for (const asked of facet.asks(q)) {
      facet.candidates(shard, asked, q, (slot) => {
        const weight = facet.score(shard, slot, asked, q);
        if (weight === 0) return;
        if (stamp[slot] === epoch) {
          score[slot] = score[slot]! + weight;
        } else {
          stamp[slot] = epoch;
          score[slot] = weight;
          touched[count++] = slot;
        }
      });
    }
  }
  // The other facets only add to what matched: the slots touched, rather than their candidates.
  for (const facet of adding) {
    for (const asked of facet.asks(q)) {
      for (let i = 0; i < count; i++) {
        const slot = touched[i]!;
        const weight = facet.score(shard, slot, asked, q);
        if (weight !== 0) score[slot] = score[slot]! + weight;
      }
    }
  }
  return count;
}

/** Scores every event with a call for papers by its deadline, the soonest highest (`-closesAt`). */
function scoreByDeadline(shard: CountryShard): number {
  const { score, stamp, touched, cfpClosesAt } = shard;
  const epoch = shard.nextEpoch();
  let count = 0;
  for (let i = 0; i < shard.order.length; i++) {
    const slot = shard.order.items[i]!;
    if (Number.isNaN(cfpClosesAt[slot]!)) continue;
    stamp[slot] = epoch;
    score[slot] = -cfpClosesAt[slot]!;
    touched[count++] = slot;
  }
  return count;
}

/** Scores one event against the prompt by asking every facet: undefined when no facet that decides matches it. */
function scoreOne(shard: CountryShard, slot: number, q: PreparedQuery, facets = split(q)): number | undefined {
  const { deciding, adding } = facets;
  let total: number | undefined;
  for (const facet of deciding) {
    for (const asked of facet.asks(q)) {
      const weight = facet.score(shard, slot, asked, q);
      if (weight !== 0) total = total === undefined ? weight : total + weight;
    }
  }
  if (total === undefined) return undefined;
  for (const facet of adding) {
    for (const asked of facet.asks(q)) {
      const weight = facet.score(shard, slot, asked, q);
      if (weight !== 0) total += weight;
    }
  }
  return total;
}

/**
 * Why an event matched the prompt: the reasons of every facet it scored on. Indexed loops: this runs for each event
 * shown, seldom enough that V8 leaves it unoptimised, and there each step of a for…of makes an object.
 */
function promptReasons(shard: CountryShard, slot: number, q: PreparedQuery, out: string[]): void {
  for (let f = 0; f < FACETS.length; f++) {
    const facet = FACETS[f]!;
    const asks = facet.asks(q);
    for (let a = 0; a < asks.length; a++) {
      if (facet.score(shard, slot, asks[a], q) !== 0) facet.reasons(shard, slot, asks[a], q, out);
    }
  }
}

/** Whether slot `a` ranks before slot `b`: higher score, then earlier start, then lower id. */
function ranksBefore(shard: CountryShard, a: number, b: number): boolean {
  const sa = shard.score[a]!;
  const sb = shard.score[b]!;
  if (sa !== sb) return sa > sb;
  const ta = shard.startMs[a]!;
  const tb = shard.startMs[b]!;
  if (ta !== tb) return ta < tb;
  return shard.at(a).event.id < shard.at(b).event.id;
}

/**
 * The best `limit` of the slots scoreShard touched that `accept` lets through and that belong on this page (after the
 * cursor, not served before), best first, and how many `accept` let through: a sorted window of at most `limit`
 * slots, no sort of every match.
 */
function topScored(
  shard: CountryShard,
  count: number,
  limit: number,
  accept: (slot: number) => boolean,
  onPage: (slot: number) => boolean,
): { slots: number[]; total: number } {
  const { touched } = shard;
  const best: number[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    const slot = touched[i]!;
    if (!accept(slot)) continue;
    total++;
    if (!onPage(slot)) continue;
    if (best.length === limit && !ranksBefore(shard, slot, best[limit - 1]!)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ranksBefore(shard, best[mid]!, slot)) lo = mid + 1;
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
  const shard = index.shard(country);

  const days = new Map<number, string>();
  const prepared = prepareQuery(understanding, shard, (date) => {
    const key = Math.floor(date.getTime() / 3_600_000);
    let label = days.get(key);
    if (label === undefined) {
      label = DateTime.fromJSDate(date, { zone }).toFormat('ccc d LLL');
      days.set(key, label);
    }
    return label;
  });

  const org = params.org === undefined ? undefined : foldText(params.org);
  // Time and format filters read the shard's columns; the others need the event itself.
  const format = params.format === undefined ? -1 : formatCode(params.format);
  const needsEvent =
    params.topics.length > 0 ||
    params.seniority.length > 0 ||
    org !== undefined ||
    params.who !== undefined ||
    params.city !== undefined ||
    Object.keys(params.plain).length > 0;
  const cfpOpen = params.cfp === 'open';
  const accept = (slot: number) =>
    shard.endsAt[slot]! > nowMs &&
    (!cfpOpen || shard.cfpClosesAt[slot]! > nowMs) &&
    shard.startMs[slot]! >= from &&
    shard.startMs[slot]! < to &&
    (format === -1 || shard.formatCode[slot] === format) &&
    (!needsEvent || passesFilters(shard.at(slot), params, org));
  return { understanding, country, shard, prepared, accept };
}

/** Whether the event at `slot` comes after a page key: lower score, then later start, then higher id. */
function comesAfter(shard: CountryShard, slot: number, key: PageKey, ranked: boolean): boolean {
  if (ranked) {
    const score = shard.score[slot]!;
    if (score !== key.score) return score < key.score!;
  }
  const start = shard.startMs[slot]!;
  if (start !== key.startMs) return start > key.startMs;
  return shard.at(slot).event.id > key.id;
}

/** The local day of an instant in a zone, as days since the epoch: prompts' date words read relative to it. */
function localDayOf(now: Date, zone: string): number {
  const local = DateTime.fromJSDate(now, { zone });
  return Math.floor(local.plus({ minutes: local.offset }).toMillis() / 86_400_000);
}

/**
 * Ranks a query over the in-memory index: hard filters from parameters; with `q`, every facet of the prompt ranks
 * (scored over posting lists, see `scoreShard`), and events that no facet deciding the match finds are left out
 * (see Role in ranking/facets.ts). Sorted by start without `q` (or with a prompt that asks nothing of the facets).
 * Reasons are built only for the events returned. With a cursor, the page after it (see cursor.ts).
 */
function rank(index: CatalogueIndex, params: SearchParams, now: Date, page?: CursorState): Ranked {
  const { understanding, country, shard, prepared, accept } = plan(index, params, now);
  // Scored: by the prompt, or, for open calls for papers without one, by the deadline (the soonest first). A
  // prompt that asks nothing of the facets ("what's on?") lists like no prompt at all.
  const prompted = params.q !== '' && asksAnything(prepared);
  const byDeadline = !prompted && params.cfp === 'open';
  const ranked = prompted || byDeadline;
  const day = localDayOf(now, COUNTRY_INFO[country].timeZone);
  // While nothing changed, a page is exactly the continuation of the previous one; after a change, events served
  // before are recognised by the cursor's filter and not served again.
  const seen = page && (page.digest !== shard.digest || page.day !== day) ? page.seen : undefined;
  const onPage = (slot: number) =>
    (!page || comesAfter(shard, slot, page.key, ranked)) && !seen?.has(shard.at(slot).event.id);
  let total = 0;
  const events: RankedEvent[] = [];
  let slots: number[];
  if (ranked) {
    // One more than the page holds: whether another page follows.
    const scored = byDeadline ? scoreByDeadline(shard) : scoreShard(shard, prepared);
    const top = topScored(shard, scored, params.limit + 1, accept, onPage);
    total = top.total;
    slots = top.slots;
  } else {
    // The country's events in start order: a listing without q is the first that pass after the cursor.
    slots = [];
    const { items, length } = shard.order;
    for (let i = 0; i < length; i++) {
      const slot = items[i]!;
      if (!accept(slot)) continue;
      total++;
      if (slots.length <= params.limit && onPage(slot)) slots.push(slot);
    }
  }
  const more = slots.length > params.limit;
  if (more) slots.length = params.limit;
  for (const slot of slots) {
    const entry = shard.at(slot);
    const reasons: string[] = [];
    if (prompted) promptReasons(shard, slot, prepared, reasons);
    filterReasons(entry, params, reasons);
    const shared = reasons.length > 0 ? sharedReasons(reasons) : UPCOMING;
    events.push({ entry, score: ranked ? shard.score[slot]! : 0, reasons: shared });
  }
  const last = events.at(-1);
  let next: CursorState | undefined;
  if (more && last) {
    const served = new SeenFilter(page ? page.seen.bits.slice() : undefined);
    for (const e of events) served.add(e.entry.event.id);
    const key: PageKey = {
      startMs: last.entry.event.start.getTime(),
      id: last.entry.event.id,
      ...(ranked ? { score: last.score } : {}),
    };
    next = { key, digest: shard.digest, day, seen: served };
  }
  const result: SearchResult = {
    params,
    country,
    understanding,
    understood: describeQuery(params, understanding, country),
    total,
    events,
    next,
    watch: undefined,
  };
  return { result, shard, watchable: page ? undefined : watchable(shard, prepared, accept, prompted, byDeadline) };
}

/** A result, the shard it was ranked in, and what would change it (see `watchable`). */
interface Ranked {
  result: SearchResult;
  shard: CountryShard;
  watchable: ((slot: number) => boolean) | undefined;
}

/**
 * What a first page depends on: the events it counts in `total`, whether shown or not. A change to any other event
 * leaves it as it is: the total, the order (score, start, id of each matching event) and the reasons (of each event
 * shown) read only the matching events. Not for prompts with full-text words, whose scores (BM25) move with every
 * event added or removed; nor for later pages, whose cursor filter reads what the shard shows as a whole. A kept
 * first page's cursor names the shard as it was ranked: its next page goes by the cursor's filter of the events served
 * (see cursor.ts), and goes on where the kept page ended.
 */
function watchable(
  shard: CountryShard,
  prepared: PreparedQuery,
  accept: (slot: number) => boolean,
  prompted: boolean,
  byDeadline: boolean,
): ((slot: number) => boolean) | undefined {
  if (prepared.text.length > 0) return undefined;
  if (byDeadline) return (slot) => accept(slot) && !Number.isNaN(shard.cfpClosesAt[slot]!);
  if (!prompted) return accept;
  const facets = split(prepared);
  return (slot) => accept(slot) && scoreOne(shard, slot, prepared, facets) !== undefined;
}

interface Remembered {
  result: SearchResult;
  /** The version of the result's country it was ranked at, and the minute. */
  version: number;
  minute: number;
}

const recentResults = new WeakMap<CatalogueIndex, { results: LRUCache<string, Remembered>; admission: SecondSight }>();

/**
 * Runs a query (see `rank`), answering repeats from a small LRU: a result depends only on the parameters, the
 * version of the country it searched and the minute, and assistants and feeds repeat the same queries. A result is
 * kept from the second time its query is asked (see SecondSight). Results are shared: read-only.
 */
export function search(index: CatalogueIndex, params: SearchParams, now: Date, page?: CursorState): SearchResult {
  // Later pages are asked once each: ranked without the cache.
  if (page) return rank(index, params, now, page).result;
  let cache = recentResults.get(index);
  if (!cache) {
    cache = { results: new LRUCache({ max: 500 }), admission: new SecondSight(2000) };
    recentResults.set(index, cache);
  }
  const key = `${params.countryExplicit ? 1 : 0}|${params.limit}|${toQueryString(params)}`;
  const minute = Math.floor(now.getTime() / 60_000);
  const kept = cache.results.get(key);
  if (
    kept &&
    kept.minute === minute &&
    (kept.result.watch?.holds() ?? kept.version === index.versionOf(kept.result.country))
  )
    return kept.result;
  const { result, shard, watchable } = rank(index, params, now);
  if (cache.admission.admit(key)) {
    // Kept, and asked again: watched, so that changes which cannot alter it leave it in place.
    if (watchable) result.watch = shard.watches.watch(watchable);
    cache.results.set(key, { result, version: index.versionOf(result.country), minute });
  }
  return result;
}

/**
 * What the posting lists must agree with: every accepted event of the country scored one by one by asking every
 * facet, best first (equal scores: earlier start, then lower id). A full scan, for tests; `search` is the fast path.
 */
export function scoreByScan(index: CatalogueIndex, params: SearchParams, now: Date): { id: string; score: number }[] {
  const { shard, prepared, accept } = plan(index, params, now);
  const scored: { id: string; score: number; start: number }[] = [];
  const { items, length } = shard.order;
  for (let i = 0; i < length; i++) {
    const slot = items[i]!;
    if (!accept(slot)) continue;
    const score = asksAnything(prepared) ? scoreOne(shard, slot, prepared) : 0;
    if (score !== undefined) scored.push({ id: shard.at(slot).event.id, score, start: shard.startMs[slot]! });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.start - b.start || (a.id < b.id ? -1 : 1))
    .map(({ id, score }) => ({ id, score }));
}
