import { closestTopicTerm, foldText, isLexiconWord, isTopicName, matchLexicon } from '../../catalogue/lexicon.js';
import { technologiesNamed } from '../../catalogue/lexicon-technologies.js';
import {
  type EventKind,
  type Format,
  isEventKind,
  isFormat,
  isSeniority,
  isTopic,
  type Seniority,
  type TopicSlug,
} from '../../catalogue/taxonomy.js';
import { type Country, countryNamed } from '../../places/countries.js';
import { matchPlacePhrase, type Place } from '../../places/gazetteer.js';
import { type DateWindowHit, findDateWindow } from './dates.js';
import { isFiller } from './filler.js';
import { findHome } from './home.js';
import { readWishes, type SpokenLanguage } from './wishes.js';
import { blank, type Word, words } from './words.js';

/** A topic term of the prompt. */
export interface AskedTopic {
  slug: TopicSlug;
  /** The lexicon's spelling of the word that named it ("Java", "KI", "PGConf"). */
  term: string;
  /** The word is more specific than the field: a technology or a name (see lexicon-technologies.ts). */
  specific: boolean;
}

/** A technology or name the prompt asks for by a word more specific than its field. */
export interface AskedTechnology {
  /** The lexicon's spelling ("Java", "PostgreSQL"). */
  term: string;
  /** As typed ("java", "Postgres"). */
  typed: string;
  /** The technologies it names (lexicon-technologies.ts). */
  ids: readonly string[];
}

/**
 * What a prompt asks: what it names (fields, kinds, format, price, audience, place, country, dates, CFP) is a
 * constraint (ranking/constraints.ts); where the person is and their language only order; leftover words rank.
 */
export interface Understanding {
  /** Every field the prompt names, or implies by a specific word. */
  topics: AskedTopic[];
  /** The specific technologies and names, one per word. */
  technologies: AskedTechnology[];
  seniority: Seniority[];
  formats: Format[];
  price: 'free' | 'paid' | undefined;
  founders: boolean;
  kinds: EventKind[];
  /** Where the events should be ("in Zürich", "near Basel", "KI Hamburg"); `span`: its words in the prompt. */
  place: { place: Place; mode: 'in' | 'near'; span?: readonly [start: number, end: number] } | undefined;
  /** Where the person is ("living in Munich", "j'habite à Lausanne"): a preference among the answers, not a place asked. */
  home: { place: Place; mode: 'in' | 'near' } | undefined;
  /** A country named in the prompt ("KI Events in Österreich"); a place named too decides over it. */
  country: Country | undefined;
  /** Where the prompt names that country. */
  countrySpan?: readonly [start: number, end: number];
  window: DateWindowHit | undefined;
  /** A call for papers asked for ("Call for Papers offen", "appel à conférences ouvert"): `cfp=open`. */
  cfp: boolean;
  /** The language the person would like events held in ("ideally in English"): a wish that orders, not a filter. */
  language: SpokenLanguage | undefined;
  /** Words left for full-text relevance, as the user wrote them. */
  terms: string[];
  /** The prompt without the filler around it ("I'm looking for Rust Day" → "Rust Day"), for names found as typed. */
  phrase: string;
}

/** Words that introduce a place: "in Zürich" ranks by proximity too, "near Basel" even more so. */
const IN_WORDS: ReadonlySet<string> = new Set(['in', 'im', 'at', 'a', 'à', 'en', 'au', 'aus', 'zu', 'nach', 'bei']);
const NEAR_WORDS: ReadonlySet<string> = new Set([
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
const FILLERS: ReadonlySet<string> = new Set([
  'der',
  'von',
  'de',
  'du',
  'of',
  'to',
  'the',
  'di',
  'la',
  'le',
  'd',
  'region',
  'area',
  'raum',
]);
/** A place named without a marker must be a real city, not a village that shares a common word's name. */
const BARE_PLACE_MIN_POPULATION = 20_000;

const isMarker = (w: string) => IN_WORDS.has(w) || NEAR_WORDS.has(w);

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
    if (isFiller(list[i]!.lower)) continue;
    const match = matchPlacePhrase(tokens, i);
    if (match && match.place.population >= BARE_PLACE_MIN_POPULATION)
      return { place: match.place, mode: 'in', from: i, to: i + match.length };
  }
  return undefined;
}

