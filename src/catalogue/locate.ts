import type { Country } from '../places/countries.js';
import { countryCentroid, countryOfPoint, type Place, resolveCity } from '../places/gazetteer.js';
import { venueCity } from './address.js';
import type { GeoPrecision } from './event.js';

export interface LocateInput {
  city?: string | undefined;
  /** The country the source names, if any: the city is looked up there, and the point must lie in it. */
  country?: Country | undefined;
  /** The venue's name and address: a city it names (see `venueCity`) places the event rather than `city`. */
  venue?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
}

/** Why part of the input could not be placed; each caller decides whether that is fatal. */
export type LocateProblem =
  | { kind: 'unknown-city'; city: string; elsewhere: Place | undefined }
  | { kind: 'point-outside' }
  | { kind: 'point-mismatch'; pointCountry: Country; country: Country };

export interface Location {
  country: Country | undefined;
  lat: number | null;
  lng: number | null;
  geoPrecision: GeoPrecision;
  /** The city's gazetteer place, when it resolved: the venue's city when its address names one. */
  place: Place | undefined;
  /** The place is the venue's city, not the one given as `city`. */
  placeFromVenue: boolean;
  problems: LocateProblem[];
}

/**
 * Where an event is, for both the write API and the importers: the city's place (its centroid, `precision: city`),
 * or the venue's when its address names a city (devopsdays Zurich's "…, 8400 Winterthur" is in Winterthur, not at
 * Zürich's centre), and an exact point (`precision: exact`) only when it lies in ch/de/at and in the event's country.
 */
export function locate(input: LocateInput): Location {
  const problems: LocateProblem[] = [];
  let country = input.country;
  let place: Place | undefined;
  let lat: number | null = null;
  let lng: number | null = null;
  let geoPrecision: GeoPrecision = 'none';
  if (input.city !== undefined) {
    place = resolveCity(input.city, country);
    if (place) {
      country = place.country;
      lat = place.lat;
      lng = place.lng;
      geoPrecision = 'city';
    } else {
      problems.push({
        kind: 'unknown-city',
        city: input.city,
        elsewhere: country ? resolveCity(input.city) : undefined,
      });
    }
  }
  const atVenue = venueCity(input.venue, country, place);
  const placeFromVenue = atVenue !== undefined && atVenue !== place;
  if (atVenue && placeFromVenue) {
    place = atVenue;
    country = atVenue.country;
    lat = atVenue.lat;
    lng = atVenue.lng;
    geoPrecision = 'city';
  }
  if (input.lat !== undefined && input.lng !== undefined) {
    const pointCountry = countryOfPoint(input.lat, input.lng);
    if (!pointCountry) problems.push({ kind: 'point-outside' });
    else if (country && pointCountry !== country) problems.push({ kind: 'point-mismatch', pointCountry, country });
    else {
      country = pointCountry;
      lat = input.lat;
      lng = input.lng;
      geoPrecision = 'exact';
    }
  }
  return { country, lat, lng, geoPrecision, place, placeFromVenue, problems };
}

/** A located event's point, with the country's centroid standing in (`precision: country`) when nothing placed it. */
export function pointOf(
  location: Location,
  country: Country,
): { lat: number | null; lng: number | null; geoPrecision: GeoPrecision } {
  if (location.geoPrecision !== 'none') return location;
  const centroid = countryCentroid(country);
  return { lat: centroid.lat, lng: centroid.lng, geoPrecision: 'country' };
}
