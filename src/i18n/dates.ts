import { DateTime } from 'luxon';
import type { CatalogueEvent } from '../catalogue/event.js';
import { COUNTRIES, COUNTRY_INFO } from '../places/countries.js';
import { localTime } from '../places/zones.js';
import { RecentMemo } from '../runtime/recent-memo.js';
import type { Translator } from './translator.js';

/**
 * Dates and times in the reader's language, always in the event country's time zone (a Zürich meetup is at 18:30
 * Zürich time whoever reads it). A named zone's offset look-up is costly, so per-event texts are computed once per
 * event version and language, and day arithmetic works on local ISO dates.
 */

type When = Pick<CatalogueEvent, 'start' | 'end' | 'allDay' | 'country'>;

const zoneOf = (event: Pick<CatalogueEvent, 'country'>) => COUNTRY_INFO[event.country].timeZone;

function local(date: Date, zone: string, t: Translator): DateTime {
  return localTime(date, zone).setLocale(t.locale);
}

/** A day in the locale's short form (CLDR): "Fri, 4 Dec 2026", "Fr., 4. Dez. 2026"; without the year "Fri 4 Dec". */
const SHORT_DAY: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' };
const SHORT_DAY_NO_YEAR: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };

/** A date as the reader's locale writes a short day: "Fri, 4 Dec 2026", "Fr., 4. Dez. 2026", "ven. 4 déc. 2026". */
export function shortDate(date: Date, zone: string, t: Translator, withYear = true): string {
  return local(date, zone, t).toLocaleString(withYear ? SHORT_DAY : SHORT_DAY_NO_YEAR);
}

/** The last day an event covers, or undefined when it ends on the day it starts. */
function lastDayOf(event: When, zone: string, t: Translator): DateTime | undefined {
  if (!event.end) return undefined;
  const start = local(event.start, zone, t);
  // All-day ends are exclusive midnights: the last day is the one before.
  const last = local(event.end, zone, t).minus(event.allDay ? { days: 1 } : { milliseconds: 1 });
  return last.startOf('day') > start.startOf('day') ? last : undefined;
}

/** When an event happens: "Fri, 4 Dec 2026 · 18:30–21:00", "…· ganztägig", and the span of multi-day events. */
export function formatWhen(event: When, t: Translator): string {
  return memo(whenTexts, event, t.lang, () => computeWhen(event, t));
}

/** Per event of the pages' last few thousand, a text per language or zone. */
const whenTexts = new RecentMemo<object, Record<string, string>>(20_000);
const startDays = new RecentMemo<object, Record<string, string>>(20_000);
const machineTimes = new RecentMemo<object, Record<string, string>>(20_000);

/** A value per object and key, computed once while the object is among the recent ones. */
function memo(
  cache: RecentMemo<object, Record<string, string>>,
  of: object,
  key: string,
  compute: () => string,
): string {
  const entry = cache.get(of, () => ({}));
  let value = entry[key];
  if (value === undefined) {
    value = compute();
    entry[key] = value;
  }
  return value;
}

function computeWhen(event: When, t: Translator): string {
  const zone = zoneOf(event);
  const start = local(event.start, zone, t);
  const last = lastDayOf(event, zone, t);
  // A timed event ending the same day shows its end too: "18:30–21:00".
  const end = event.end && !event.allDay && !last ? `–${local(event.end, zone, t).toFormat('HH:mm')}` : '';
  const time = event.allDay ? t.t('when.allDay') : `${start.toFormat('HH:mm')}${end}`;
  const text = t.t('when.at', { date: start.toLocaleString(SHORT_DAY), time });
  if (!last) return text;
  return t.t('when.until', {
    when: text,
    last: last.toLocaleString(last.year === start.year ? SHORT_DAY_NO_YEAR : SHORT_DAY),
  });
}

/** The start for a `<time datetime>`: the local date of an all-day event, else the local time with its offset. */
export function machineTime(event: Pick<CatalogueEvent, 'start' | 'allDay' | 'country'>): string {
  return memo(machineTimes, event, '', () => {
    const start = DateTime.fromJSDate(event.start, { zone: zoneOf(event) });
    return (event.allDay ? start.toISODate() : start.toISO({ suppressMilliseconds: true }))!;
  });
}

// en-CA writes dates as YYYY-MM-DD.
const dayFormat = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
/** The countries' formats, made when the module loads (another zone's is made each time). */
const DAY_FORMATS_BY_ZONE: ReadonlyMap<string, Intl.DateTimeFormat> = new Map(
  COUNTRIES.map((c) => COUNTRY_INFO[c].timeZone).map((zone) => [zone, dayFormat(zone)]),
);

