/**
 * Scores are counted in whole points, a thousandth of a weight each: a facet's score is `points(weight)`, and the
 * fixed weights are in POINTS (facets.ts). Whole numbers add up exactly in any order, so scoring over posting lists
 * and the reference scan agree to the last point however they reach a sum. A thousandth is finer than any difference the weights mean: 45 km of distance spans 1,500 points.
 */
export const POINTS_PER_WEIGHT = 1000;

/** A weight in points (see POINTS_PER_WEIGHT), rounded to the nearest one. */
export function points(weight: number): number {
  return Math.round(weight * POINTS_PER_WEIGHT);
}
