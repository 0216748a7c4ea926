import { addressParts, cityOfParts } from '../catalogue/address.js';
import type { EventFormat } from '../catalogue/event.js';
import type { Country } from '../places/countries.js';
import {
  allPlaces,
  countryOfPoint,
  distanceKm,
  type LatLng,
  matchPlacePhrase,
  type Place,
  resolveCity,
} from '../places/gazetteer.js';

/** Meeting platforms whose links in LOCATION mean the event happens online. */
const ONLINE_HOSTS =
  /\b(?:zoom\.us|meet\.google\.com|teams\.microsoft\.com|teams\.live\.com|webex\.com|whereby\.com|meet\.jit\.si|youtube\.com|youtu\.be|twitch\.tv|discord\.(?:gg|com)|gotomeeting\.com|streamyard\.com|hopin\.com)\b/i;
const ONLINE_WORDS =
  /\b(?:online|virtual|virtuell|webinar|live ?stream|remote|zoom|google meet|microsoft teams|teams meeting|webex|jitsi)\b/i;
/** A meeting room's link (Zoom, Meet, Teams…): the event is held online, and that is where one joins. */
export const isMeetingLink = (url: string): boolean => /^https?:\/\/\S+$/i.test(url) && ONLINE_HOSTS.test(url);

export interface LocationInfo {
  /** Absent when nothing says how the event is held. */
  format?: EventFormat;
  /** The gazetteer's name of the city found in LOCATION, and its country. */
  city?: string;
  country?: Country;
  /** LOCATION as given, unless it is only a link or only the city. */
  venue?: string;
}

