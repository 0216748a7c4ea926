import { DateTime } from 'luxon';
import { COUNTRY_INFO, type Country } from '../places/countries.js';
import { classifySeniority, classifyTopics } from './classify.js';
import { type FieldError, shownValue, ValidationError } from './errors.js';
import { type EventContent, plainContentOf } from './event.js';
import { locate, pointOf } from './locate.js';
import type { EventSubmission } from './submission.js';
import { isBlank } from './text.js';
import { deadlineWithinYears, withinYears, YEARS_MESSAGE } from './years.js';

export interface SubmissionDefaults {
  /** The key's home country, used when neither `country` nor `city` tells. */
  country: Country;
  /** The key's host name, used when `organizer` is absent. */
  organizer: string;
}

/**
 * Turns a validated submission into stored content: the country (explicit, else from the city, else the key's
 * home), the currency it implies, a geo point (exact if given, else the centroid of the venue's city or of the city),
 * inferred topics.
 */
export function resolveSubmission(s: EventSubmission, defaults: SubmissionDefaults): EventContent {
  const location = locate({ city: s.city, country: s.country, venue: s.venue, lat: s.lat, lng: s.lng });
  const errors = location.problems.map((problem): FieldError => {
    if (problem.kind === 'unknown-city') {
      return {
        field: 'city',
        message: problem.elsewhere
          ? `is in ${problem.elsewhere.country}, not in ${s.country}: give a city of ${s.country}, or the country it is in`
          : 'is not a known city in Switzerland, Germany or Austria: give one in any common spelling (Zürich, Genf, München, Wien), or leave city out for an online event',
        given: shownValue(s.city),
      };
    }
    const point = shownValue([s.lat, s.lng]);
    if (problem.kind === 'point-outside') {
      return {
        field: 'lat',
        message: 'with lng, the point is not in Switzerland, Germany or Austria (lat, lng in decimal degrees)',
        given: point,
      };
    }
    return {
      field: 'lat',
      message: `with lng, the point is in ${problem.pointCountry}, not in ${problem.country}`,
      given: point,
    };
  });
  if (errors.length > 0) throw new ValidationError(errors);

  const resolvedCountry = location.country ?? defaults.country;
  const { lat, lng, geoPrecision } = pointOf(location, resolvedCountry);
  const zone = COUNTRY_INFO[resolvedCountry].timeZone;
  const when = timesOf(s, zone);
  const outOfRange = new Map<string, string>();
  if (!withinYears(when.start, zone)) outOfRange.set('startAt', s.startAt);
  // An all-day event without endAt ends the day after its start.
  if (when.end && !withinYears(when.end, zone)) outOfRange.set(s.endAt ? 'endAt' : 'startAt', s.endAt ?? s.startAt);
  if (s.cfpUntil && !deadlineWithinYears(s.cfpUntil, zone)) outOfRange.set('cfpUntil', s.cfpUntil);
  if (outOfRange.size > 0) {
    throw new ValidationError(
      [...outOfRange].map(([field, value]) => ({ field, message: YEARS_MESSAGE, given: shownValue(value) })),
    );
  }
  const description = s.description && !isBlank(s.description) ? s.description : null;
  return {
    country: resolvedCountry,
    title: s.title.trim(),
    description,
    ...when,
    // The venue's city when its address names another one ("…, 8400 Winterthur" with city Zürich).
    city: location.placeFromVenue ? location.place!.name : (s.city?.trim() ?? null),
    venue: s.venue?.trim() ?? null,
    format: s.format,
    topics: s.topics ? [...new Set(s.topics)] : classifyTopics(s.title, s.description),
    seniority: s.seniority ? [...new Set(s.seniority)] : classifySeniority(s.title, s.description),
    regMode: s.regMode,
    capacity: s.capacity ?? null,
    priceType: s.price,
    priceAmount: s.priceAmount === undefined ? null : s.priceAmount.toFixed(2),
    currency: COUNTRY_INFO[resolvedCountry].currency,
    organizer: s.organizer?.trim() ?? defaults.organizer,
    url: s.url ?? null,
    sourceUrl: s.url ?? null,
    lat,
    lng,
    geoPrecision,
    visibility: s.visibility,
    cfpUrl: s.cfpUrl ?? null,
    cfpUntil: s.cfpUntil ?? null,
    ...plainContentOf(s),
  };
}

/** A submission's local day: a plain date as it is, a date-time's date in the event's zone. */
function localDay(value: string, zone: string): DateTime {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? DateTime.fromISO(value, { zone })
    : DateTime.fromISO(value, { setZone: true }).setZone(zone);
  return parsed.startOf('day');
}

/**
 * The last day of an all-day submission: a plain date is that day; a date-time at local midnight ends the day before
 * (calendars export whole days as midnight to midnight), but never before the day it starts.
 */
function lastDay(value: string, zone: string, first: DateTime): DateTime {
  const day = localDay(value, zone);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return day;
  const at = DateTime.fromISO(value, { setZone: true }).setZone(zone);
  return at.equals(day) && day > first ? day.minus({ days: 1 }) : day;
}

/**
 * Start, end and whether the event takes whole days. With `allDay`, the days of startAt and endAt (the last day,
 * inclusive, or a local midnight that ends the day before) in the event's zone, stored as local midnights with the end
 * exclusive; a timed submission from one local midnight to a later one is all-day too.
 */
function timesOf(s: EventSubmission, zone: string): Pick<EventContent, 'start' | 'end' | 'allDay'> {
  if (s.allDay) {
    const first = localDay(s.startAt, zone);
    const last = s.endAt ? lastDay(s.endAt, zone, first) : first;
    if (last < first) {
      throw new ValidationError([
        { field: 'endAt', message: `must not be before startAt (${s.startAt})`, given: shownValue(s.endAt) },
      ]);
    }
    return { start: first.toJSDate(), end: last.plus({ days: 1 }).toJSDate(), allDay: true };
  }
  const start = DateTime.fromISO(s.startAt, { setZone: true }).setZone(zone);
  const end = s.endAt ? DateTime.fromISO(s.endAt, { setZone: true }).setZone(zone) : undefined;
  const midnight = (t: DateTime) => t.equals(t.startOf('day'));
  const allDay = end !== undefined && end > start && midnight(start) && midnight(end);
  return { start: start.toJSDate(), end: end?.toJSDate() ?? null, allDay };
}
