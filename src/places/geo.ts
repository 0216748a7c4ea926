/** Small geographic helpers: distances, point-in-country and country centroids. */
import { iso1A2Code } from '@rapideditor/country-coder';
import { type Country, isCountry } from './countries.js';

export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG). */
const EARTH_RADIUS_KM = 6371.0088;

const toRad = (deg: number): number => (deg * Math.PI) / 180;

/** Haversine distance in km to a point given as two numbers, read from the shard's columns without an object each. */
export function distanceKm(a: LatLng, lat: number, lng: number): number {
  const dLat = toRad(lat - a.lat);
  const dLng = toRad(lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The catalogue country containing a point (Liechtenstein included), else undefined. Borders are country-coder's
 * simplified ones, so points near a border or on Lake Constance may go either way.
 */
export function countryOfPoint(lat: number, lng: number): Country | undefined {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return undefined;
  const code = iso1A2Code([lng, lat])?.toLowerCase();
  return isCountry(code) ? code : undefined;
}

/** Each country's official geographic centre, for events known only to be "somewhere in" it. */
const CENTROIDS: Record<Country, LatLng> = {
  ch: { lat: 46.8011, lng: 8.2267 },
  de: { lat: 51.1633, lng: 10.4477 },
  at: { lat: 47.6097, lng: 13.7823 },
};

export function countryCentroid(country: Country): LatLng {
  return { ...CENTROIDS[country] };
}
