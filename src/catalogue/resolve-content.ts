import { DateTime } from 'luxon';
import { classifySeniority, classifyTopics } from './classify.js';
import { COUNTRY_INFO, type Country } from './countries.js';
import { type FieldError, ValidationError } from './errors.js';
import type { EventContent } from './event.js';
import { locate, pointOf } from './locate.js';
import type { EventSubmission } from './submission.js';

export interface SubmissionDefaults {
  /** The key's home country, used when neither `country` nor `city` tells. */
  country: Country;
  /** The key's host name, used when `organizer` is absent. */
  organizer: string;
}

/**
 * Turns a validated submission into stored content: the country (explicit, else from the city, else the key's
 * home), the currency it implies, a geo point (exact if given, else the city centroid), inferred topics.
 */
export function resolveSubmission(s: EventSubmission, defaults: SubmissionDefaults): EventContent {
  const location = locate({ city: s.city, country: s.country, lat: s.lat, lng: s.lng });
  const errors = location.problems.map((problem): FieldError => {
    if (problem.kind === 'unknown-city') {
      return {
        field: 'city',
        message: problem.elsewhere
          ? `is in ${problem.elsewhere.country}, not in ${s.country}`
          : 'is not a known city in Switzerland, Germany or Austria',
      };
    }
    if (problem.kind === 'point-outside') {
      return { field: 'lat', message: 'the point is not in Switzerland, Germany or Austria' };
    }
    return { field: 'lat', message: `the point is in ${problem.pointCountry}, not in ${problem.country}` };
  });
  if (errors.length > 0) throw new ValidationError(errors);

  const resolvedCountry = location.country ?? defaults.country;
  const { lat, lng, geoPrecision } = pointOf(location, resolvedCountry);
  const description = s.description?.trim() ? s.description : null;
  return {
    country: resolvedCountry,
    title: s.title.trim(),
    description,
    start: DateTime.fromISO(s.startAt).toJSDate(),
    end: s.endAt ? DateTime.fromISO(s.endAt).toJSDate() : null,
    allDay: false,
    city: s.city?.trim() ?? null,
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
  };
}
