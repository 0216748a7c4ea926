import type { DateTime } from 'luxon';
import { placeText } from '../../catalogue/address.js';
import type { CatalogueEvent } from '../../catalogue/event.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import { localTime } from '../../places/zones.js';

/**
 * "Add to calendar" links for the calendars that take an event by URL (Google, Outlook.com, Microsoft 365); Apple
 * Calendar and everything else take the event's `.ics`. Times are those of the `.ics` (src/render/ical.ts): an event
 * without an end lasts two hours, an all-day one whole days (end exclusive).
 */
export interface CalendarLinks {
  google: string;
  outlook: string;
  office: string;
}

type Linked = Pick<
  CatalogueEvent,
  'title' | 'start' | 'end' | 'allDay' | 'country' | 'venue' | 'city' | 'format' | 'sourceUrl' | 'url'
>;

function span(event: Linked): { start: DateTime; end: DateTime } {
  const zone = COUNTRY_INFO[event.country].timeZone;
  const start = localTime(event.start, zone);
  const end = event.end ? localTime(event.end, zone) : start.plus(event.allDay ? { days: 1 } : { hours: 2 });
  return { start, end };
}

function location(event: Linked): string {
  if (event.format === 'online') return 'Online';
  return placeText(event.venue, event.city);
}

export function calendarLinks(event: Linked, pageUrl: string): CalendarLinks {
  const { start, end } = span(event);
  const details = [event.sourceUrl ?? event.url, pageUrl].filter(Boolean).join('\n');
  const where = location(event);

  // Google: UTC instants, or whole dates (end exclusive) for all-day events.
  const google = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: event.allDay
      ? `${start.toFormat('yyyyLLdd')}/${end.toFormat('yyyyLLdd')}`
      : `${start.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'")}/${end.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'")}`,
    details,
    ...(where ? { location: where } : {}),
    ctz: COUNTRY_INFO[event.country].timeZone,
  });

  // Outlook's compose deep link: ISO times with offset, or dates and allday=true.
  const outlook = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: event.allDay ? start.toISODate()! : start.toISO({ suppressMilliseconds: true })!,
    enddt: event.allDay ? end.toISODate()! : end.toISO({ suppressMilliseconds: true })!,
    allday: String(event.allDay),
    body: details,
    ...(where ? { location: where } : {}),
  });

  return {
    google: `https://calendar.google.com/calendar/render?${google}`,
    outlook: `https://outlook.live.com/calendar/0/action/compose?${outlook}`,
    office: `https://outlook.office.com/calendar/0/action/compose?${outlook}`,
  };
}

/** The OpenStreetMap page of an exact point (a marker at zoom 17); none for places known only to the city. */
export function mapLink(event: Pick<CatalogueEvent, 'lat' | 'lng' | 'geoPrecision' | 'format'>): string | undefined {
  if (event.format === 'online' || event.geoPrecision !== 'exact' || event.lat === null || event.lng === null)
    return undefined;
  const lat = event.lat.toFixed(5);
  const lng = event.lng.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
}
