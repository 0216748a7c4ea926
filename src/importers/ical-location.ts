import type { EventFormat } from '../catalogue/event.js';
import type { Country } from '../places/countries.js';
import { matchPlacePhrase, type Place, resolveCity } from '../places/gazetteer.js';
import { countryFromName } from './enrich.js';

/** Meeting platforms whose links in LOCATION mean the event happens online. */
const ONLINE_HOSTS =
  /\b(?:zoom\.us|meet\.google\.com|teams\.microsoft\.com|teams\.live\.com|webex\.com|whereby\.com|meet\.jit\.si|youtube\.com|youtu\.be|twitch\.tv|discord\.(?:gg|com)|gotomeeting\.com|streamyard\.com|hopin\.com)\b/i;
const ONLINE_WORDS =
  /\b(?:online|virtual|virtuell|webinar|live ?stream|remote|zoom|google meet|microsoft teams|teams meeting|webex|jitsi)\b/i;
/** Postcodes as addresses write them: "8005", "CH-8005", "D-10115", "A-1010". */
const POSTCODE = /\b(?:CH|DE?|AT?)-?(?=\d{4,5}\b)|\b\d{4,5}\b/gi;

export interface LocationInfo {
  format: EventFormat;
  /** The gazetteer's name of the city found in LOCATION, and its country. */
  city?: string;
  country?: Country;
  /** LOCATION as given, unless it is only a link or only the city. */
  venue?: string;
}

/** A city among the comma-separated parts of an address, tried from the end ("…, 8005 Zürich, Switzerland"). */
function cityOfParts(parts: string[], preferred: Country | undefined): Place | undefined {
  let named: Country | undefined;
  for (const part of [...parts].reverse()) {
    const country = countryFromName(part);
    if (country) {
      named ??= country;
      continue;
    }
    const cleaned = part.replace(POSTCODE, ' ').replace(/\s+/g, ' ').trim();
    // Streets carry house numbers; venue names are long. Neither is a city.
    if (!cleaned || /\d/.test(cleaned) || cleaned.split(' ').length > 4 || /^https?:/i.test(cleaned)) continue;
    const place = named ? resolveCity(cleaned, named) : (resolveCity(cleaned, preferred) ?? resolveCity(cleaned));
    if (place) return place;
  }
  return undefined;
}

/** Last resort for "Impact Hub Zürich": a place phrase among the words, from the end (stoplisted, strict). */
function cityOfWords(location: string): Place | undefined {
  const tokens = location.split(/[^\p{L}\p{N}.'-]+/u).filter(Boolean);
  for (let start = tokens.length - 1; start >= 0; start--) {
    const match = matchPlacePhrase(tokens, start);
    if (match) return match.place;
  }
  return undefined;
}

/**
 * Reads an iCal LOCATION: online when it is empty (and there is no GEO), a meeting link, or says online/virtual;
 * hybrid when it also names a city; otherwise in person, with the city found best effort.
 */
export function readLocation(location: string | undefined, hasGeo: boolean, preferred?: Country): LocationInfo {
  const text = location?.replace(/\s+/g, ' ').trim() ?? '';
  if (!text) return { format: hasGeo ? 'in_person' : 'online' };
  const online = ONLINE_HOSTS.test(text) || ONLINE_WORDS.test(text) || /^https?:\/\/\S+$/i.test(text);
  if (/^https?:\/\/\S+$/i.test(text)) return { format: 'online' };
  const parts = text.split(/\s*[,;()|\n]\s*|\s+[-–]\s+/).filter(Boolean);
  const place = cityOfParts(parts, preferred) ?? cityOfWords(text);
  const venue = place && text.toLowerCase() === place.name.toLowerCase() ? undefined : text.slice(0, 300);
  if (!place) return { format: online ? 'online' : 'in_person', venue: online ? undefined : venue };
  return { format: online ? 'hybrid' : 'in_person', city: place.name, country: place.country, venue };
}