/** A place phrase among the words, from the end (stoplisted, strict). */
function placePhraseIn(text: string): Place | undefined {
  const tokens = text.split(/[^\p{L}\p{N}.'-]+/u).filter(Boolean);
  for (let start = tokens.length - 1; start >= 0; start--) {
    const match = matchPlacePhrase(tokens, start);
    if (match) return match.place;
  }
  return undefined;
}

/**
 * Last resort for "Impact Hub Zürich": a place phrase in the parts without house numbers first (so "Impact Hub
 * Lausanne, Rue de Genève 77" is in Lausanne), then anywhere.
 */
function cityOfWords(location: string, parts: string[]): Place | undefined {
  for (const part of [...parts].reverse()) {
    if (/\d/.test(part)) continue;
    const place = placePhraseIn(part);
    if (place) return place;
  }
  return placePhraseIn(location);
}

/**
 * Reads an iCal LOCATION: a meeting link, or words saying online/virtual, make it online; hybrid when it also names
 * a city; otherwise in person, with the city found best effort. An empty LOCATION says nothing (see readEventPlace).
 */
export function readLocation(location: string | undefined, hasGeo: boolean, preferred?: Country): LocationInfo {
  const text = location?.replace(/\s+/g, ' ').trim() ?? '';
  if (!text) return hasGeo ? { format: 'in_person' } : {};
  const online = ONLINE_HOSTS.test(text) || ONLINE_WORDS.test(text) || /^https?:\/\/\S+$/i.test(text);
  if (/^https?:\/\/\S+$/i.test(text)) return { format: 'online' };
  const parts = addressParts(text);
  const place = cityOfParts(parts, preferred)?.place ?? cityOfWords(text, parts);
  const venue = place && text.toLowerCase() === place.name.toLowerCase() ? undefined : text.slice(0, 300);
  if (!place) return { format: online ? 'online' : 'in_person', venue: online ? undefined : venue };
  return { format: online ? 'hybrid' : 'in_person', city: place.name, country: place.country, venue };
}

/** GEO's point, as ical.js reads it. */
export type Point = LatLng;

/** Towns within TOWN_KM of a point may name it; otherwise a place within PLACE_KM (a village). */
const TOWN_KM = 12;
const PLACE_KM = 3;
/** Degrees of latitude and longitude (at 45–55° N) a little beyond TOWN_KM, to skip far places cheaply. */
const NEAR_LAT = 0.12;
const NEAR_LNG = 0.2;

/**
 * The place a point in ch/de/at is at: of the towns near it, the one that weighs most by inhabitants over the square of
 * its distance (so Zürich, not its district around the point, and Dübendorf, not Zürich next door); else the
 * nearest place within PLACE_KM.
 */
export function placeOfPoint(point: Point): Place | undefined {
  const country = countryOfPoint(point.lat, point.lng);
  if (!country) return undefined;
  let town: { place: Place; weight: number } | undefined;
  let near: { place: Place; km: number } | undefined;
  for (const place of allPlaces()) {
    if (place.country !== country) continue;
    if (Math.abs(place.lat - point.lat) > NEAR_LAT || Math.abs(place.lng - point.lng) > NEAR_LNG) continue;
    const km = distanceKm(point, place.lat, place.lng);
    const weight = place.population / Math.max(1, km) ** 2;
    if (place.population >= TOWN && km <= TOWN_KM && (!town || weight > town.weight)) town = { place, weight };
    if (km <= PLACE_KM && (!near || km < near.km)) near = { place, km };
  }
  return (town ?? near)?.place;
}

/** What LOCATION says, with the city of the event's GEO when LOCATION names none. */
export function placedAt(info: LocationInfo, geo: Point | undefined): LocationInfo {
  if (info.city || !geo || info.format === 'online') return info;
  const place = placeOfPoint(geo);
  return place ? { ...info, city: place.name, country: place.country } : info;
}

/** Where an event's place was read from: its own LOCATION or GEO, a line of its description, or nowhere. */
export type PlaceSource = 'event' | 'description' | 'calendar';

export interface EventPlace extends LocationInfo {
  /** `calendar`: the event names no place, so its calendar's city stands in (and its format is not known). */
  from: PlaceSource;
}

/** Meeting rooms, not channels: a Zoom or Teams link in a description means people join from afar. */
const MEETING_LINKS =
  /\b(?:zoom\.us\/j|meet\.google\.com|teams\.microsoft\.com\/l\/meetup|teams\.live\.com\/meet|webex\.com\/meet|whereby\.com|meet\.jit\.si|gotomeeting\.com\/join|streamyard\.com\/watch)\b/i;
/** A title that says it: "Online: …", "[Virtual] …", "Webinar". */
const ONLINE_TITLE = /\b(?:online|virtual|virtuell|webinar|livestream|remote[- ]only)\b/i;
/** A description that says it outright (not a passing "RSVP online" or "our Discord"). */
const ONLINE_SAID =
  /\b(?:online[- ](?:event|meetup|only|session|edition|talk)|(?:this|the) (?:event|meetup|session|talk) (?:is|will be) (?:held |hosted )?(?:online|virtual)|virtual (?:event|meetup|session)|held (?:online|virtually)|(?:findet|läuft) online statt|nur online|en ligne uniquement|événement en ligne|evento online)\b/i;
const HYBRID_SAID =
  /\bhybrid\b|in[- ]person (?:and|&|or) online|online (?:and|&|or) in[- ]person|vor ort (?:und|&|oder) online/i;
/** "Location: …", "📍 Ort: …", "Venue: …", "Lieu : …" (emoji and markdown before the label allowed). */
const PLACE_LINE =
  /^[^\p{L}\p{N}\n]*(?:location|venue|address|where|ort|veranstaltungsort|adresse|wo|lieu|luogo|indirizzo|dove)[*_]*\s*:\s*[*_]*(.+)$/gimu;
/** A line carrying an address with a postcode: "Sihlquai 131, 8005 Zürich", "CH-8005 Zürich". */
const ADDRESS_LINE = /^.*\b(?:CH-|D-|DE-|A-|AT-)?\d{4,5} +\p{Lu}[\p{L}.-]+.*$/gmu;

/** Inhabitants of a place named in a description without a postcode: smaller ones are more often words. */
const TOWN = 10_000;
const POSTCODE_BEFORE_NAME = /\b(?:CH-|D-|DE-|A-|AT-)?\d{4,5} +\p{Lu}/u;

/** A line as a person reads it: without markdown marks, links as their text, at most one short line. */
const plain = (line: string) =>
  line
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);

/** A place the description names on a line of its own: a labelled line, or an address with a postcode. */
function placeInDescription(description: string, preferred: Country | undefined): LocationInfo | undefined {
  const candidates = [
    ...[...description.matchAll(PLACE_LINE)].map((m) => m[1] ?? ''),
    ...[...description.matchAll(ADDRESS_LINE)].map((m) => m[0]),
  ];
  for (const candidate of candidates) {
    const line = plain(candidate);
    if (!line || ONLINE_WORDS.test(line) || /^https?:/i.test(line)) continue;
    const found = readLocation(line, false, preferred);
    // Only a line that leads to a city is a place: "Location: sent by PM" or "TBA" is not a venue. Free text is
    // full of small places' names ("Sent" is a village), so a city without a postcode beside it must be a town.
    const town = found.city ? (resolveCity(found.city, found.country)?.population ?? 0) >= TOWN : false;
    if (found.city && (town || POSTCODE_BEFORE_NAME.test(line)))
      return { city: found.city, country: found.country, venue: found.venue };
  }
  return undefined;
}

/**
 * Where one calendar event happens, from what it says of itself: its LOCATION or GEO (the town at its point when
 * LOCATION names none); else a place named in its
 * description; online only when its title or description says so (or carries a meeting link), hybrid when it says
 * both. An event that says nothing of its place has no format here: its calendar's city stands in, in person.
 */
export function readEventPlace(event: {
  location: string | undefined;
  hasGeo: boolean;
  /** GEO's point, when the caller has it: it names the town when LOCATION does not. */
  geo?: Point | undefined;
  title: string;
  description: string | undefined;
  preferred?: Country | undefined;
}): EventPlace {
  const location = event.location?.replace(/\s+/g, ' ').trim();
  if (location || event.hasGeo)
    return { ...placedAt(readLocation(location, event.hasGeo, event.preferred), event.geo), from: 'event' };
  const description = event.description ?? '';
  const online = ONLINE_TITLE.test(event.title) || MEETING_LINKS.test(description) || ONLINE_SAID.test(description);
  const hybrid = HYBRID_SAID.test(`${event.title}\n${description}`);
  const named = placeInDescription(description, event.preferred);
  if (named) return { ...named, format: online || hybrid ? 'hybrid' : 'in_person', from: 'description' };
  if (hybrid) return { format: 'hybrid', from: 'calendar' };
  if (online) return { format: 'online', from: 'event' };
  return { from: 'calendar' };
}
