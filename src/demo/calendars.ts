import { DateTime } from 'luxon';

/** One event of a synthetic Meetup group calendar. */
export interface DemoMeetupEvent {
  /** Meetup's numeric event id: the UID is `event_<id>@meetup.com`. */
  id: string;
  title: string;
  /** Local wall-clock start in the group's zone, `YYYY-MM-DDTHH:mm`. */
  start: string;
  hours?: number;
  /** The older export's LOCATION is `<venue>, <address>`, with GEO; the 2026 export has neither. */
  venue?: string;
  /** "Sihlquai 131, 8005 Zürich". */
  address?: string;
  lat?: number;
  lng?: number;
  /** What the host wrote (markdown-like); the 2026 export puts the group's name on the line before it. */
  description?: string;
  cancelled?: boolean;
}

export interface DemoMeetupGroup {
  /** The group's urlname (`zurich-ai-meetup`). */
  id: string;
  name: string;
  zone?: string;
}

/** iCalendar text escaping (RFC 5545 §3.3.11) and folding at 75 octets, as Meetup's exporter writes. */
const icalText = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut)) > 75) cut--;
    out.push(rest.slice(0, cut));
    rest = ` ${rest.slice(cut)}`;
  }
  out.push(rest);
  return out.join('\r\n');
}

const local = (iso: string, zone: string) => DateTime.fromISO(iso, { zone });
const icalLocal = (t: DateTime) => t.toFormat("yyyyMMdd'T'HHmmss");

/** The VTIMEZONE Meetup's export carries for Central European zones (with TZURL in 2026's). */
const vtimezone = (zone: string, tzurl: boolean) => [
  'BEGIN:VTIMEZONE',
  `TZID:${zone}`,
  ...(tzurl ? [`TZURL:http://tzurl.org/zoneinfo-outlook/${zone}`] : []),
  `X-LIC-LOCATION:${zone}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** The response headers of Meetup's group export as served in 2026: no ETag, no Last-Modified, never cached. */
export const MEETUP_HEADERS = {
  'content-type': 'text/calendar',
  'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate',
} as const;

export interface MeetupCalendarOptions {
  /**
   * `2026` (the default): Meetup's export as served in 2026 — no LOCATION, GEO, ORGANIZER or CATEGORIES, the group's
   * name as NAME and X-WR-CALNAME (test/fixtures/calendars/meetup-2026/README.md cites the captures). `legacy`: the
   * older export with LOCATION, GEO and ORGANIZER, which other producers of iCal still write.
   */
  shape?: '2026' | 'legacy';
  /** DTSTAMP: Meetup writes the time of the request. */
  stamp?: string;
}

/**
 * A calendar shaped like a Meetup group's iCal export (`https://www.meetup.com/<group>/events/ical/`). For tests and
 * the benchmark: never the network.
 */
export function meetupCalendar(
  group: DemoMeetupGroup,
  events: readonly DemoMeetupEvent[],
  options: MeetupCalendarOptions = {},
): string {
  const zone = group.zone ?? 'Europe/Zurich';
  const stamp = options.stamp ?? '20261101T090000Z';
  if (options.shape === 'legacy') return legacyCalendar(group, events, zone, stamp);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Meetup//Meetup Calendar 1.0//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    // As captured: the name unescaped here, escaped where it is repeated at the end.
    `NAME:${group.name}`,
    `X-WR-CALNAME:${group.name}`,
    ...vtimezone(zone, true),
  ];
  for (const e of events) {
    const start = local(e.start, zone);
    lines.push(
      'BEGIN:VEVENT',
      `UID:event_${e.id}@meetup.com`,
      'SEQUENCE:1',
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${zone}:${icalLocal(start)}`,
      `DTEND;TZID=${zone}:${icalLocal(start.plus({ hours: e.hours ?? 2.5 }))}`,
      `SUMMARY:${icalText(e.title)}`,
      `DESCRIPTION:${icalText(`${group.name}\n${e.description ?? 'Talks and drinks.'}`)}`,
      `URL;VALUE=URI:https://www.meetup.com/${group.id}/events/${e.id}/`,
      `STATUS:${e.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
      'CREATED:20260105T101500Z',
      'LAST-MODIFIED:20260105T101500Z',
      'CLASS:PUBLIC',
      'END:VEVENT',
    );
  }
  lines.push(
    `X-ORIGINAL-URL:https://www.meetup.com/${group.id}/events/ical/`,
    `X-WR-CALNAME:${icalText(group.name)}`,
    'END:VCALENDAR',
  );
  // As captured: no line break after END:VCALENDAR.
  return lines.map(fold).join('\r\n');
}

/** The older export: LOCATION as `<venue>, <address>`, GEO, ORGANIZER, the link in the description. */
function legacyCalendar(group: DemoMeetupGroup, events: readonly DemoMeetupEvent[], zone: string, stamp: string) {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Meetup//RemoteApi//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-ORIGINAL-URL:https://www.meetup.com/${group.id}/events/ical/`,
    `X-WR-CALNAME:Events - ${icalText(group.name)}`,
    ...vtimezone(zone, false),
  ];
  for (const e of events) {
    const start = local(e.start, zone);
    const url = `https://www.meetup.com/${group.id}/events/${e.id}/`;
    lines.push(
      'BEGIN:VEVENT',
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${zone}:${icalLocal(start)}`,
      `DTEND;TZID=${zone}:${icalLocal(start.plus({ hours: e.hours ?? 2.5 }))}`,
      `STATUS:${e.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
      `SUMMARY:${icalText(e.title)}`,
      `DESCRIPTION:${icalText(`${group.name}\n\n${e.description ?? 'Talks and drinks.'}\n\nDetails: ${url}`)}`,
      'CLASS:PUBLIC',
      ...(e.lat !== undefined && e.lng !== undefined ? [`GEO:${e.lat};${e.lng}`] : []),
      ...(e.venue ? [`LOCATION:${icalText([e.venue, e.address].filter(Boolean).join(', '))}`] : []),
      `URL:${url}`,
      `ORGANIZER;CN="${group.name.replace(/"/g, '')}":mailto:noreply@meetup.com`,
      `UID:event_${e.id}@meetup.com`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
