/**
 * What a venue's address says of its place: the city it names ("Technikumstrasse 8, 8400 Winterthur, Switzerland"),
 * whether it names the event's city already (so a place line does not repeat it), and the country a source names.
 */
import { type Country, countryNamed, isCountry } from '../places/countries.js';
import { distanceKm, foldName, type Place, resolveCity } from '../places/gazetteer.js';
import { PHRASE_STOPWORDS } from '../places/stoplist.js';

/**
 * Places this close are one area: a venue in a neighbouring town (devopsdays Zurich meets in Winterthur) is still
 * the event its city names, for duplicates and for trusting an address's bare place name.
 */
export const NEIGHBOURING_KM = 25;

/** A country named by a source: a code (ch/CH), or its name in en/de/fr/it. */
export function countryFromName(name: string | undefined): Country | undefined {
  if (!name) return undefined;
  const lower = name.trim().toLowerCase();
  if (isCountry(lower)) return lower;
  return countryNamed(foldName(lower));
}

/** Postcodes as addresses write them: "8005", "CH-8005", "D-10115", "A-1010". */
const POSTCODE = /\b(?:CH|DE?|AT?)-?(?=\d{4,5}\b)|\b\d{4,5}\b/gi;
/** A part led by a postcode: "8400 Winterthur", "CH-8005 Zürich", "D-10115 Berlin". */
const POSTCODE_PLACE = /^(?:(?:CH|DE?|AT?)-?)?(\d{4,5})\s+\p{L}/iu;

/** The comma-separated parts of an address or LOCATION line. */
export function addressParts(text: string): string[] {
  return text.split(/\s*[,;()|\n]\s*|\s+[-–]\s+/).filter(Boolean);
}

export interface AddressCity {
  place: Place;
  /** The place followed a postcode of its country's length (four digits in ch/at, five in de). */
  postcode: boolean;
  /** The part's words that named it, without the postcode. */
  named: string;
}

const postcodeFits = (digits: string, country: Country) => digits.length === (country === 'de' ? 5 : 4);

/**
 * The city among an address's parts, tried from the end: a part led by a postcode, or a short part without digits
 * that is a place name (streets carry house numbers, venue names are long). A country part narrows the look-up.
 */
export function cityOfParts(parts: string[], preferred?: Country): AddressCity | undefined {
  let named: Country | undefined;
  for (const part of [...parts].reverse()) {
    const country = countryFromName(part);
    if (country) {
      named ??= country;
      continue;
    }
    const digits = part.match(POSTCODE_PLACE)?.[1];
    const cleaned = part.replace(POSTCODE, ' ').replace(/\s+/g, ' ').trim();
    if (!cleaned || /\d/.test(cleaned) || cleaned.split(' ').length > 4 || /^https?:/i.test(cleaned)) continue;
    const fits = (place: Place | undefined) =>
      place && (!digits || postcodeFits(digits, place.country)) ? place : undefined;
    const place = named
      ? fits(resolveCity(cleaned, named))
      : (fits(resolveCity(cleaned, preferred)) ?? fits(resolveCity(cleaned)));
    if (place) return { place, postcode: digits !== undefined, named: cleaned };
  }
  return undefined;
}

/**
 * The venue's city when its address names one that should be the event's: in the event's country, and either after
 * a postcode, or a bare part that is the place's own name (not a common word: "Bar" is not Baar) within reach of
 * the city the source gave (a name far away is more likely a word than a move; with no city given, a bare name
 * alone does not make one up).
 */
export function venueCity(venue: string | undefined, country: Country | undefined, city: Place | undefined) {
  if (!venue) return undefined;
  const found = cityOfParts(addressParts(venue), country);
  if (!found || (country && found.place.country !== country)) return undefined;
  if (found.postcode) return found.place;
  const key = foldName(found.named);
  if (key !== foldName(found.place.name) || PHRASE_STOPWORDS.has(key)) return undefined;
  if (!city || distanceKm(city, found.place.lat, found.place.lng) > NEIGHBOURING_KM) return undefined;
  return found.place;
}

/** Whether the address ends in the city ("…, 8400 Winterthur, Switzerland" names Winterthur): then it is not added. */
export function addressNamesCity(venue: string, city: string): boolean {
  const parts = addressParts(venue);
  while (parts.length > 1 && countryFromName(parts.at(-1))) parts.pop();
  const last = parts.at(-1)?.replace(POSTCODE, ' ');
  return last !== undefined && foldName(last) === foldName(city);
}

/** An event's place as one line: the venue, then the city unless the venue's address already ends in it. */
export function placeText(venue: string | null | undefined, city: string | null | undefined): string {
  if (venue && city && addressNamesCity(venue, city)) return venue;
  return [venue, city].filter(Boolean).join(', ');
}
