import type { CountryShard } from './index/country-shard.js';
import { PART } from './index/parts.js';
import type { ShardSearch } from './index/shard-search.js';
import { forEachSlot, tallyLanes } from './index/slot-bits.js';
import { type Facet, type PreparedQuery, scoresAny } from './ranking/facet.js';
import { CONSTRAINTS, FACETS, type NamedConstraint } from './ranking/facets.js';
import { titled, visitPhrase } from './ranking/fits.js';
import { compareSlots } from './ranking/order.js';
import { candidateCount, partsHolding } from './ranking/selectivity.js';

/**
 * Ranks one country's events (engine.ts does several countries, pages, the answer). What matches follows from the
 * query's constraints (ranking/constraints.ts):
 * - `constraints`: an event meets every one; a near miss misses exactly one and earns points from a filter or words;
 * - `words`: no constraint, but words of its own: an event matches when it earns points from them;
 * - `everything`: neither; every event matches, ordered by what ranks.
 * The country asked is a constraint too: events elsewhere are near misses from their own shards.
 */
export type Mode = 'constraints' | 'words' | 'everything';

/** How many near misses an answer shows at most (fewer when the page is nearly full of matches). */
export const ALTERNATIVES_SHOWN = 10;

/** A query as one shard ranks it. */
export interface ShardQuery {
  shard: CountryShard;
  q: PreparedQuery;
  /** Upcoming and passing the parameters' filters (and an open call for papers, when asked). */
  accept: (slot: number) => boolean;
  /** The query's scratch over the shard, taken on first use and held until the plan is released (plan.ts). */
  readonly search: ShardSearch;
}

/** What a query asks, worked out once per ranking. */
export interface Asked {
  mode: Mode;
  /** The constraints asked, the country's aside (a shard meets it or not as a whole). */
  constraints: readonly NamedConstraint[];
  /** The facets asked, and those whose candidates hold every event that matches or nearly matches. */
  facets: readonly Facet<unknown>[];
  searched: readonly Facet<unknown>[];
}

export function askedOf(q: PreparedQuery): Asked {
  const facets = FACETS.filter((f) => f.asks(q).length > 0);
  const constraints = CONSTRAINTS.filter((c) => c.name !== 'country' && c.asked(q));
  const words = facets.filter((f) => f.role === 'words');
  const mode: Mode = constraints.length > 0 ? 'constraints' : words.length > 0 ? 'words' : 'everything';
  const searched = mode === 'constraints' ? facets.filter((f) => f.role !== 'rank') : words;
  return { mode, constraints, facets, searched };
}

/** Whether the query asks anything of any facet: else it is a listing, in start order. */
export const asksAnything = (asked: Asked) => asked.facets.length > 0;

/** The event meets every constraint; MISSES_MORE: it misses two or more; otherwise the index of the one it misses. */
export const MEETS_ALL = -1;
export const MISSES_MORE = -2;

/**
 * MEETS_ALL, the index of the one constraint missed, or MISSES_MORE: the constraints checked in `order` (the most
 * selective first, where the caller knows it), stopping at the second miss — or at the first, when near misses are
 * not wanted.
 */
function missedConstraint(
  shard: CountryShard,
  slot: number,
  q: PreparedQuery,
  constraints: readonly NamedConstraint[],
  order: readonly number[] | undefined,
  nearToo: boolean,
): number {
  let missed = MEETS_ALL;
  for (let k = 0; k < constraints.length; k++) {
    const i = order ? order[k]! : k;
    if (constraints[i]!.meets(shard, slot, q)) continue;
    if (missed !== MEETS_ALL || !nearToo) return MISSES_MORE;
    missed = i;
  }
  return missed;
}

/** The event's score: the points of every facet asked. */
export function scoreOf(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): number {
  let total = 0;
  // Indexed loops, as in scoresAny (ranking/facet.ts): the allocation that most brought on young collections at 100k.
  const { facets } = asked;
  for (let f = 0; f < facets.length; f++) {
    const facet = facets[f]!;
    const items = facet.asks(q);
    for (let i = 0; i < items.length; i++) total += facet.score(shard, slot, items[i], q);
  }
  return total;
}

/** Whether the event earns points from a filter or the prompt's words (a near miss must). */
function earns(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): boolean {
  return scoresAny(asked.searched, shard, slot, q);
}

/**
 * An event the prompt names by its title ("IT-Tage") is a match whatever the title's words imply (a kind, a subject,
 * a place), so long as it is in the window asked: no window can be read from a title, years aside.
 */
export function namedMatch(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): boolean {
  if (q.titleWords.length === 0 || !titled(shard, slot, q.titleWords)) return false;
  return asked.constraints.every((c) => c.name !== 'window' || c.meets(shard, slot, q));
}

