import { DateTime } from 'luxon';

/**
 * The years an event's dates may lie in. iCalendar and RFC 3339 write four-digit years (ical.js throws on more, JSON
 * turns them into `+010000-…`), and nothing before 1970 is an event anyone can attend.
 */
export const FIRST_YEAR = 1970;
export const LAST_YEAR = 9999;

export const YEARS_MESSAGE = `must lie within the years ${FIRST_YEAR} to ${LAST_YEAR}, in UTC and in the event’s time zone`;

/** Whether an instant's year is within range both in UTC (JSON, Atom) and in `zone` (iCal's TZID times, pages). */
export function withinYears(instant: Date, zone: string): boolean {
  const at = DateTime.fromJSDate(instant, { zone });
  if (!at.isValid) return false;
  return [at.year, at.toUTC().year].every((year) => year >= FIRST_YEAR && year <= LAST_YEAR);
}

/**
 * Whether a call-for-papers deadline as written (a local date, the whole day counting, or a date-time with offset)
 * lies within range in `zone`: a date from its first to its last instant.
 */
export function deadlineWithinYears(until: string, zone: string): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(until)) {
    const day = DateTime.fromISO(until, { zone });
    return day.isValid && withinYears(day.toJSDate(), zone) && withinYears(day.endOf('day').toJSDate(), zone);
  }
  const at = DateTime.fromISO(until, { setZone: true });
  return at.isValid && withinYears(at.toJSDate(), zone);
}
