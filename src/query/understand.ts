import { type Country, countryNamed } from '../catalogue/countries.js';
import { closestTopicTerm, foldText, matchLexicon } from '../catalogue/lexicon.js';
import {
  type EventKind,
  type Format,
  isEventKind,
  isFormat,
  isSeniority,
  isTopic,
  type Seniority,
  type TopicSlug,
} from '../catalogue/taxonomy.js';
import { matchPlacePhrase, type Place } from '../places/gazetteer.js';
import { type DateWindowHit, findDateWindow } from './dates.js';

/** What a free-text prompt asks for. Every part ranks; none hard-filters. */
export interface Understanding {
  topics: { slug: TopicSlug; term: string }[];
  seniority: Seniority[];
  formats: Format[];
  price: 'free' | 'paid' | undefined;
  founders: boolean;
  kinds: EventKind[];
  place: { place: Place; mode: 'in' | 'near' } | undefined;
  /** A country named in the prompt ("KI Events in Österreich"); a place named too decides over it. */
  country: Country | undefined;
  window: DateWindowHit | undefined;
  /** Words left for full-text relevance, as the user wrote them. */
  terms: string[];
}

/** Words that introduce a place: "in Zürich" ranks by proximity too, "near Basel" even more so. */
const IN_WORDS = new Set(['in', 'im', 'at', 'a', 'à', 'en', 'au', 'aus', 'zu', 'nach', 'bei']);
const NEAR_WORDS = new Set([
  'near',
  'around',
  'nearby',
  'close',
  'nahe',
  'nähe',
  'naehe',
  'umgebung',
  'um',
  'autour',
  'près',
  'pres',
  'proche',
  'vicino',
  'dintorni',
  'presso',
]);
/** Filler between a place word and the name ("in der Nähe von Bern", "autour de Lausanne"). */
const FILLERS = new Set(['der', 'von', 'de', 'du', 'of', 'to', 'the', 'di', 'la', 'le', 'd', 'region', 'area', 'raum']);
/** A place named without a marker must be a real city, not a village that shares a common word's name. */
const BARE_PLACE_MIN_POPULATION = 20_000;