/** By the constraints asked: a match meets every one; a near miss misses one and earns points from what was asked. */
function byConstraints(
  shard: CountryShard,
  slot: number,
  q: PreparedQuery,
  asked: Asked,
  order?: readonly number[],
  nearToo = true,
): number {
  const missed = missedConstraint(shard, slot, q, asked.constraints, order, nearToo);
  return missed >= 0 && !earns(shard, slot, q, asked) ? MISSES_MORE : missed;
}

/** MEETS_ALL, the index of the one constraint missed (a near miss), or MISSES_MORE. */
export function classify(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): number {
  if (asked.mode === 'everything' || namedMatch(shard, slot, q, asked)) return MEETS_ALL;
  if (asked.mode === 'words') return earns(shard, slot, q, asked) ? MEETS_ALL : MISSES_MORE;
  return byConstraints(shard, slot, q, asked);
}

/** A shard's matches and near misses (accepted slots), their scores in `score`. */
export interface ShardRanking {
  shard: CountryShard;
  /** The score of each slot ranked, by slot: the query's ShardSearch's, read while its plan holds it. */
  score: ArrayLike<number>;
  matches: number[];
  near: number[];
  /** For each near miss, the index in `Asked.constraints` of the constraint it misses. */
  missed: number[];
  /**
   * The parts of the country (see index/changes.ts) holding every event that could change this ranking when written;
   * undefined: the whole country.
   */
  parts?: readonly string[] | undefined;
}

/** Classifies and scores one slot into `out`: a match, a near miss (when asked for) or nothing. */
function considerer(sq: ShardQuery, asked: Asked, nearToo: boolean, out: ShardRanking) {
  const { shard, q, accept } = sq;
  const { score } = sq.search;
  return (slot: number) => {
    if (!accept(slot)) return;
    const how = classify(shard, slot, q, asked);
    if (how === MISSES_MORE || (how >= 0 && !nearToo)) return;
    score[slot] = scoreOf(shard, slot, q, asked);
    if (how === MEETS_ALL) out.matches.push(slot);
    else {
      out.near.push(slot);
      out.missed.push(how);
    }
  };
}

/**
 * Visits the candidates of what decides the match (every event for `everything`), classifying and scoring each once:
 * with two constraints or more, those of the most selective ones (see bySelectivity); else the facets searched.
 */
export function rankShard(sq: ShardQuery, asked: Asked, nearToo: boolean, limit = Infinity): ShardRanking {
  if (asked.mode === 'everything') return rankShardByScan(sq, asked, nearToo);
  if (asked.constraints.length >= 2) return bySelectivity(sq, asked, nearToo, limit);
  const { shard, q, search } = sq;
  const out = rankingOf(sq);
  const consider = considerer(sq, asked, nearToo, out);
  // Candidates may visit a slot more than once (a field and its neighbour's, a topic and the full text).
  const epoch = search.nextEpoch();
  const { stamp } = search;
  const once = (slot: number) => {
    if (stamp[slot] === epoch) return;
    stamp[slot] = epoch;
    consider(slot);
  };
  // The events named by their title, whichever facets they earn from.
  if (q.titleWords.length > 0) visitPhrase(shard, q.titleWords, once);
  for (const facet of asked.searched) {
    for (const a of facet.asks(q)) {
      facet.candidates!(shard, a, q, once);
    }
  }
  return out;
}

/**
 * A match meets every constraint and a near miss all but one, and a constraint's lists hold every event meeting it.
 * Each constraint's lists are set as bits in a bitset of its own (Constraint.fill: a word at a time from the shard's
 * bits of few-valued lists, else from the lists), and the bitsets are combined a word at a time (index/slot-bits.ts,
 * `tallyLanes`): only events on every list can match and only those on all but one can be near misses, so only
 * those are checked against each constraint, the most selective first, and dropped at their second miss; matches
 * first, near misses while wanted. Only what is left is scored.
 */
