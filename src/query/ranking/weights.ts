import { points } from './points.js';

/**
 * The weights of the facet table (facets.ts): how much each kind of evidence counts, each with its reason, and how
 * near each kind of near miss comes. docs/ranking.md explains the choices.
 */

/**
 * How much each kind of evidence weighs. Every event listed meets every constraint, so the weights order what meets
 * them, and the near misses among themselves; the specific outranks the general.
 */
export const WEIGHT = {
  // A technology: as typed in a title or organizer, another name of it ("JCON" for "Java"), a part of it
  // ("Spring Boot"), named in the description.
  typed: 6,
  same: 5.5,
  part: 5,
  described: 3,
  // Weaker, ordering near misses only: a wider technology in the title, its field named as a whole, a field
  // neighbouring one asked.
  wider: 2,
  widerField: 1.5,
  neighbour: 0.5,
  // The prompt of two or more words found as typed in a name: a series or group by its name.
  phrase: 3,
  // The place named, falling with distance to 45 km: a place asked for weighs more than a field.
  place: 4,
  // A field named in general words; a little more when the title names the field, or a part of it.
  field: 3,
  fieldTitle: 0.5,
  fieldTitlePart: 0.25,
  // Full-text words the lexicon does not know: at most this, scaled by the best BM25 of the prompt.
  text: 3,
  // Equal for all that meet them, so they order near misses: a window and founders (half when only the description
  // mentions them) count most, a kind least.
  window: 4,
  founders: 3,
  format: 2,
  price: 2,
  seniority: 2,
  kind: 1,
  // Only ordering: the field a specific word implies (nothing for a neighbouring technology: PyCon for "Java"), a
  // general tech event, where the person is (in their city, falling to half at 45 km; what is worth the trip).
  implied: 1,
  general: 1,
  home: 2,
  reach: 0.5,
  // A language wished for outweighs every other difference between events meeting the same constraints.
  language: 20,
  // The event the prompt names by its title ("IT-Tage") comes before everything else the prompt's words find.
  titled: 100,
} as const;

/** The fixed weights in points (see points.ts). */
export const POINTS = Object.fromEntries(Object.entries(WEIGHT).map(([k, w]) => [k, points(w)])) as {
  readonly [K in keyof typeof WEIGHT]: number;
};

/**
 * How near a near miss comes to what was asked, before its points order it among those as near: what the person
 * asked about, at the place asked, only another kind, date, format, price or audience, first; then a related subject
 * at the place; then the subject asked, elsewhere; last another subject at the place.
 */
export const NEARNESS = { otherWay: 3, relatedSubject: 2, elsewhere: 1, otherSubject: 0 } as const;

/** The points of each Strength of a technology's evidence (evidence.ts), weakest first. */
export const STRENGTH_POINTS = [
  0,
  POINTS.widerField,
  POINTS.wider,
  POINTS.described,
  POINTS.part,
  POINTS.same,
  POINTS.typed,
] as const;
/** A hybrid event counts three quarters of the format asked for. */
export const HYBRID_POINTS = points(WEIGHT.format * 0.75);
/** The points of a founder fit of 0, 1 and 2. */
export const FOUNDER_POINTS = [0, points(WEIGHT.founders / 2), POINTS.founders] as const;