/** Words that carry no search meaning on their own, in en/de/fr/it. */
const STOPWORDS = new Set(
  (
    'a an and any are all alle also at auf aus bei best d da das de dei del della dem den der des di die du e ein eine einen einer ' +
    'en et event events for für fur from gibt i il im in ist je l la le les looking me mein mit my nach near next of on or oder ' +
    'per pour qui quoi sind some something sur the there this to tous un una und une upcoming veranstaltung veranstaltungen ' +
    'want what where which with with wo zu zum zur evenements événements evento eventi tech technology technologie kommende prochains ' +
    // Who nearly every tech event is for: as search words they only add noise ("events for junior developers").
    'developer developers dev devs engineer engineers entwickler entwicklerinnen developpeur developpeurs développeur ' +
    'développeurs sviluppatore sviluppatori people leute'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}+#'’.-]*/gu;

/** Blanks matched spans so later passes neither see them nor shift offsets. */
function blank(text: string, start: number, length: number): string {
  return text.slice(0, start) + ' '.repeat(length) + text.slice(start + length);
}

interface Word {
  text: string;
  lower: string;
  start: number;
}

function words(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => ({
    text: m[0].replace(/[.'’-]+$/, ''),
    lower: m[0].toLowerCase().replace(/[.'’-]+$/, ''),
    start: m.index,
  }));
}

/** Finds the place of a prompt ("in Zürich", "near Basel", "in der Nähe von Bern", "autour de Lausanne", "Zürich"). */
function findPlace(list: Word[]): { place: Place; mode: 'in' | 'near'; from: number; to: number } | undefined {
  const tokens = list.map((w) => w.text);
  for (let i = 0; i < list.length; i++) {
    const w = list[i]!.lower;
    const near = NEAR_WORDS.has(w);
    if (!near && !IN_WORDS.has(w)) continue;
    let j = i + 1;
    while (j < list.length && (FILLERS.has(list[j]!.lower) || NEAR_WORDS.has(list[j]!.lower))) j++;
    const match = j < list.length ? matchPlacePhrase(tokens, j) : undefined;
    if (match) return { place: match.place, mode: near ? 'near' : 'in', from: i, to: j + match.length };
  }
  for (let i = 0; i < list.length; i++) {
    if (STOPWORDS.has(list[i]!.lower)) continue;
    const match = matchPlacePhrase(tokens, i);
    if (match && match.place.population >= BARE_PLACE_MIN_POPULATION)
      return { place: match.place, mode: 'in', from: i, to: i + match.length };
  }
  return undefined;
}

/** Reads a prompt in English, German, French or Italian into facets and remaining full-text words. */
export function understandQuery(q: string, now: Date, timeZone: string): Understanding {
  const result: Understanding = {
    topics: [],
    seniority: [],
    formats: [],
    price: undefined,
    founders: false,
    kinds: [],
    place: undefined,
    country: undefined,
    window: undefined,
    terms: [],
  };
  if (!q.trim()) return result;
  let rest = q;

  const window = findDateWindow(rest, now, timeZone);
  if (window) {
    result.window = window;
    rest = blank(rest, window.start, window.length);
  }

  for (const hit of matchLexicon(rest)) {
    if (hit.kind === 'topic' && isTopic(hit.value)) {
      if (!result.topics.some((t) => t.slug === hit.value))
        result.topics.push({ slug: hit.value, term: q.slice(hit.start, hit.start + hit.length) });
    } else if (hit.kind === 'seniority' && isSeniority(hit.value)) {
      if (!result.seniority.includes(hit.value)) result.seniority.push(hit.value);
    } else if (hit.kind === 'format' && isFormat(hit.value)) {
      if (!result.formats.includes(hit.value)) result.formats.push(hit.value);
    } else if (hit.kind === 'price') {
      result.price = hit.value === 'paid' ? 'paid' : 'free';
    } else if (hit.kind === 'audience') {
      result.founders = true;
    } else if (hit.kind === 'eventKind' && isEventKind(hit.value)) {
      if (!result.kinds.includes(hit.value)) result.kinds.push(hit.value);
    }
    rest = blank(rest, hit.start, hit.length);
  }
  // "Founders" is an audience, not a seniority level of its own: keep the executive reading out of the way.
  if (result.founders) result.seniority = result.seniority.filter((s) => s !== 'executive');

  for (const w of words(rest)) {
    // Country names in en/de/fr/it: "in Österreich" searches Austria when `country` is not given.
    const named = countryNamed(foldText(w.text));
    if (!named) continue;
    result.country ??= named;
    rest = blank(rest, w.start, w.text.length);
  }

  const list = words(rest);
  const place = findPlace(list);
  if (place) result.place = { place: place.place, mode: place.mode };
  const left = list
    .filter((_, i) => !place || i < place.from || i >= place.to)
    .filter(
      (w) => w.lower.length >= 2 && !STOPWORDS.has(w.lower) && !IN_WORDS.has(w.lower) && !NEAR_WORDS.has(w.lower),
    );
  // A word the lexicon does not know may be a misspelt topic term ("Kubernets", "Pyhton").
  for (const w of left) {
    const fuzzy = closestTopicTerm(w.text);
    if (!fuzzy) result.terms.push(w.text);
    else if (!result.topics.some((t) => t.slug === fuzzy.slug)) result.topics.push(fuzzy);
  }
  return result;
}

/** The country a prompt is about: the explicit parameter, else that of a place it names, else a country it names. */
export function effectiveCountry(understanding: Understanding, country: Country, explicit: boolean): Country {
  if (explicit) return country;
  return understanding.place?.place.country ?? understanding.country ?? country;
}
