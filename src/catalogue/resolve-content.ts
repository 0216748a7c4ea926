import { DateTime } from 'luxon';
import { countryCentroid, countryOfPoint, resolveCity } from '../places/gazetteer.js';
import { classifySeniority, classifyTopics } from './classify.js';
import { COUNTRY_INFO, type Country } from './countries.js';
import { type FieldError, ValidationError } from './errors.js';
import type { EventContent, GeoPrecision } from './event.js';
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
  const errors: FieldError[] = [];
  let country: Country | undefined = s.country;
  let lat: number | null = null;
  let lng: number | null = null;
  let geoPrecision: GeoPrecision = 'none';

  if (s.city !== undefined) {
    const place = resolveCity(s.city, country);
    if (!place) {
      const elsewhere = country ? resolveCity(s.city) : undefined;
      errors.push({
        field: 'city',
        message: elsewhere
          ? `is in ${elsewhere.country}, not in ${country}`
          : 'is not a known city in Switzerland, Germany or Austria',
      });
    } else {
      country = place.country;
      lat = place.lat;
      lng = place.lng;
      geoPrecision = 'city';
    }
  }
  if (s.lat !== undefined && s.lng !== undefined) {
    const pointCountry = countryOfPoint(s.lat, s.lng);
    if (!pointCountry) {
      errors.push({ field: 'lat', message: 'the point is not in Switzerland, Germany or Austria' });
    } else if (country && pointCountry !== country) {
      errors.push({ field: 'lat', message: `the point is in ${pointCountry}, not in ${country}` });
    } else {
      country = pointCountry;
      lat = s.lat;
      lng = s.lng;
      geoPrecision = 'exact';
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const resolvedCountry = country ?? defaults.country;
  if (geoPrecision === 'none') {
    const centroid = countryCentroid(resolvedCountry);
    lat = centroid.lat;
    lng = centroid.lng;
    geoPrecision = 'country';
  }
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
