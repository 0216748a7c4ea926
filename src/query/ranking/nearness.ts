import type { CountryShard } from '../index/country-shard.js';
import type { ConstraintName, PreparedQuery } from './facet.js';
import { FACETS } from './facets.js';

/**
 * How near a near miss comes to what was asked, before its points order it among those as near: what the person
 * asked about, at the place asked, only another kind, date, format, price or audience, first; then a related subject
 * at the place (a neighbouring field, the field of the technology asked, a general tech event); then the subject
 * asked, elsewhere; last another subject at the place.
 */
export const NEARNESS = { otherWay: 3, relatedSubject: 2, elsewhere: 1, otherSubject: 0 } as const;

/** What states the subject, and the field a technology implies: what they give an event off the subject is weaker. */
const SUBJECT_EVIDENCE = FACETS.filter((f) => f.constraint === 'subject' || f.name === 'field');

/**
 * Whether an event off the subject asked is still on a related one (see NEARNESS): a wider technology, the field of
 * one asked or a neighbouring field (the facets' own points for them), a general tech event, or a conference: one
 * draws people of many subjects.
 */
function relatedSubject(shard: CountryShard, slot: number, q: PreparedQuery): boolean {
  for (const facet of SUBJECT_EVIDENCE) {
    for (const a of facet.asks(q)) if (facet.score(shard, slot, a, q) > 0) return true;
  }
  const e = shard.at(slot);
  return e.event.topics.includes('general') || e.kinds.has('conference');
}

/** The nearness of an event missing `missed` (one of NEARNESS). */
export function nearnessOf(missed: ConstraintName, shard: CountryShard, slot: number, q: PreparedQuery): number {
  if (missed === 'place' || missed === 'country') return NEARNESS.elsewhere;
  if (missed !== 'subject') return NEARNESS.otherWay;
  return relatedSubject(shard, slot, q) ? NEARNESS.relatedSubject : NEARNESS.otherSubject;
}