/** Phrases whose words mean something else alone: "guten Morgen" is no date, the "ai" of "j'ai" no AI. */
const IDIOMS =
  /(?<![\p{L}\p{N}])(?:guten\s+(?:tag|morgen|abend)|good\s+(?:morning|evening|afternoon)|[jnmt]['’]ai)(?![\p{L}\p{N}])/giu;

/** The prompt's words without the filler and place words before the first and after the last word that counts. */
function trimmedPhrase(q: string): string {
  const list = words(q);
  const counts = (w: Word) => (!isFiller(w.lower) || isLexiconWord(foldText(w.lower))) && !isMarker(w.lower);
  const first = list.findIndex(counts);
  if (first < 0) return '';
  let last = list.length - 1;
  while (!counts(list[last]!)) last--;
  return list
    .slice(first, last + 1)
    .map((w) => w.text)
    .join(' ');
}

const emptyUnderstanding = (): Understanding => ({
  topics: [],
  technologies: [],
  seniority: [],
  formats: [],
  price: undefined,
  founders: false,
  kinds: [],
  place: undefined,
  home: undefined,
  country: undefined,
  window: undefined,
  cfp: false,
  language: undefined,
  terms: [],
  phrase: '',
});

/** Adds a topic word to what is understood, and the technologies it names when it is more specific than a field. */
function addTopicTerm(result: Understanding, slug: TopicSlug, term: string, typed: string): void {
  const specific = !isTopicName(slug, term);
  if (!result.topics.some((t) => t.slug === slug && t.term === term)) result.topics.push({ slug, term, specific });
  if (specific && !result.technologies.some((t) => t.term === term)) {
    const ids = technologiesNamed(term).filter((id) => !isTopic(id));
    if (ids.length > 0) result.technologies.push({ term, typed, ids });
  }
}

/**
 * Reads the lexicon's words (topics, formats, price, audience, kinds) into `result`; returns the text without them
 * and the seniority levels named, which depend on where the person says they are (read later).
 */
function readLexicon(result: Understanding, q: string, text: string) {
  let rest = text;
  const hits = matchLexicon(rest);
  // A word naming a field and an audience ("CTO", "leadership") asks for the field: counting its audience too would
  // weigh one word twice, enough to outweigh the place asked ("a conference for a CTO in Munich").
  const fieldWords = new Set(hits.filter((h) => h.kind === 'topic').map((h) => h.start));
  const levels: { level: Seniority; at: number }[] = [];
  for (const hit of hits) {
    if (hit.kind === 'topic' && isTopic(hit.value)) {
      addTopicTerm(result, hit.value, hit.term, q.slice(hit.start, hit.start + hit.length));
    } else if (hit.kind === 'seniority' && isSeniority(hit.value)) {
      if (!fieldWords.has(hit.start)) levels.push({ level: hit.value, at: hit.start });
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
  return { rest, levels };
}

/** Country names in en/de/fr/it: "in Österreich" searches Austria when `country` is not given. */
function readCountries(result: Understanding, text: string): string {
  let rest = text;
  for (const w of words(rest)) {
    const named = countryNamed(foldText(w.text));
    if (!named) continue;
    if (!result.country) {
      result.country = named;
      result.countrySpan = [w.start, w.start + w.text.length];
    }
    rest = blank(rest, w.start, w.text.length);
  }
  return rest;
}

/** Reads a prompt in English, German, French or Italian into facets and remaining full-text words. */
export function understandQuery(q: string, now: Date, timeZone: string): Understanding {
  const result = emptyUnderstanding();
  if (!q.trim()) return result;
  const wishes = readWishes(q.replace(IDIOMS, (idiom) => ' '.repeat(idiom.length)));
  result.cfp = wishes.cfp;
  result.language = wishes.language;
  const plainQ = wishes.rest;
  let rest = plainQ;

  const window = findDateWindow(rest, now, timeZone);
  if (window) {
    result.window = window;
    rest = blank(rest, window.start, window.length);
  }
  const lexicon = readLexicon(result, q, rest);
  rest = readCountries(result, lexicon.rest);

  let list = words(rest);
  const home = findHome(list, rest);
  let self: [number, number] | undefined;
  if (home) {
    result.home = { place: home.place, mode: home.mode };
    const last = list[home.to - 1]!;
    self = [list[home.from]!.start, last.start + last.text.length];
    list = list.filter((_, i) => i < home.from || i >= home.to);
  }
  // A level said of the person where they say where they are ("I am a senior engineer living in Munich") describes
  // them, not what they ask for; "Founders" is an audience, not a seniority level of its own.
  for (const { level, at } of lexicon.levels) {
    if (self && at >= self[0] && at < self[1]) continue;
    if (result.founders && level === 'executive') continue;
    if (!result.seniority.includes(level)) result.seniority.push(level);
  }
  const place = findPlace(list);
  if (place) {
    const last = list[place.to - 1]!;
    result.place = {
      place: place.place,
      mode: place.mode,
      span: [list[place.from]!.start, last.start + last.text.length],
    };
  }
  const left = list
    .filter((_, i) => !place || i < place.from || i >= place.to)
    .filter((w) => !isFiller(w.lower) && !isMarker(w.lower));
  // A word the lexicon does not know may be a misspelt topic term ("Kubernets", "Pyhton").
  for (const w of left) {
    const fuzzy = closestTopicTerm(w.text);
    if (fuzzy) addTopicTerm(result, fuzzy.slug, fuzzy.term, w.text);
    else result.terms.push(w.text);
  }
  result.phrase = trimmedPhrase(plainQ);
  return result;
}
