import type { CatalogueEvent } from '../catalogue/event.js';
import type { Phrase } from '../catalogue/words.js';
import { COUNTRIES, type Country } from '../places/countries.js';
import { localTime } from '../places/zones.js';
import { type CursorState, type PageKey, SeenFilter } from './cursor.js';
import { filterReasons } from './filters.js';
import type { CatalogueIndex } from './index/catalogue-index.js';
import type { CountryShard } from './index/country-shard.js';
import {
  ALTERNATIVES_SHOWN,
  before,
  byTotal,
  elsewhere,
  type Found,
  merged,
  nearMiss,
  nearMisses,
  type Widening,
  wantsAlternatives,
} from './near-misses.js';
import type { Scope, SearchParams } from './params.js';
import { type Plan, plan, rankIn, zoneOf } from './plan.js';
import type { Understanding } from './prompt/understand.js';
import { best, classify, MEETS_ALL, type ShardQuery, type ShardRanking } from './rank-shard.js';
import type { PreparedQuery } from './ranking/facet.js';
import { CONSTRAINTS, type ConstraintName, FACETS } from './ranking/facets.js';
import { titled } from './ranking/fits.js';
import { byId, byScoreThenStart } from './ranking/order.js';
import { SAID } from './ranking/said.js';
import { type AppliedFilters, appliedFilters, type Restatement, restatement } from './restate.js';
import { otherCountries, THIN_ANSWER, widening } from './widen.js';

export { ALTERNATIVES_SHOWN, type Widening } from './near-misses.js';
export { scopeOf, zoneOf } from './plan.js';
export type { AppliedFilters } from './restate.js';

/** A listed event as answers show it: its fields, and the other sources listing it. */
export interface ListedEvent {
  readonly event: CatalogueEvent;
  /** Links to the same event listed by other sources (cross-source duplicates). */
  readonly alsoListedAt: readonly string[];
}

/** An event of an answer: a read view, made for the events shown only, holding nothing of the index. */
export interface RankedEvent extends ListedEvent {
  /** In points (see POINTS_PER_WEIGHT); 0 in a listing by date. */
  readonly score: number;
  /** Why it answers the query, each once, in no language (ranking/said.ts). */
  readonly reasons: readonly Phrase[];
}

/** An event that misses exactly one constraint of the query: shown apart, with what differs. */
export interface Alternative extends RankedEvent {
  readonly constraint: ConstraintName;
  readonly differs: Phrase;
}

/** The one result every output renders: JSON, markdown, iCal, pages and MCP tools. */
export interface SearchResult {
  params: SearchParams;
  /** What was searched: one country, or all three (a place or country named in `q` decides; see scopeOf). */
  country: Scope;
  /** The countries searched. */
  countries: readonly Country[];
  /** The countries the answer read: those searched, and the others when near misses were looked for there. */
  consulted: readonly Country[];
  /**
   * The parts of the catalogue the answer was made from (see ReadIndex.versionOf): it stays the same until one
   * of them changes.
   */
  dependsOn: readonly string[];
  understanding: Understanding;
  /** What the query asks, part by part in no language (restate.ts); the answers say it as `understood`. */
  restatement: Restatement;
  /** Every filter applied, from the parameters and the prompt: what the answers echo as their query. */
  filters: AppliedFilters;
  /** Every match, before `limit`. */
  total: number;
  events: RankedEvent[];
  /** On a first page with fewer matches than asked: events missing exactly one constraint; never in a calendar. */
  alternatives: Alternative[] | undefined;
  /** When nothing matches: how many events dropping each constraint would find. */
  widen: Widening[] | undefined;
  /** Where the next page starts, when more events match (see cursor.ts). */
  next: CursorState | undefined;
}

