import type { CatalogueEvent } from './event.js';

/**
 * How many people are expected, for the `Crowd` column, from data only: the host's capacity (about 85 % of the places
 * are typically taken up) floored by the registrations recorded through RSVP. Without either nothing is known, and
 * the column stays empty rather than showing a guess. Rounded to a readable figure, never below 5.
 */
export function expectedCrowd(event: Pick<CatalogueEvent, 'capacity'>, registrations = 0): number | undefined {
  const estimate = Math.max(event.capacity ? event.capacity * 0.85 : 0, registrations);
  return estimate > 0 ? roundCrowd(estimate) : undefined;
}

function roundCrowd(n: number): number {
  if (n < 20) return Math.max(5, Math.round(n));
  if (n < 100) return Math.round(n / 5) * 5;
  if (n < 1000) return Math.round(n / 10) * 10;
  return Math.round(n / 100) * 100;
}
