import { placeText } from '../catalogue/address.js';
import type { CatalogueEvent } from '../catalogue/event.js';
import { COUNTRY_INFO } from '../places/countries.js';
import { localTime } from '../places/zones.js';
import { RecentMemo } from '../runtime/recent-memo.js';

/**
 * When an event happens, in its country's time zone: "Thu 3 Dec 2026 · 18:30", all-day events
 * "Mon 3 Mar 2025 · Full day" (no invented clock time), and the span of multi-day events
 * ("…, until Fri 7 Mar").
 */
type When = Pick<CatalogueEvent, 'start' | 'end' | 'allDay' | 'country'>;

const whenTexts = new RecentMemo<When, string>(20_000);

export function formatWhen(event: When): string {
  // Events are immutable objects per revision, and time-zone arithmetic is dear: format each once.
  return whenTexts.get(event, computeWhen);
}

function computeWhen(event: When): string {
  const zone = COUNTRY_INFO[event.country].timeZone;
  const start = localTime(event.start, zone);
  let text = `${start.toFormat('ccc d LLL yyyy')} · ${event.allDay ? 'Full day' : start.toFormat('HH:mm')}`;
  if (event.end) {
    // All-day ends are exclusive midnights: the last day is the one before.
    const last = localTime(event.end, zone).minus(event.allDay ? { days: 1 } : { milliseconds: 1 });
    if (last.startOf('day') > start.startOf('day')) {
      text += `, until ${last.toFormat(last.year === start.year ? 'ccc d LLL' : 'ccc d LLL yyyy')}`;
    }
  }
  return text;
}

/** A generation date like "21 Aug 2026", in the country's zone. */
export function formatDate(date: Date, zone: string): string {
  return localTime(date, zone).toFormat('d LLL yyyy');
}

export function whereOf(event: Pick<CatalogueEvent, 'venue' | 'city' | 'format'>): string {
  if (event.format === 'online') return 'Online';
  const place = placeText(event.venue, event.city) || 'To be announced';
  return event.format === 'hybrid' ? `${place} · also online` : place;
}
