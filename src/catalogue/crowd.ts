import type { CatalogueEvent } from './event.js';
import type { EventKind } from './taxonomy.js';

/**
 * How many people are expected, for the `Crowd` column. In order of evidence:
 * 1. registrations recorded through RSVP (a floor: at least that many),
 * 2. the host's capacity, of which about 85 % typically show up,
 * 3. else a prior by kind and format: conferences ~300 (~500 when they run over several days), hackathons ~80,
 *    meetups ~40, workshops ~20, online sessions ~60, anything else ~50.
 * Rounded to a readable figure, never below 5.
 */
export function expectedCrowd(
  event: Pick<CatalogueEvent, 'capacity' | 'format' | 'start' | 'end'>,
  kinds: ReadonlySet<EventKind>,
  registrations = 0,
): number {
  let estimate: number;
  if (event.capacity) estimate = event.capacity * 0.85;
  else if (kinds.has('conference')) {
    const days = event.end ? (event.end.getTime() - event.start.getTime()) / 86_400_000 : 1;
    estimate = days > 1.5 ? 500 : 300;
  } else if (kinds.has('hackathon')) estimate = 80;
  else if (kinds.has('meetup')) estimate = 40;
  else if (kinds.has('workshop')) estimate = 20;
  else if (event.format === 'online') estimate = 60;
  else estimate = 50;
  return roundCrowd(Math.max(estimate, registrations));
}

function roundCrowd(n: number): number {
  if (n < 20) return Math.max(5, Math.round(n));
  if (n < 100) return Math.round(n / 5) * 5;
  if (n < 1000) return Math.round(n / 10) * 10;
  return Math.round(n / 100) * 100;
}
