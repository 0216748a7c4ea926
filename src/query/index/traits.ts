import { EVENT_KINDS, SENIORITIES, TOPIC_SLUGS } from '../../catalogue/taxonomy.js';

/**
 * Bits of the per-slot columns of topics (the taxonomy's fields) and traits (kinds, seniority, price): checking one
 * of these for thousands of candidates reads a number, not the event.
 */
export const TOPIC_BIT: ReadonlyMap<string, number> = new Map(TOPIC_SLUGS.map((slug, i) => [slug, 2 ** i]));
const bits = (values: readonly string[], from: number) =>
  Object.assign(Object.create(null), Object.fromEntries(values.map((v, i) => [v, 2 ** (from + i)]))) as Record<
    string,
    number
  >;
export const TRAIT = {
  kind: bits(EVENT_KINDS, 0),
  seniority: bits(SENIORITIES, EVENT_KINDS.length),
  price: bits(['free', 'paid'], EVENT_KINDS.length + SENIORITIES.length),
};

export function bitsOf(
  table: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  keys: Iterable<string>,
): number {
  let n = 0;
  const map = table instanceof Map ? (table as ReadonlyMap<string, number>) : undefined;
  const record = table as Readonly<Record<string, number>>;
  for (const key of keys) n |= (map ? map.get(key) : record[key]) ?? 0;
  return n;
}
