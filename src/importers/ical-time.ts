import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import type { ImportedRecord } from './importer.js';

export type IcalTime = InstanceType<typeof ICAL.Time>;
export type IcalComponent = InstanceType<typeof ICAL.Component>;
export type When = ImportedRecord['start'];

/** Recurring series are expanded over this window from "now", and to at most this many instances each. */
export const EXPANSION_MONTHS = 6;
export const MAX_INSTANCES = 200;
/** Upper bound on rule steps per series (a daily rule from 1990 still ends quickly). */
const MAX_STEPS = 50_000;

export interface Occurrence {
  /** The VEVENT whose fields apply: the master, or the overriding instance (RECURRENCE-ID). */
  item: IcalComponent;
  start: When;
  end: When | undefined;
  /** The occurrence's original start, stable across overrides: part of the source id. Absent for single events. */
  recurrenceKey?: string;
}

/**
 * The instant or date an iCalendar time stands for. The TZID is taken from the property: a known IANA name goes
 * through Luxon's tz database (authoritative, and works without a VTIMEZONE in the feed); other names through the
 * feed's own VTIMEZONE; floating times (no zone) are local time in `floatingZone`.
 */
export function whenOf(t: IcalTime, tzid: string | null | undefined, floatingZone: string): When {
  if (t.isDate) return { date: DateTime.utc(t.year, t.month, t.day).toISODate()! };
  const local = { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
  if (t.zone?.tzid === 'UTC') return { instant: DateTime.fromObject(local, { zone: 'utc' }).toJSDate() };
  if (tzid && IANAZone.isValidZone(tzid)) return { instant: DateTime.fromObject(local, { zone: tzid }).toJSDate() };
  if (t.zone && t.zone.tzid !== 'floating' && t.zone.component) return { instant: t.toJSDate() };
  return { instant: DateTime.fromObject(local, { zone: floatingZone }).toJSDate() };
}

/** The instant a start or end means, for window checks: dates are local midnights. */
export function instantOfWhen(when: When, zone: string): Date {
  return 'instant' in when ? when.instant : DateTime.fromISO(when.date, { zone }).toJSDate();
}

/** RFC 5545 all-day ends are exclusive; ours are inclusive (never before the start). */
function inclusiveEnd(start: When, end: When | undefined): When | undefined {
  if (!end || !('date' in start)) return end && 'instant' in end ? end : undefined;
  if (!('date' in end)) return undefined;
  const last = DateTime.fromISO(end.date, { zone: 'utc' }).minus({ days: 1 });
  return { date: DateTime.max(last, DateTime.fromISO(start.date, { zone: 'utc' })).toISODate()! };
}

/** ical.js rolls impossible values over (month 13 → next year); a feed with them is broken, not shifted. */
function checkTimes(c: IcalComponent): void {
  for (const name of ['dtstart', 'dtend', 'recurrence-id']) {
    const prop = c.getFirstProperty(name);
    const raw = prop?.toJSON()[3];
    const m = typeof raw === 'string' ? raw.match(/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?/) : null;
    if (!prop || !m) continue;
    const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((v) => (v ? Number(v) : undefined));
    const time = { year, month, day, hour, minute, second: Math.min(second, 59) }; // 60: a leap second
    if (!DateTime.fromObject(time, { zone: 'utc' }).isValid) {
      const value = prop.toICALString().replace(/^[^:]*:/, '');
      throw new Error(`${name.toUpperCase()} "${value}" is not a real date-time`);
    }
  }
}

const tzidOf = (c: IcalComponent, name: string) => c.getFirstProperty(name)?.getParameter('tzid') as string | undefined;
const hasEnd = (c: IcalComponent) => c.hasProperty('dtend') || c.hasProperty('duration');

function occurrenceOf(
  item: IcalComponent,
  start: IcalTime,
  end: IcalTime | null,
  startTzid: string | undefined,
  endTzid: string | undefined,
  floatingZone: string,
): Omit<Occurrence, 'recurrenceKey'> {
  const s = whenOf(start, startTzid, floatingZone);
  const e = end && hasEnd(item) ? whenOf(end, endTzid, floatingZone) : undefined;
  return { item, start: s, end: 'date' in s ? (inclusiveEnd(s, e) ?? s) : inclusiveEnd(s, e) };
}

/** A stable text for an occurrence's original start: UTC for timed occurrences, the date for all-day ones. */
function keyOf(when: When): string {
  return 'date' in when
    ? when.date.replaceAll('-', '')
    : DateTime.fromJSDate(when.instant, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");
}

export interface ExpandOptions {
  now: Date;
  floatingZone: string;
}

/**
 * What one calendar may spend on its recurring series, shared by all of them: occurrences made and rule steps taken.
 * A series that runs out stops where it is and `cut` says which limit ended it.
 */
export interface ExpansionBudget {
  occurrences: number;
  steps: number;
  cut?: 'occurrences' | 'steps';
}

/** Rule steps between two yields of expandOccurrences: a step costs microseconds, a few thousand a millisecond or so. */
const STEPS_PER_YIELD = 500;

/**
 * The occurrences of one UID: a single event as is (whatever its date, like any other source), a recurring series
 * (RRULE/RDATE minus EXDATE, with overridden instances) from now over the coming months. Throws on unusable times.
 */
export function occurrencesOf(
  master: IcalComponent,
  exceptions: IcalComponent[],
  options: ExpandOptions,
  budget: ExpansionBudget = { occurrences: Number.POSITIVE_INFINITY, steps: Number.POSITIVE_INFINITY },
): Occurrence[] {
  const steps = expandOccurrences(master, exceptions, options, budget);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** occurrencesOf in steps: yields now and then while a series is walked, so a caller can pause between steps. */
export function* expandOccurrences(
  master: IcalComponent,
  exceptions: IcalComponent[],
  options: ExpandOptions,
  budget: ExpansionBudget,
): Generator<void, Occurrence[]> {
  if (!master.hasProperty('dtstart')) throw new Error('no DTSTART');
  for (const c of [master, ...exceptions]) checkTimes(c);
  const event = new ICAL.Event(master, { exceptions });
  const zone = options.floatingZone;
  const startTzid = tzidOf(master, 'dtstart');
  if (!event.isRecurring()) {
    const single = occurrenceOf(master, event.startDate, event.endDate, startTzid, tzidOf(master, 'dtend'), zone);
    // An overridden instance whose series is missing keeps the id it has within its series.
    const rid = master.getFirstPropertyValue('recurrence-id');
    if (!(rid instanceof ICAL.Time)) return [single];
    return [{ ...single, recurrenceKey: keyOf(whenOf(rid, tzidOf(master, 'recurrence-id'), zone)) }];
  }
  const horizon = DateTime.fromJSDate(options.now).plus({ months: EXPANSION_MONTHS }).toJSDate();
  const result: Occurrence[] = [];
  const iterator = event.iterator();
  for (let step = 0, next = iterator.next(); next && step < MAX_STEPS; step++, next = iterator.next()) {
    if (step % STEPS_PER_YIELD === STEPS_PER_YIELD - 1) yield;
    if (budget.steps-- <= 0) {
      budget.cut = 'steps';
      break;
    }
    const original = whenOf(next, startTzid, zone);
    if (instantOfWhen(original, zone) >= horizon) break;
    const details = event.getOccurrenceDetails(next);
    const overridden = details.item.component !== master;
    const item = details.item.component;
    const occurrence = overridden
      ? occurrenceOf(item, details.startDate, details.endDate, tzidOf(item, 'dtstart'), tzidOf(item, 'dtend'), zone)
      : occurrenceOf(item, details.startDate, details.endDate, startTzid, startTzid, zone);
    const last = instantOfWhen(occurrence.end ?? occurrence.start, zone);
    const over =
      'date' in (occurrence.end ?? occurrence.start) ? DateTime.fromJSDate(last).plus({ days: 1 }).toJSDate() : last;
    if (over < options.now) continue;
    if (budget.occurrences-- <= 0) {
      budget.cut = 'occurrences';
      break;
    }
    result.push({ ...occurrence, recurrenceKey: keyOf(original) });
    if (result.length >= MAX_INSTANCES) break;
  }
  return result;
}
