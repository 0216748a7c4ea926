import { COUNTRIES, type Country } from '../places/countries.js';
import type { CountryShard } from './index/country-shard.js';
import type { SearchParams } from './params.js';
import { type Plan, rankIn } from './plan.js';
import { ALTERNATIVES_SHOWN, best, type ShardRanking } from './rank-shard.js';
import type { PreparedQuery } from './ranking/facet.js';
import { CONSTRAINTS, type ConstraintName, type NamedConstraint } from './ranking/facets.js';
import { compareSlots } from './ranking/order.js';
import { NEARNESS } from './ranking/weights.js';

/**
 * Near misses: shown apart when fewer events match than asked, those missing exactly one constraint, the nearest first
 * (NEARNESS, ranking/weights.ts), then by points, with what differs; for an empty answer, how many dropping each constraint
 * would find.
 */

export { ALTERNATIVES_SHOWN };

/** How many events dropping one constraint would find (said by an empty answer). */
export interface Widening {
  constraint: ConstraintName;
  total: number;
  /** For a place or country dropped: the other country holding those events, and the prompt to ask there (widen.ts). */
  follow?: { country: Country; q: string };
}

/** A slot of some shard and its score, as the best of several shards are merged. */
export interface Found {
  shard: CountryShard;
  slot: number;
  score: number;
  q: PreparedQuery;
  /** For a near miss, the constraint missed and how near it comes (NEARNESS). */
  missed?: number | 'country';
  nearness?: number;
}

export function before(a: Found, b: Found): number {
  const na = a.nearness ?? 0;
  const nb = b.nearness ?? 0;
  if (na !== nb) return nb - na;
  return compareSlots(a.shard, a.slot, a.score, b.shard, b.slot, b.score);
}

/** The first `n` of several shards' own best lists, merged. */
export function merged(lists: Found[][], n: number): Found[] {
  return lists.flat().sort(before).slice(0, n);
}

/**
 * A prompt's first page with room left, or an empty listing (then other countries' next events show). A short
 * listing shows its own country alone, else every country's would come with the others'.
 */
export function wantsAlternatives(p: Plan, total: number, limit: number): boolean {
  return total < limit && (p.order === 'prompt' || total === 0);
}

/** Each country's best near misses (`lists`) and counts per constraint (`widen`); other countries' rankings join `read`. */
export function nearMisses(p: Plan, rankings: ShardRanking[], params: SearchParams, read: ShardRanking[]) {
  const { searched } = p;
  const room = Math.min(ALTERNATIVES_SHOWN, params.limit);
  const lists: Found[][] = [];
  const counts = new Map<number | 'country', number>();
  rankings.forEach((r, i) => {
    for (const m of r.missed) counts.set(m, (counts.get(m) ?? 0) + 1);
    lists.push(nearest(p, r, searched[i]!.q, r.near, r.missed, room));
  });
  for (const r of elsewhere(p, false)) {
    read.push(r);
    counts.set('country', (counts.get('country') ?? 0) + r.matches.length);
    lists.push(nearest(p, r, p.queryFor(r.shard.country).q, r.matches, 'country', room));
  }
  const widen: Widening[] = [];
  for (const [missed, total] of counts) {
    const constraint = constraintOf(p, missed);
    if (total > 0) widen.push({ constraint: constraint.name, total });
  }
  return { lists, widen: widen.sort(byTotal) };
}

/** Most found first; alike, in the order of CONSTRAINTS (not the order events happened to be visited in). */
export function byTotal(a: Pick<Widening, 'constraint' | 'total'>, b: Pick<Widening, 'constraint' | 'total'>): number {
  if (a.total !== b.total) return b.total - a.total;
  return CONSTRAINT_ORDER.indexOf(a.constraint) - CONSTRAINT_ORDER.indexOf(b.constraint);
}
const CONSTRAINT_ORDER = CONSTRAINTS.map((c) => c.name);

const COUNTRY = CONSTRAINTS.find((c) => c.name === 'country')!;
const constraintOf = (p: Plan, missed: number | 'country'): NamedConstraint =>
  missed === 'country' ? COUNTRY : p.asked.constraints[missed]!;

/** A near miss of one shard's ranking: the constraint it misses and how near it comes. */
export function nearMiss(p: Plan, r: ShardRanking, slot: number, q: PreparedQuery, missed: number | 'country'): Found {
  const { shard } = r;
  return { shard, slot, score: r.score[slot]!, q, missed, nearness: constraintOf(p, missed).nearness(shard, slot, q) };
}

/** The nearest `n` of one shard's near misses (`missed`: the constraint each misses), best first. */
function nearest(
  p: Plan,
  r: ShardRanking,
  q: PreparedQuery,
  slots: readonly number[],
  missed: readonly number[] | 'country',
  n: number,
): Found[] {
  const { shard } = r;
  const missedAt = (k: number) => (missed === 'country' ? 'country' : missed[k]!);
  // Indices into `slots` by nearness (0 to NEARNESS.otherWay), then the best by points of each, the nearest first,
  // until `n` are found.
  const byNearness = Array.from({ length: NEARNESS.otherWay + 1 }, (): number[] => []);
  slots.forEach((slot, k) => {
    byNearness[constraintOf(p, missedAt(k)).nearness(shard, slot, q)]!.push(k);
  });
  const out: Found[] = [];
  for (let nearness = byNearness.length - 1; nearness >= 0 && out.length < n; nearness--) {
    const level = byNearness[nearness]!;
    // Each near miss is in `slots` once; the constraint a chosen one misses is found among the level's indices for
    // the few chosen, rather than a map made of the thousands a level may hold at 100k.
    const chosen = best(
      r,
      level.map((k) => slots[k]!),
      n - out.length,
      () => true,
    );
    for (const slot of chosen) {
      const score = r.score[slot]!;
      out.push({ shard, slot, score, q, missed: missedAt(level.find((k) => slots[k] === slot)!), nearness });
    }
  }
  return out;
}

/** Matches in other countries when the country is a constraint: near misses, less near than those at home. */
export function elsewhere(p: Plan, byScan: boolean): ShardRanking[] {
  const country = p.searched[0]!.q.country;
  if (country === undefined) return [];
  return COUNTRIES.filter((c) => c !== country).map((c) => rankIn(p, p.queryFor(c), false, byScan));
}
