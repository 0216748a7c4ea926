import type { Phrase } from '../../catalogue/words.js';
import type { CountryShard } from '../index/country-shard.js';
import type { Facet, NearMiss, PreparedQuery } from './facet.js';
import { NEARNESS } from './weights.js';

/**
 * The constraints a prompt can state: what states each (the facets naming it in the facet table, facets.ts, or the
 * country searched), whether an event meets it, and — from the table's near-miss column — how an event that misses
 * it differs and how near it comes. An event is listed when it meets every constraint asked, it is a near miss
 * (`alternatives`) when it misses exactly one, and an empty answer says which constraint to drop to find what. How
 * each is said is the restatement's (query/restate.ts, `constraintPart`).
 */
export interface Constraint<Name extends string = string> {
  /** Its name (facets.ts, ConstraintName), as the facets stating it name it and near misses say which one they miss. */
  name: Name;
  /** The facets that state it (none for the country, which a shard meets or not as a whole). */
  facets: readonly Facet<unknown>[];
  /** Whether the query asks it. */
  asked(q: PreparedQuery): boolean;
  /** Whether the event at a slot meets it. */
  meets(shard: CountryShard, slot: number, q: PreparedQuery): boolean;
  /** Sets in `bits` the bit of every slot its facets' candidates visit (a superset of the events meeting it). */
  fill(shard: CountryShard, q: PreparedQuery, bits: Uint32Array): void;
  /** How near an event missing it comes (NEARNESS, facets.ts). */
  nearness(shard: CountryShard, slot: number, q: PreparedQuery): number;
  /** The nearest any event missing it can come. */
  nearest: number;
  /** How an event missing it differs, in plain words. */
  differs: NearMiss['differs'];
  /**
   * How a query asking it says so (query/restate.ts puts it in the sentence's order); the country has none, as the
   * restatement says the country searched, asked or not.
   */
  restates?(q: PreparedQuery): Phrase;
}

/** A near miss's nearness and words, as a constraint gives them. */
export function toldAs({ nearness, upTo, differs }: NearMiss): Pick<Constraint, 'nearness' | 'nearest' | 'differs'> {
  if (typeof nearness === 'number') return { nearness: () => nearness, nearest: nearness, differs };
  return { nearness, nearest: upTo ?? NEARNESS.otherWay, differs };
}

/** Sets in `bits` the candidates of every item the facets ask. */
function fillAny(facets: readonly Facet<unknown>[], shard: CountryShard, q: PreparedQuery, bits: Uint32Array) {
  for (const facet of facets) for (const a of facet.asks(q)) facet.fill!(shard, a, q, bits);
}

/** Whether the event at a slot meets any item any of the facets asks (a constraint of several values is met by one). */
export function meetsAny(facets: readonly Facet<unknown>[], shard: CountryShard, slot: number, q: PreparedQuery) {
  // Indexed, as it runs per slot (see scoresAny in facet.ts).
  for (let f = 0; f < facets.length; f++) {
    const facet = facets[f]!;
    const items = facet.asks(q);
    for (let i = 0; i < items.length; i++) {
      const a = items[i];
      if (facet.meets ? facet.meets(shard, slot, a, q) : facet.score(shard, slot, a, q) > 0) return true;
    }
  }
  return false;
}

/**
 * A constraint stated by facets (those naming it in the facet table): asked when one of them asks, met when one is
 * met, told as a near miss as they say (one way for all of them).
 */
export function byFacets(
  table: readonly Facet<unknown>[],
  name: string,
): Pick<Constraint, 'facets' | 'asked' | 'meets' | 'fill' | 'nearness' | 'nearest' | 'differs'> {
  const facets = table.filter((f) => f.constraint === name);
  const nearMiss = facets[0]?.nearMiss;
  if (!nearMiss || facets.some((f) => f.nearMiss !== nearMiss))
    throw new Error(`the facets stating ${name} must say one way how a near miss of it differs`);
  if (facets.some((f) => !f.fill || !f.candidates))
    throw new Error(`the facets stating ${name} must give their candidates, as a walk and as bits`);
  return {
    facets,
    asked: (q) => facets.some((f) => f.asks(q).length > 0),
    meets: (shard, slot, q) => meetsAny(facets, shard, slot, q),
    fill: (shard, q, bits) => fillAny(facets, shard, q, bits),
    ...toldAs(nearMiss),
  };
}

/** Every constraint a facet states is one of the table's (a misspelt name fails at load). */
export function everyStated(facets: readonly Facet<unknown>[], names: readonly string[]): void {
  for (const facet of facets)
    if (facet.constraint && !names.includes(facet.constraint))
      throw new Error(`the facet ${facet.name} states ${facet.constraint}, which the constraint table does not hold`);
}
