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
export const MAX_STEPS = 50_000;

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

/**
 * What ical.js would stumble over with a TypeError, said in words first: a rule without FREQ. RDATE periods (RFC 5545
 * allows them) become their start times, which is all ical.js expands; the event's own length applies to each.
 */
function checkRecurrence(c: IcalComponent): void {
  for (const prop of c.getAllProperties('rrule')) {
    const rule = prop.getFirstValue() as { freq?: string | null } | null;
    if (!rule?.freq) throw new Error('an RRULE names no FREQ (RFC 5545 requires one)');
  }
  for (const prop of c.getAllProperties('rdate')) {
    if (prop.type !== 'period') continue;
    const starts = prop.getValues().map((period) => (period as InstanceType<typeof ICAL.Period>).start);
    prop.resetType('date-time');
    prop.setValues(starts);
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
  /** Series that each ran into a limit of their own (MAX_INSTANCES, MAX_STEPS) and kept what they had by then. */
  capped?: { instances: number; steps: number };
}

/** The length of one step of a rule whose steps are all alike, in seconds; undefined for months and years. */
const FIXED_STEP_SECONDS: Record<string, number> = {
  SECONDLY: 1,
  MINUTELY: 60,
  HOURLY: 3_600,
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
};

/**
 * The walk of a series' rule, begun close before `now`: a fast rule that began years ago (hourly since 2019) does not
 * walk every step up to now. Only for one RRULE, no RDATE, steps of a fixed length: moving DTSTART by whole intervals
 * keeps every later occurrence as it was. A COUNT counts from the real DTSTART, so it moves only where each step is
 * an occurrence (no BY… part), less the steps skipped. The new start is over by `now`, never an occurrence of its own.
 */
function walkOf(event: InstanceType<typeof ICAL.Event>, master: IcalComponent, now: Date) {
  const whole = () => event.iterator();
  const rules = master.getAllProperties('rrule');
  const rule = rules[0]?.getFirstValue() as InstanceType<typeof ICAL.Recur> | undefined;
  if (rules.length !== 1 || !rule || master.hasProperty('rdate')) return whole();
  const unit = FIXED_STEP_SECONDS[rule.freq];
  if (!unit || (rule.count && Object.keys(rule.parts).length > 0)) return whole();
  const step = unit * Math.max(1, rule.interval || 1);
  const start = event.startDate;
  const length = Math.max(0, event.duration?.toSeconds() ?? 0);
  // A day of slack: all-day dates and wall-clock steps across a DST change.
  const lead = (now.getTime() - start.toJSDate().getTime()) / 1000 - length - 86_400;
  let steps = Math.floor(lead / step);
  if (rule.count) steps = Math.min(steps, rule.count - 1);
  if (steps < 2) return whole();
  const from = start.clone();
  const seconds = steps * step;
  from.adjust(Math.floor(seconds / 86_400), 0, 0, seconds % 86_400);
  if (!rule.count) return event.iterator(from);
  // The same series with the count it has left from there (on a copy: the feed's own component stays as it is).
  const copy = new ICAL.Component(structuredClone(master.toJSON()));
  (copy.getFirstPropertyValue('rrule') as InstanceType<typeof ICAL.Recur>).count = rule.count - steps;
  return new ICAL.Event(copy).iterator(from);
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
  for (const c of [master, ...exceptions]) {
    checkTimes(c);
    checkRecurrence(c);
  }
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
  const iterator = walkOf(event, master, options.now);
  const capped = (limit: 'instances' | 'steps') => {
    budget.capped ??= { instances: 0, steps: 0 };
    budget.capped[limit]++;
  };
  for (let step = 0, next = iterator.next(); next; step++, next = iterator.next()) {
    if (step % STEPS_PER_YIELD === STEPS_PER_YIELD - 1) yield;
    if (step >= MAX_STEPS) {
      capped('steps');
      break;
    }
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
    if (result.length >= MAX_INSTANCES) {
      capped('instances');
      break;
    }
    if (budget.occurrences-- <= 0) {
      budget.cut = 'occurrences';
      break;
    }
    result.push({ ...occurrence, recurrenceKey: keyOf(original) });
  }
  return result;
}
