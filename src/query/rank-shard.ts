import type { CountryShard } from './index/country-shard.js';
import { CONSTRAINTS, type Constraint } from './ranking/constraints.js';
import type { Facet, PreparedQuery } from './ranking/facet.js';
import { FACETS } from './ranking/facets.js';
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
}

/** What a query asks, worked out once per ranking. */
export interface Asked {
  mode: Mode;
  /** The constraints asked, the country's aside (a shard meets it or not as a whole). */
  constraints: readonly Constraint[];
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

export function missedConstraint(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): number {
  let missed = MEETS_ALL;
  for (let i = 0; i < asked.constraints.length; i++) {
    if (asked.constraints[i]!.meets(shard, slot, q)) continue;
    if (missed !== MEETS_ALL) return MISSES_MORE;
    missed = i;
  }
  return missed;
}

/** The event's score: the points of every facet asked. */
export function scoreOf(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): number {
  let total = 0;
  for (const facet of asked.facets) for (const a of facet.asks(q)) total += facet.score(shard, slot, a, q);
  return total;
}

/** Whether the event earns points from a filter or the prompt's words (a near miss must). */
function earns(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): boolean {
  for (const facet of asked.searched)
    for (const a of facet.asks(q)) if (facet.score(shard, slot, a, q) > 0) return true;
  return false;
}

/** MEETS_ALL, the index of the one constraint missed (a near miss), or MISSES_MORE. */
export function classify(shard: CountryShard, slot: number, q: PreparedQuery, asked: Asked): number {
  if (asked.mode === 'everything') return MEETS_ALL;
  if (asked.mode === 'words') return earns(shard, slot, q, asked) ? MEETS_ALL : MISSES_MORE;
  const missed = missedConstraint(shard, slot, q, asked);
  return missed >= 0 && !earns(shard, slot, q, asked) ? MISSES_MORE : missed;
}

/** A shard's matches and near misses (accepted slots), their scores in `shard.score`. */
export interface ShardRanking {
  shard: CountryShard;
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
  return (slot: number) => {
    if (!accept(slot)) return;
    const how = classify(shard, slot, q, asked);
    if (how === MISSES_MORE || (how >= 0 && !nearToo)) return;
    shard.score[slot] = scoreOf(shard, slot, q, asked);
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
  const { shard, q } = sq;
  const out: ShardRanking = { shard, matches: [], near: [], missed: [] };
  const consider = considerer(sq, asked, nearToo, out);
  const { stamp } = shard;
  const epoch = shard.nextEpoch();
  for (const facet of asked.searched) {
    for (const a of facet.asks(q)) {
      facet.candidates!(shard, a, q, (slot) => {
        if (stamp[slot] === epoch) return;
        stamp[slot] = epoch;
        consider(slot);
      });
    }
  }
  return out;
}

/**
 * A match meets every constraint and a near miss all but one, and a constraint's lists hold every event meeting it:
 * with two constraints or more, only events on the lists of the two smallest can be either. When the lengths of two
 * constraints' lists or more are known, those lists are tallied (see tallied). Otherwise the smallest constraint's
 * lists are walked, and the next's too unless what they would add cannot be shown (see shownWithout); each event
 * reached is checked against every other constraint, the most selective first, and dropped at its second miss. Only
 * what is left is scored.
 */
function bySelectivity(sq: ShardQuery, asked: Asked, nearToo: boolean, limit: number): ShardRanking {
  const { shard, q, accept } = sq;
  const { constraints } = asked;
  const counts = constraints.map((c) => candidateCount(c.facets, shard, q));
  const order = constraints.map((_c, i) => i).sort((a, b) => counts[a]! - counts[b]!);
  // The walked constraint is mostly met by its own candidates: it is checked last.
  const checks = [...order.slice(1), order[0]!];
  const out: ShardRanking = { shard, matches: [], near: [], missed: [] };
  const check = (slot: number) => {
    if (!accept(slot)) return;
    let missed = MEETS_ALL;
    for (const i of checks) {
      if (constraints[i]!.meets(shard, slot, q)) continue;
      if (missed !== MEETS_ALL || !nearToo) return;
      missed = i;
    }
    if (missed >= 0 && !earns(shard, slot, q, asked)) return;
    shard.score[slot] = scoreOf(shard, slot, q, asked);
    if (missed === MEETS_ALL) out.matches.push(slot);
    else {
      out.near.push(slot);
      out.missed.push(missed);
    }
  };
  const walk = (i: number, visit: (slot: number) => void) => {
    for (const facet of constraints[i]!.facets) for (const a of facet.asks(q)) facet.candidates!(shard, a, q, visit);
  };
  const walked = [order[0]!];
  const lists = talliedLists(order, counts);
  if (lists >= 2) {
    if (tallied(shard, order, lists, walk, check, () => nearToo && out.matches.length < limit)) walked.push(order[1]!);
  } else {
    const { stamp } = shard;
    const epoch = shard.nextEpoch();
    const once = (slot: number) => {
      if (stamp[slot] === epoch) return;
      stamp[slot] = epoch;
      check(slot);
    };
    walk(order[0]!, once);
    if (nearToo && !shownWithout(out, constraints, order[0]!, limit)) {
      walk(order[1]!, once);
      walked.push(order[1]!);
    }
  }
  // An event outside the lists walked, before and after a write, is neither a match nor a near miss. Full-text
  // points are relative to the whole country's statistics.
  if (q.text.length === 0)
    out.parts = partsHolding(
      walked.flatMap((i) => constraints[i]!.facets),
      shard,
      q,
    );
  return out;
}

/** How many constraints' lists to tally, the smallest first: all whose length is known (see candidateCount), up to 8. */
function talliedLists(order: readonly number[], counts: readonly number[]): number {
  let n = 0;
  while (n < order.length && n < 8 && Number.isFinite(counts[order[n]!]!)) n++;
  return n;
}

/**
 * Marks which of the smallest constraints' lists hold each event the first two reach, then checks the events in all
 * of them (the only possible matches) and, while near misses are wanted, those in all but one (a near miss misses one
 * constraint): a constraint's lists hold every event meeting it, so no other event can be either. Most of the first
 * two lists is never checked, and marking a slot costs far less than checking it against every constraint. Returns
 * whether near misses were looked for.
 */
function tallied(
  shard: CountryShard,
  order: readonly number[],
  lists: number,
  walk: (i: number, visit: (slot: number) => void) => void,
  check: (slot: number) => void,
  nearWanted: () => boolean,
): boolean {
  const { stamp, tally, touched } = shard;
  const epoch = shard.nextEpoch();
  let reached = 0;
  for (const bit of [1, 2]) {
    walk(order[bit - 1]!, (slot) => {
      if (stamp[slot] === epoch) tally[slot]! |= bit;
      else {
        stamp[slot] = epoch;
        tally[slot] = bit;
        touched[reached++] = slot;
      }
    });
  }
  // An event neither of the first two lists holds misses two constraints: it is not marked.
  for (let i = 2; i < lists; i++) {
    const bit = 1 << i;
    walk(order[i]!, (slot) => {
      if (stamp[slot] === epoch) tally[slot]! |= bit;
    });
  }
  for (let t = 0; t < reached; t++) {
    const slot = touched[t]!;
    if (BITS_SET[tally[slot]!] === lists) check(slot);
  }
  if (!nearWanted()) return false;
  for (let t = 0; t < reached; t++) {
    const slot = touched[t]!;
    if (BITS_SET[tally[slot]!] === lists - 1) check(slot);
  }
  return true;
}

/** How many bits each byte sets. */
const BITS_SET = Uint8Array.from({ length: 256 }, (_, n) => {
  let bits = 0;
  for (let m = n; m > 0; m >>= 1) bits += m & 1;
  return bits;
});

/**
 * Whether the near misses missing constraint `first` (those only the next constraint's lists hold) cannot change a
 * first page of `limit`: its matches fill it, or it has matches (nothing to widen) and enough near misses nearer
 * than any missing `first` (NEARNESS in the facet table: another date, kind, format, price or audience comes before
 * another subject or place).
 */
function shownWithout(out: ShardRanking, constraints: readonly Constraint[], first: number, limit: number): boolean {
  if (out.matches.length >= limit) return true;
  if (out.matches.length === 0 || constraints[first]!.alwaysNearest) return false;
  let nearer = 0;
  for (const m of out.missed) if (constraints[m]!.alwaysNearest) nearer++;
  return nearer >= Math.min(ALTERNATIVES_SHOWN, limit);
}

/** The same by scanning every event: the reference the candidates must agree with (test/engine-postings.test.ts). */
export function rankShardByScan(sq: ShardQuery, asked: Asked, nearToo: boolean): ShardRanking {
  const out: ShardRanking = { shard: sq.shard, matches: [], near: [], missed: [] };
  const consider = considerer(sq, asked, nearToo, out);
  const { items, length } = sq.shard.order;
  for (let i = 0; i < length; i++) consider(items[i]!);
  return out;
}

/** Whether slot `a` ranks before slot `b` of the same shard: higher score, then earlier start, then lower id. */
export function ranksBefore(shard: CountryShard, a: number, b: number): boolean {
  const sa = shard.score[a]!;
  const sb = shard.score[b]!;
  if (sa !== sb) return sa > sb;
  const ta = shard.startMs[a]!;
  const tb = shard.startMs[b]!;
  if (ta !== tb) return ta < tb;
  return shard.at(a).event.id < shard.at(b).event.id;
}

/** The best `limit` of `slots` that `keep` lets through, best first: a sorted window, no sort of them all. */
export function best(shard: CountryShard, slots: readonly number[], limit: number, keep: (slot: number) => boolean) {
  const top: number[] = [];
  for (const slot of slots) {
    if (!keep(slot)) continue;
    if (top.length === limit && !ranksBefore(shard, slot, top[limit - 1]!)) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ranksBefore(shard, top[mid]!, slot)) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, slot);
    if (top.length > limit) top.pop();
  }
  return top;
}
