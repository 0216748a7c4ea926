import ical, { ICalAlarmType, type ICalCalendar, type ICalEvent, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { isWholeDay } from '../catalogue/cfp.js';
import type { CatalogueEvent } from '../catalogue/event.js';
import { isTopic, topicLabel } from '../catalogue/taxonomy.js';
import { withoutForbidden } from '../catalogue/text.js';
import { COUNTRIES, COUNTRY_INFO } from '../places/countries.js';
import { localTime } from '../places/zones.js';
import { RecentMemo } from '../runtime/recent-memo.js';
import { eventPageUrl } from './event-json.js';
import { formatWhen as formatWhenPlain, whereOf } from './when.js';

/** Feeds are re-fetched by calendar clients about this often. */
export const FEED_REFRESH_SECONDS = 3600;

export interface CalendarOptions {
  baseUrl: string;
  /** X-WR-CALNAME: what the subscription is, e.g. "Tech events · AI & ML in Zürich". */
  name: string;
  description?: string;
}

/** VTIMEZONE blocks from the IANA database: without them clients read TZID times as floating. */
function vtimezoneOf(tz: string): string | null {
  const found = tzlib_get_ical_block(tz);
  return Array.isArray(found) ? (found[0] ?? null) : null;
}
/** The countries' blocks, made when the module loads (another zone's is made each time). */
const VTIMEZONES: ReadonlyMap<string, string | null> = new Map(
  COUNTRIES.map((c) => COUNTRY_INFO[c].timeZone).map((tz) => [tz, vtimezoneOf(tz)]),
);
const vtimezone = (tz: string): string | null => (VTIMEZONES.has(tz) ? VTIMEZONES.get(tz)! : vtimezoneOf(tz));

/** The host part of a VEVENT's UID (a parse of the base URL: little beside rendering the event it names). */
const hostOf = (baseUrl: string): string => new URL(baseUrl).host;

/** Where an attendee stands for an event in their private calendar (absent in public ones). */
export interface CalendarRsvp {
  status: 'registered' | 'waitlisted' | 'requested';
  waitlistPlace: number | null;
  updatedAt: Date;
}

function addEvent(cal: ICalCalendar, event: CatalogueEvent, baseUrl: string, rsvp?: CalendarRsvp): ICalEvent {
  const zone = COUNTRY_INFO[event.country].timeZone;
  // In the zone ical-generator is given by name, a DateTime is written as it is (Luxon's setZone keeps an equal zone).
  const local = (d: Date) => localTime(d, zone);
  const page = eventPageUrl(baseUrl, event);
  const ticket = event.sourceUrl ?? event.url;
  const cancelled = event.lifecycle === 'cancelled';
  const standing =
    rsvp?.status === 'waitlisted'
      ? `Waitlisted #${rsvp.waitlistPlace ?? '?'}`
      : rsvp?.status === 'requested'
        ? 'Requested'
        : undefined;
  const description = [
    cancelled ? 'CANCELLED by the host.' : undefined,
    standing ? `${standing}: you are not registered yet.` : rsvp ? 'You are registered.' : undefined,
    ticket ? `Tickets and details: ${ticket}` : undefined,
    `Event page: ${page}`,
    `Host: ${event.organizer}`,
    event.description ?? undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  const created = cal.createEvent({
    id: `${event.id}@${hostOf(baseUrl)}`,
    sequence: event.revision,
    // UTC instants go as Dates: ical-generator writes them from their UTC fields, without a DateTime's formatting.
    stamp: rsvp && rsvp.updatedAt > event.updatedAt ? rsvp.updatedAt : event.updatedAt,
    lastModified: rsvp && rsvp.updatedAt > event.updatedAt ? rsvp.updatedAt : event.updatedAt,
    created: event.createdAt,
    start: local(event.start),
    end: event.end ? local(event.end) : local(event.start).plus({ hours: event.allDay ? 24 : 2 }),
    allDay: event.allDay,
    ...(event.allDay ? {} : { timezone: zone }),
    summary: cancelled ? `Cancelled: ${event.title}` : standing ? `${standing}: ${event.title}` : event.title,
    description,
    url: page,
    categories: event.topics.map((t) => ({ name: isTopic(t) ? topicLabel(t) : t })),
    status: cancelled ? ICalEventStatus.CANCELLED : standing ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    location:
      event.format === 'online'
        ? { title: 'Online' }
        : {
            title: whereOf(event),
            ...(event.lat !== null && event.lng !== null ? { geo: { lat: event.lat, lon: event.lng } } : {}),
          },
  });
  if (!cancelled && (!rsvp || rsvp.status === 'registered')) {
    // Reminders: a day before, and an hour before a timed start. A cancelled event carries none, nor one the
    // attendee only waits for.
    created.createAlarm({ type: ICalAlarmType.display, trigger: 86_400, description: `Tomorrow: ${event.title}` });
    if (!event.allDay)
      created.createAlarm({ type: ICalAlarmType.display, trigger: 3600, description: `In one hour: ${event.title}` });
  }
  return created;
}

/**
 * Calendar names come from queries and ical-generator writes them unescaped: one line (a raw break would let a query
 * add lines to a feed), with `;` `,` `\` escaped as RFC 5545 TEXT.
 */
function icalText(text: string): string {
  return withoutForbidden(text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' '))
    .replace(/\\/g, '\\\\')
    .replace(/[;,]/g, '\\$&');
}

function calendarShell(options: { name: string; description?: string | undefined; baseUrl: string }): ICalCalendar {
  return ical({
    name: icalText(options.name),
    description: options.description === undefined ? null : icalText(options.description),
    prodId: { company: 'tech-events', product: 'catalogue', language: 'EN' },
    ttl: FEED_REFRESH_SECONDS,
    url: options.baseUrl,
    timezone: { name: null, generator: vtimezone },
  });
}

/**
 * Each event's VEVENT text, rendered once per revision (events are immutable per revision), for the events of the
 * last fifty or so full calendars (docs/performance.md, "What each piece of tuning buys").
 */
const vevents = new RecentMemo<CatalogueEvent, { baseUrl: string; text: string }>(5_000);

function veventOf(event: CatalogueEvent, baseUrl: string): string {
  return vevents.get(
    event,
    () => ({ baseUrl, text: foldLines(addEvent(calendarShell({ name: '', baseUrl }), event, baseUrl).toString()) }),
    (kept) => kept.baseUrl === baseUrl,
  ).text;
}

/**
 * RFC 5545 §3.1 line folding as ical-generator's `foldLines` does it, counting octets from UTF-16 code units instead
 * of a TextEncoder per character; test/ical-fold.test.ts holds the two to the same output.
 */
export function foldLines(text: string): string {
  return text.split('\r\n').map(foldLine).join('\r\n');
}

function foldLine(line: string): string {
  let i = 0;
  // Most lines are ASCII and short: nothing to fold. Up to 74 ASCII characters are as many octets.
  while (i < line.length && i < 74 && line.charCodeAt(i) < 0x80) i++;
  if (i === line.length) return line;
  // Physical lines are cut as slices (a description is hundreds of characters; one string per character is garbage).
  const physical: string[] = [];
  let from = 0;
  let octets = i;
  while (i < line.length) {
    const at = i;
    const code = line.charCodeAt(i++);
    let size: number;
    if (code >= 0xd800 && code <= 0xdbff) {
      // As ical-generator: a high surrogate takes the next code unit with it, whatever it is.
      const next = i < line.length ? line.charCodeAt(i++) : -1;
      size = next >= 0xdc00 && next <= 0xdfff ? 4 : 3 + (next < 0 ? 0 : utf8Length(next));
    } else {
      size = utf8Length(code);
    }
    octets += size;
    if (octets > 74) {
      physical.push(line.slice(from, at));
      from = at;
      octets = size;
    }
  }
  physical.push(line.slice(from));
  return physical.join('\r\n ');
}

/** UTF-8 octets of one UTF-16 code unit that is not a high surrogate (a lone surrogate is written as U+FFFD). */
function utf8Length(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

/** A CFP deadline as its own VEVENT (all day for a date), reminders a week and a day before. */
function addDeadline(cal: ICalCalendar, event: CatalogueEvent, baseUrl: string): void {
  const until = event.cfpUntil!;
  const zone = COUNTRY_INFO[event.country].timeZone;
  const page = eventPageUrl(baseUrl, event);
  const wholeDay = isWholeDay(until);
  const start = wholeDay ? DateTime.fromISO(until, { zone }) : DateTime.fromISO(until, { setZone: true }).setZone(zone);
  const created = cal.createEvent({
    id: `${event.id}-cfp@${hostOf(baseUrl)}`,
    sequence: event.revision,
    stamp: event.updatedAt,
    start,
    end: wholeDay ? start.plus({ days: 1 }) : start.plus({ minutes: 30 }),
    allDay: wholeDay,
    ...(wholeDay ? {} : { timezone: zone }),
    summary: `Call for papers closes: ${event.title}`,
    description: [
      event.cfpUrl ? `Submit a talk: ${event.cfpUrl}` : undefined,
      `The event: ${formatWhenPlain(event)}, ${whereOf(event)}. Page: ${page}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    url: event.cfpUrl ?? page,
  });
  created.createAlarm({ type: ICalAlarmType.display, trigger: 7 * 86_400, description: `A week left: ${event.title}` });
  created.createAlarm({ type: ICalAlarmType.display, trigger: 86_400, description: `Tomorrow: ${event.title}` });
}

/** The calls for papers of the given events as deadlines (events without a deadline are left out). */
export function renderCfpCalendar(events: readonly CatalogueEvent[], options: CalendarOptions): string {
  const cal = calendarShell(options);
  const withDeadline = events.filter((e) => e.cfpUntil && DateTime.fromISO(e.cfpUntil, { setZone: true }).isValid);
  for (const event of withDeadline) addDeadline(cal, event, options.baseUrl);
  const text = cal.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/** An RFC 5545 calendar of the given events, with VTIMEZONEs, reminders and refresh hints. */
export function renderCalendar(events: readonly CatalogueEvent[], options: CalendarOptions): string {
  const shell = calendarShell(options).toString();
  const zones = new Set(events.filter((e) => !e.allDay).map((e) => COUNTRY_INFO[e.country].timeZone));
  const parts = [...zones].sort().map((zone) => {
    const block = vtimezone(zone)?.replace(/\r?\n/g, '\r\n') ?? '';
    return block && !block.endsWith('\r\n') ? `${block}\r\n` : block;
  });
  for (const event of events) parts.push(veventOf(event, options.baseUrl));
  const end = shell.lastIndexOf('END:VCALENDAR');
  // RFC 5545 ends every content line, the last one included, with CRLF.
  return `${shell.slice(0, end)}${parts.filter(Boolean).join('')}END:VCALENDAR\r\n`;
}

/**
 * An attendee's private calendar (`/me/calendar/<token>.ics`): the events they are registered for (with reminders),
 * waitlisted for (TENTATIVE, their place in the summary) or asked for; a cancelled one as CANCELLED with the notice.
 * Not memoised: the same revision of an event reads differently for each attendee.
 */
export function renderPrivateCalendar(
  rsvps: readonly { event: CatalogueEvent; rsvp: CalendarRsvp }[],
  options: CalendarOptions,
): string {
  const cal = calendarShell(options);
  for (const { event, rsvp } of rsvps) addEvent(cal, event, options.baseUrl, rsvp);
  const text = cal.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
