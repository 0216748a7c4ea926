/**
 * Populated places of CH, DE and AT (GeoNames cities500, see ./data/README.md), found by any common name or spelling.
 * The JSON is imported with an import attribute so that `tsc` copies it into dist/.
 */
import { LOCAL_NAMES } from './aliases.js';
import { type Country, isCountry } from './countries.js';
import data from './data/dach-places.json' with { type: 'json' };
import { foldName, foldStrict, loosen, slugifyName } from './fold.js';
import { PHRASE_STOPWORDS } from './stoplist.js';

export { foldName } from './fold.js';
export { countryCentroid, countryOfPoint, distanceKm, type LatLng } from './geo.js';

export interface Place {
  geonameId: number;
  /** Display name as in GeoNames, or the local form where GeoNames uses an exonym ("Wien"). */
  name: string;
  /** ASCII slug, unique per country (the most populous place keeps a contested slug). */
  slug: string;
  country: Country;
  lat: number;
  lng: number;
  population: number;
}

/** One name of a place; `main` marks its display name. */
interface Entry {
  place: Place;
  main: boolean;
  /** `foldStrict` of the name: "zurich" for "Zürich", "zuerich" for "Zuerich". */
  strict: string;
  /** For a local name (aliases.ts): the forms it must be typed in, accents kept ("bärn", "baern"; not "barn"). */
  typed?: readonly string[];
}

interface Index {
  places: readonly Place[];
  /** Entries keyed by `foldName` (ae/oe/ue collapsed), so "zurich" holds both names above. */
  names: ReadonlyMap<string, readonly Entry[]>;
  slugs: ReadonlyMap<string, Place>;
}

/** Phrases longer than this are not place names worth trying (cf. "Freiburg im Breisgau"). */
const MAX_PHRASE_TOKENS = 4;
/** `matchPlacePhrase` ignores smaller places unless the phrase is their main name. */
const MIN_PHRASE_POPULATION = 1000;

/** See `score`. */
const MAIN_NAME_WEIGHT = 10;

function byRank(a: Place, b: Place): number {
  return b.population - a.population || a.geonameId - b.geonameId;
}

function buildIndex(): Index {
  const places: Place[] = [];
  const names = new Map<string, Entry[]>();
  for (const row of data.places) {
    const [geonameId, name, lat, lng, country, population, alternates] = row as [
      number,
      string,
      number,
      number,
      string,
      number,
      string[],
    ];
    if (!isCountry(country)) continue;
    const place: Place = { geonameId, name, slug: slugifyName(name), country, lat, lng, population };
    places.push(place);
    const local = LOCAL_NAMES[geonameId] ?? [];
    for (const [i, n] of [name, ...alternates, ...local].entries()) {
      const strict = foldStrict(n);
      const key = loosen(strict);
      if (!key) continue;
      const entry: Entry = { place, main: i === 0, strict };
      if (i > alternates.length) entry.typed = typedForms(n);
      const entries = names.get(key);
      if (entries) entries.push(entry);
      else names.set(key, [entry]);
    }
  }
  // Most populous first, so the first place to claim a slug keeps it.
  const slugs = new Map<string, Place>();
  for (const place of [...places].sort(byRank)) {
    const key = `${place.country}/${place.slug}`;
    if (place.slug && !slugs.has(key)) slugs.set(key, place);
  }
  return { places, names, slugs };
}

/** Built when the module loads, never changed after: every process that imports the gazetteer looks places up. */
const getIndex = (): Index => INDEX;

/** Lower-case with punctuation collapsed but accents kept: "Verl" ≠ "Werl", "Neuenburg" ≠ "Neuenbürg". */
function exactKey(s: string): string {
  return s
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * An exact main name outranks places listing it as an alternate unless they are over ten times larger ("Verl" is
 * Verl, not Werl; "Halle" is still Halle (Saale)); otherwise population decides, then the lower id.
 */
function score({ place, main }: Entry, query: string): number {
  const weight = main && exactKey(place.name) === query ? MAIN_NAME_WEIGHT : 1;
  return (place.population + 1) * weight - place.geonameId / 1e9;
}

/** A local name as it may be typed: with its accents, or with them written out ("Bärn", "Baern"). */
function typedForms(name: string): string[] {
  const key = exactKey(name);
  return [key, key.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue')];
}

/** Strict matches first, so "Neuenkirchen" is not the larger Neunkirchen nor "Au" Aue; "Zuerich" still finds Zürich. */
function lookup(name: string, accept: (entry: Entry) => boolean): Entry | undefined {
  const strict = foldStrict(name);
  const query = exactKey(name);
  // A local name folds to what may be a word ("Bärn" to "barn"): it counts only as its own people write it.
  const loose = getIndex()
    .names.get(loosen(strict))
    ?.filter((e) => accept(e) && (!e.typed || e.typed.includes(query)));
  if (!loose?.length) return undefined;
  const strictMatches = loose.filter((e) => e.strict === strict);
  const candidates = strictMatches.length ? strictMatches : loose;
  return candidates.reduce((best, e) => (score(e, query) > score(best, query) ? e : best));
}

/** A city name in any language or spelling ("Genf", "Zuerich") as the best place, within `country` if given. */
export function resolvePlace(name: string, country?: Country): Place | undefined {
  if (!foldStrict(name)) return undefined;
  return lookup(name, (e) => !country || e.place.country === country)?.place;
}

/** Venues that sources give as a city, mapped to the place they lie in (keys folded). */
const VENUE_ALIASES: Readonly<Record<string, { name: string; country: Country }>> = {
  nurburgring: { name: 'Adenau', country: 'de' },
};

/**
 * Resolves an event's city as hosts write it: a name, a venue alias, or a compound led by the city ("Bern,
 * Switzerland", "Basel / Online"); compounds that are a place of their own ("Rapperswil-Jona") are tried whole first.
 */
export function resolveCity(text: string, country?: Country): Place | undefined {
  const whole = resolvePlace(text, country);
  if (whole) return whole;
  const alias = VENUE_ALIASES[foldName(text)];
  if (alias && (!country || alias.country === country)) return resolvePlace(alias.name, alias.country);
  const first = text.split(/\s*[,/(]\s*|\s+-\s+|-/)[0];
  return first && first !== text ? resolvePlace(first, country) : undefined;
}

export function placeBySlug(country: Country, slug: string): Place | undefined {
  return getIndex().slugs.get(`${country}/${slug.toLowerCase()}`);
}

/**
 * The longest run of 1–4 tokens at `start` that names a place, for scanning free text: stricter than `resolvePlace`
 * (stoplisted common words never match; places under 1000 inhabitants only by their main name).
 */
export function matchPlacePhrase(tokens: string[], start: number): { place: Place; length: number } | undefined {
  if (!Number.isInteger(start) || start < 0) return undefined;
  const longest = Math.min(MAX_PHRASE_TOKENS, tokens.length - start);
  for (let length = longest; length >= 1; length--) {
    const phrase = tokens.slice(start, start + length).join(' ');
    const key = foldName(phrase);
    if (!key || PHRASE_STOPWORDS.has(key)) continue;
    const entry = lookup(phrase, (e) => e.main || e.place.population >= MIN_PHRASE_POPULATION);
    if (entry) return { place: entry.place, length };
  }
  return undefined;
}

/** All places, in GeoNames id order. */
export function allPlaces(): readonly Place[] {
  return getIndex().places;
}

const INDEX: Index = buildIndex();
