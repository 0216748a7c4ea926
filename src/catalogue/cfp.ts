import { DateTime } from 'luxon';
import { COUNTRY_INFO } from '../places/countries.js';
import type { CatalogueEvent } from './event.js';

/** An event's call for papers as shown: the link and the deadline as given (date or date-time). */
export interface CallForPapers {
  url: string | null;
  until: string | null;
}

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function callForPapers(event: Pick<CatalogueEvent, 'cfpUrl' | 'cfpUntil'>): CallForPapers | null {
  return event.cfpUrl || event.cfpUntil ? { url: event.cfpUrl, until: event.cfpUntil } : null;
}

/** Whether a deadline is a whole day (a plain date) rather than a moment. */
export function isWholeDay(until: string): boolean {
  return PLAIN_DATE.test(until);
}

/**
 * When an event's call for papers closes, in epoch ms: a plain-date deadline at the end of that day in the event's
 * country, a date-time at that moment; with a link and no deadline, when the event starts. NaN without a call.
 */
export function cfpClosesAt(event: Pick<CatalogueEvent, 'cfpUrl' | 'cfpUntil' | 'country' | 'start'>): number {
  if (event.cfpUntil) {
    const zone = COUNTRY_INFO[event.country].timeZone;
    const until = isWholeDay(event.cfpUntil)
      ? DateTime.fromISO(event.cfpUntil, { zone }).plus({ days: 1 }).startOf('day')
      : DateTime.fromISO(event.cfpUntil, { setZone: true });
    return until.isValid ? until.toMillis() : Number.NaN;
  }
  return event.cfpUrl ? event.start.getTime() : Number.NaN;
}