function bySelectivity(sq: ShardQuery, asked: Asked, nearToo: boolean, limit: number): ShardRanking {
  const { shard, q, accept, search } = sq;
  const { score } = search;
  const { constraints } = asked;
  const counts = constraints.map((c) => candidateCount(c.facets, shard, q));
  const order = constraints.map((_c, i) => i).sort((a, b) => counts[a]! - counts[b]!);
  const out = rankingOf(sq);
  // The events named by their title match though they may be on no constraint's lists: taken first, and once.
  const named = new Set<number>();
  if (q.titleWords.length > 0) {
    visitPhrase(shard, q.titleWords, (slot) => {
      if (!accept(slot) || !namedMatch(shard, slot, q, asked)) return;
      named.add(slot);
      score[slot] = scoreOf(shard, slot, q, asked);
      out.matches.push(slot);
    });
  }
  // As classify, the events named by their title aside (taken above).
  const check = (slot: number) => {
    if (!accept(slot) || named.has(slot)) return;
    const missed = byConstraints(shard, slot, q, asked, order, nearToo);
    if (missed === MISSES_MORE) return;
    score[slot] = scoreOf(shard, slot, q, asked);
    if (missed === MEETS_ALL) out.matches.push(slot);
    else {
      out.near.push(slot);
      out.missed.push(missed);
    }
  };
  // A bitset a constraint, and two for what they hold together (each constraint's own is read again below).
  const lanes = search.lanes.take(constraints.length + 2, shard.slots);
  const [inAll, allButOne] = lanes.splice(constraints.length, 2) as [Uint32Array, Uint32Array];
  for (let i = 0; i < constraints.length; i++) constraints[i]!.fill(shard, q, lanes[i]!);
  tallyLanes(lanes, inAll, allButOne);
  forEachSlot(inAll, check);
  const nearSought = nearToo && out.matches.length < limit;
  if (nearSought && out.matches.length === 0) forEachSlot(allButOne, check);
  else if (nearSought) {
    // Matches here: the answer says nothing of how to widen it, so only near misses it can show are needed.
    nearestFirst(
      sq,
      constraints,
      (i) => forEachSlot(allButOne, check, lanes[i]),
      out,
      Math.min(ALTERNATIVES_SHOWN, limit),
    );
  }
  // A match is on the smallest constraint's lists, a near miss on them or the next's: an event on neither, before
  // and after a write, is neither. Full-text points are relative to the whole country's statistics.
  if (q.text.length === 0) {
    out.parts = partsHolding(
      (nearSought ? order.slice(0, 2) : order.slice(0, 1)).flatMap((i) => constraints[i]!.facets),
      shard,
      q,
    );
    // An event named by its title is on none of them.
    if (out.parts && q.titleWords.length > 0) out.parts = [...out.parts, PART.title(q.titleWords)];
  }
  return out;
}

/**
 * Looks for near misses by the constraint they miss (`missing(i)` checks the events on every list but constraint i's),
 * those that can come nearest first (NEARNESS: another kind, date, format, price or audience; a related subject; the
 * subject elsewhere), and stops once `room` have been found nearer than any left could come: a page shows at most
 * `room`, the nearest first, so the rest could not be shown.
 */
function nearestFirst(
  sq: ShardQuery,
  constraints: readonly NamedConstraint[],
  missing: (i: number) => void,
  out: ShardRanking,
  room: number,
): void {
  const byNearest = constraints.map((_c, i) => i).sort((a, b) => constraints[b]!.nearest - constraints[a]!.nearest);
  for (let k = 0; k < byNearest.length; k++) {
    missing(byNearest[k]!);
    const next = byNearest[k + 1];
    if (next === undefined) return;
    // Found so far (here and among the matches' lists), nearer than any near miss of the constraints left.
    const bound = constraints[next]!.nearest;
    let nearer = 0;
    for (let n = 0; n < out.near.length; n++) {
      const c = constraints[out.missed[n]!]!;
      if (c.nearest > bound && c.nearness(sq.shard, out.near[n]!, sq.q) > bound) nearer++;
    }
    if (nearer >= room) return;
  }
}

/** The same by scanning every event: the reference the candidates must agree with (test/engine-postings.test.ts). */
export function rankShardByScan(sq: ShardQuery, asked: Asked, nearToo: boolean): ShardRanking {
  const out = rankingOf(sq);
  const consider = considerer(sq, asked, nearToo, out);
  const { items, length } = sq.shard.order;
  for (let i = 0; i < length; i++) consider(items[i]!);
  return out;
}

/** An empty ranking of a shard, scored in the query's search. */
export function rankingOf(sq: ShardQuery): ShardRanking {
  return { shard: sq.shard, score: sq.search.score, matches: [], near: [], missed: [] };
}

/** The best `limit` of a ranking's `slots` that `keep` lets through, best first: a sorted window, no sort of them all. */
export function best(
  ranking: Pick<ShardRanking, 'shard' | 'score'>,
  slots: readonly number[],
  limit: number,
  keep: (slot: number) => boolean,
) {
  const { shard, score } = ranking;
  // Whether slot `a` ranks before slot `b` (see ranking/order.ts).
  const ranksBefore = (a: number, b: number) => compareSlots(shard, a, score[a]!, shard, b, score[b]!) < 0;
  const top: number[] = [];
  for (const slot of slots) {
    if (!keep(slot)) continue;
    if (top.length === limit && !ranksBefore(slot, top[limit - 1]!)) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ranksBefore(top[mid]!, slot)) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, slot);
    if (top.length > limit) top.pop();
  }
  return top;
}