/** Why an event answers the prompt: the reasons of every facet it earns points from. */
function promptReasons(shard: CountryShard, slot: number, q: PreparedQuery, out: Phrase[]): void {
  for (const facet of FACETS) {
    for (const asked of facet.asks(q)) {
      if (facet.score(shard, slot, asked, q) !== 0) facet.reasons(shard, slot, asked, q, out);
    }
  }
}

/** Whether the event at `slot` of a ranking comes after a page key in the listing's order (see ranking/order.ts). */
function comesAfter(r: ShardRanking, slot: number, key: PageKey, ranked: boolean): boolean {
  const { shard } = r;
  const score = ranked ? r.score[slot]! : 0;
  const order = byScoreThenStart(score, shard.startMs[slot]!, ranked ? key.score! : 0, key.startMs);
  return (order || byId(shard.at(slot).event.id, key.id)) > 0;
}

/** The local day of an instant in a zone, as days since the epoch: prompts' date words read relative to it. */
function localDayOf(now: Date, zone: string): number {
  const local = localTime(now, zone);
  return Math.floor(local.plus({ minutes: local.offset }).toMillis() / 86_400_000);
}

function reasonsOf(f: Found, params: SearchParams, prompted: boolean): Phrase[] {
  const reasons: Phrase[] = [];
  if (prompted) promptReasons(f.shard, f.slot, f.q, reasons);
  filterReasons(f.shard.at(f.slot), params, reasons);
  if (reasons.length === 0) return [UPCOMING];
  // Each reason once: facets may say the same thing ("Topic: AI" from the topic and from the field it implies).
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = `${r.words.en}${JSON.stringify(r.values)}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** The reason of an event in a listing that matched nothing in particular. */
export const UPCOMING: Phrase = { words: SAID.upcoming };

/**
 * Ranks a query in each country searched (rank-shard.ts) and merges the best, the page after a cursor if given; a
 * first page with room left adds near misses. Reasons are built only for the events returned.
 */
export function search(index: CatalogueIndex, params: SearchParams, now: Date, page?: CursorState): SearchResult {
  const p = plan(index, params, now);
  try {
    return answer(index, p, params, now, page);
  } finally {
    p.release();
  }
}

function answer(index: CatalogueIndex, p: Plan, params: SearchParams, now: Date, page?: CursorState): SearchResult {
  const { asked, searched } = p;
  const ranked = p.order !== 'start';
  const prompted = p.order === 'prompt';
  const day = localDayOf(now, zoneOf(p.scope));
  const digest = searched.reduce((d, s) => d ^ s.shard.digest, 0);
  // While nothing changed, a page is exactly the continuation of the previous one; after a change, events served
  // before are recognised by the cursor's filter and not served again.
  const seen = page && (page.digest !== digest || page.day !== day) ? page.seen : undefined;
  const nearToo = !page && prompted && asked.mode === 'constraints';
  const rankings = searched.map((sq) => rankIn(p, sq, nearToo, false, params.limit));

  const total = rankings.reduce((sum, r) => sum + r.matches.length, 0);
  const tops = rankings.map((r, i) => {
    const { shard, q } = searched[i]!;
    const onPage = (slot: number) =>
      (!page || comesAfter(r, slot, page.key, ranked)) && !seen?.has(shard.at(slot).event.id);
    // One more than the page holds: whether another page follows; a listing by date scores 0.
    const found = (slot: number): Found => ({ shard, slot, score: ranked ? r.score[slot]! : 0, q });
    return best(r, r.matches, params.limit + 1, onPage).map(found);
  });
  const shown = merged(tops, params.limit + 1);
  const more = shown.length > params.limit;
  if (more) shown.length = params.limit;
  const events = shown.map((f): RankedEvent => {
    const { event, alsoListedAt } = f.shard.at(f.slot);
    return { event, alsoListedAt, score: f.score, reasons: reasonsOf(f, params, prompted) };
  });

  const read = [...rankings];
  const { alternatives, widen } =
    !page && wantsAlternatives(p, total, params.limit)
      ? nearMissesShown(index, p, rankings, params, read, total, now)
      : { alternatives: undefined, widen: undefined };
  const consulted = new Set<Country>(read.map((r) => r.shard.country));

  const last = shown.at(-1);
  let next: CursorState | undefined;
  if (more && last) {
    const served = new SeenFilter(page ? page.seen.bits.slice() : undefined);
    for (const e of events) served.add(e.event.id);
    const key = pageKeyOf(last, ranked);
    // Once the catalogue changed between pages, every later page goes by the filter of what was served: an event
    // served before the change may have moved past this page's last one.
    next = seen ? { key, digest: page!.digest, day: page!.day, seen: served } : { key, digest, day, seen: served };
  }
  return {
    params,
    country: p.scope,
    countries: searched.map((s) => s.shard.country),
    consulted: COUNTRIES.filter((c) => consulted.has(c)),
    // A later page also depends on what changed since the first (see `seen`): on the whole of each country.
    dependsOn: partsOf(page ? read.map((r) => ({ ...r, parts: undefined })) : read),
    understanding: p.understanding,
    restatement: restatement(
      params,
      p.understanding,
      p.scope,
      searched[0]!.q,
      asked,
      prompted && anyTitled(searched, rankings),
    ),
    filters: appliedFilters(params, p.understanding, zoneOf(p.scope)),
    total,
    events,
    alternatives,
    widen,
    next,
  };
}

/**
 * Whether single events, by id, are matches of a query as its listing would show them (webhooks ask, event by event):
 * planned once, then each event shown in a country searched, accepted by the filters, and met as `classify` decides
 * for the ranking (a near miss is not a match). Use it at once: a change to the index moves slots.
 */
export function matcher(index: CatalogueIndex, params: SearchParams, now: Date): (id: string) => boolean {
  const p = plan(index, params, now);
  return (id) => {
    const entry = index.get(id);
    if (!entry || entry.slot < 0) return false;
    const sq = p.searched.find((s) => s.shard.country === entry.event.country);
    const slot = entry.slot;
    if (!sq || sq.shard.at(slot) !== entry || !sq.accept(slot)) return false;
    if (p.order === 'deadline') return !Number.isNaN(sq.shard.cfpClosesAt[slot]!);
    if (p.order === 'start') return true;
    return classify(sq.shard, slot, sq.q, p.asked) === MEETS_ALL;
  };
}

/** Whether an event the prompt names by its title is among the matches (rankings[i] ranks searched[i]). */
function anyTitled(searched: readonly ShardQuery[], rankings: readonly ShardRanking[]): boolean {
  return rankings.some((r, i) => {
    const words = searched[i]!.q.titleWords;
    return words.length > 0 && r.matches.some((slot) => titled(r.shard, slot, words));
  });
}

/** The parts of the catalogue the rankings were made from: a country's parts, or the whole country. */
function partsOf(rankings: readonly ShardRanking[]): string[] {
  const whole = new Set(rankings.filter((r) => r.parts === undefined).map((r) => r.shard.country));
  const parts = new Set<string>(whole);
  for (const r of rankings) {
    if (whole.has(r.shard.country)) continue;
    for (const part of r.parts!) parts.add(`${r.shard.country}:${part}`);
  }
  return [...parts];
}

/** The near misses a first page shows in the room it has left, and when nothing matches, how to widen the query. */
function nearMissesShown(
  index: CatalogueIndex,
  p: Plan,
  rankings: ReturnType<typeof rankIn>[],
  params: SearchParams,
  read: ShardRanking[],
  total: number,
  now: Date,
): { alternatives: Alternative[]; widen: Widening[] | undefined } {
  const near = nearMisses(p, rankings, params, read);
  const room = Math.min(ALTERNATIVES_SHOWN, params.limit - total);
  const alternatives = merged(near.lists, room).map((f) => alternativeOf(f, p, params));
  // A thin answer says which other countries hold what it asks (their rankings joined `read` after the searched).
  const others =
    p.order === 'prompt' && total < THIN_ANSWER
      ? otherCountries(index, p, params, now, total, read.slice(rankings.length), false, read)
      : [];
  return { alternatives, widen: widening(total, near.widen, others) };
}

/** A near miss as shown: the constraint it misses, and how it differs in plain words. */
function alternativeOf(f: Found, p: Plan, params: SearchParams): Alternative {
  const constraint =
    f.missed === 'country' ? CONSTRAINTS.find((c) => c.name === 'country')! : p.asked.constraints[f.missed!]!;
  const entry = f.shard.at(f.slot);
  const { event, alsoListedAt } = entry;
  return {
    event,
    alsoListedAt,
    score: f.score,
    reasons: reasonsOf(f, params, p.order === 'prompt'),
    constraint: constraint.name,
    differs: constraint.differs(f.shard, f.slot, f.q),
  };
}

/** Where the page after the one ending with `last` starts. */
function pageKeyOf(last: Found, ranked: boolean): PageKey {
  const entry = last.shard.at(last.slot).event;
  return { startMs: entry.start.getTime(), id: entry.id, ...(ranked ? { score: last.score } : {}) };
}

/** An event as the reference scan lists it: id, score, and for a near miss the constraint it misses. */
export interface Scanned {
  id: string;
  score: number;
  missed?: ConstraintName;
}

/** The reference the posting lists must agree with: a full scan scoring every event, for tests. */
export function scoreByScan(
  index: CatalogueIndex,
  params: SearchParams,
  now: Date,
): { matches: Scanned[]; alternatives: Scanned[]; widen: { constraint: ConstraintName; total: number }[] } {
  const p = plan(index, params, now);
  try {
    return scanned(index, p, params, now);
  } finally {
    p.release();
  }
}

function scanned(index: CatalogueIndex, p: Plan, params: SearchParams, now: Date): ReturnType<typeof scoreByScan> {
  const rankings = p.searched.map((sq) => rankIn(p, sq, p.order === 'prompt' && p.asked.mode === 'constraints', true));
  const found = (f: Found): Scanned => {
    const missed =
      f.missed === undefined ? undefined : f.missed === 'country' ? 'country' : p.asked.constraints[f.missed]!.name;
    return { id: f.shard.at(f.slot).event.id, score: f.score, ...(missed ? { missed } : {}) };
  };
  const matches = merged(
    rankings.map((r, i) =>
      r.matches.map((slot) => ({ shard: r.shard, slot, score: r.score[slot]!, q: p.searched[i]!.q })),
    ),
    Number.MAX_SAFE_INTEGER,
  ).map(found);
  if (!wantsAlternatives(p, matches.length, params.limit)) return { matches, alternatives: [], widen: [] };
  const near: Found[] = rankings.flatMap((r, i) =>
    r.near.map((slot, k) => nearMiss(p, r, slot, p.searched[i]!.q, r.missed[k]!)),
  );
  const others = elsewhere(p, true);
  for (const r of others) {
    const { q } = p.queryFor(r.shard.country);
    near.push(...r.matches.map((slot) => nearMiss(p, r, slot, q, 'country')));
  }
  const room = Math.min(ALTERNATIVES_SHOWN, params.limit - matches.length);
  const totals = new Map<ConstraintName, number>();
  for (const f of near) {
    const name = found(f).missed!;
    totals.set(name, (totals.get(name) ?? 0) + 1);
  }
  const dropping = [...totals].map(([constraint, total]) => ({ constraint, total })).sort(byTotal);
  const thin = p.order === 'prompt' && matches.length < THIN_ANSWER;
  const widen = (
    widening(
      matches.length,
      dropping,
      thin ? otherCountries(index, p, params, now, matches.length, others, true) : [],
    ) ?? []
  ).map(({ constraint, total }) => ({ constraint, total }));
  return { matches, alternatives: near.sort(before).slice(0, room).map(found), widen };
}