/** The local date of an instant in a zone, as an ISO date ("2025-03-05"). */
export function localDay(date: Date | number, zone: string): string {
  const ms = typeof date === 'number' ? date : date.getTime();
  return (DAY_FORMATS_BY_ZONE.get(zone) ?? dayFormat(zone)).format(ms);
}

/** A local ISO date as a calendar date, read in UTC (a fixed zone: no offset look-up). */
export function calendarDay(isoDay: string, t: Translator): DateTime {
  return DateTime.fromISO(isoDay, { zone: 'utc' }).setLocale(t.locale);
}

const DAY_FORMATS = {
  short: (day: DateTime) => day.toLocaleString(SHORT_DAY_NO_YEAR),
  long: (day: DateTime) => day.toLocaleString({ weekday: 'long', day: 'numeric', month: 'long' }),
  longWithYear: (day: DateTime) =>
    day.toLocaleString({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
};
const dayTexts = new Map<string, string>();

/** A local date as words: "Wed 5 Mar" (short), "Mittwoch, 5. März" (long); kept, as a page names the same few days. */
export function dayText(isoDay: string, t: Translator, form: keyof typeof DAY_FORMATS): string {
  const key = `${t.lang}${form}${isoDay}`;
  let text = dayTexts.get(key);
  if (text === undefined) {
    if (dayTexts.size >= 5000) dayTexts.clear();
    text = DAY_FORMATS[form](calendarDay(isoDay, t));
    dayTexts.set(key, text);
  }
  return text;
}

/** How many weeks (Monday to Sunday) after today's the week of a local date is: 0 this week, 1 next week. */
export function weeksAhead(isoDay: string, zone: string, now: Date): number {
  return (mondayOf(dayNumber(isoDay)) - mondayOf(dayNumber(localDay(now, zone)))) / 7;
}

/** Days since 1970-01-01 of an ISO date: whole-day arithmetic without time zones. */
function dayNumber(isoDay: string): number {
  return Date.UTC(Number(isoDay.slice(0, 4)), Number(isoDay.slice(5, 7)) - 1, Number(isoDay.slice(8, 10))) / 86_400_000;
}

/** The day number of the Monday starting a day's week (1970-01-01 was a Thursday). */
const mondayOf = (day: number) => day - ((day + 3) % 7);

/** The local day an event is listed under: its first day, or today for one that began earlier and still runs. */
export function listingDay(event: Pick<CatalogueEvent, 'start'>, zone: string, now: Date): string {
  const start = memo(startDays, event, zone, () => localDay(event.start, zone));
  const today = localDay(now, zone);
  // ISO dates compare as strings.
  if (start < today) return today;
  return start;
}

export type Period = 'today' | 'tomorrow' | 'thisWeek' | 'nextWeek';

/** Where a local day sits relative to today (weeks Monday–Sunday, as the search reads "next week"); else undefined. */
export function periodOf(isoDay: string, zone: string, now: Date): Period | undefined {
  const today = dayNumber(localDay(now, zone));
  const day = dayNumber(isoDay);
  if (day <= today) return 'today';
  if (day === today + 1) return 'tomorrow';
  const weeks = (mondayOf(day) - mondayOf(today)) / 7;
  return weeks === 0 ? 'thisWeek' : weeks === 1 ? 'nextWeek' : undefined;
}

/** A day heading: "Today · Saturday 1 March", "Nächste Woche · Mittwoch, 5. März", "vendredi 4 décembre 2026". */
export function dayHeading(isoDay: string, zone: string, now: Date, t: Translator): string {
  const sameYear = isoDay.slice(0, 4) === localDay(now, zone).slice(0, 4);
  const date = dayText(isoDay, t, sameYear ? 'long' : 'longWithYear');
  const period = periodOf(isoDay, zone, now);
  return period ? t.t('day.heading', { period: t.t(`period.${period}`), date }) : date;
}

const rangeFormats = new Map<string, Intl.DateTimeFormat>();

/** A span of days, "3–9 Mar 2025", "3.–9. März 2025", "3–9 mars 2025"; `to` is exclusive. */
export function dayRange(from: Date, to: Date, zone: string, t: Translator): string {
  const key = `${t.locale} ${zone}`;
  let format = rangeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(t.locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: zone });
    rangeFormats.set(key, format);
  }
  const last = new Date(Math.max(from.getTime(), to.getTime() - 1));
  return format.formatRange(from, last);
}

/** A date and time with the zone's name in the reader's language: "1 Mar 2025, 10:15 CET", "…10:15 MEZ". */
export function dateTime(date: Date, zone: string, t: Translator): string {
  return local(date, zone, t).toLocaleString({
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

/** An ISO date (`2025-03-05`) as a short local date, e.g. for `from`/`to` filters. */
export function isoDayLabel(isoDay: string, zone: string, t: Translator): string {
  return DateTime.fromISO(isoDay, { zone }).setLocale(t.locale).toLocaleString(SHORT_DAY);
}
