/**
 * Where the person is — lives, is based, comes from, is visiting — as a prompt says it: "living in Munich", "I'm in
 * Zürich", "I'm a student in Lausanne", "wohne in Köln", "ich bin aus Wien", "j'habite à Lausanne", "je suis
 * développeur à Lausanne", "sono di Zurigo", "from Vienna". Distinct from where the events should be ("events in
 * Munich"): the person's place is a preference among what they ask for, not what they ask for.
 */
import { matchPlacePhrase, type Place } from '../../places/gazetteer.js';
import { REQUEST_WORDS } from './filler.js';
import { clauseBreak, type Word } from './words.js';

/** Verbs of living or working somewhere, and of coming from somewhere, followed by where. */
const RESIDENCE: ReadonlySet<string> = new Set(
  (
    'live lives living based located staying work working come comes ' +
    'wohne wohnen wohnhaft lebe leben arbeite arbeiten komme kommen ' +
    'habite habites habitons vis vivons réside reside travaille viens venons basé basée basee ' +
    'abito abitiamo vivo viviamo risiedo lavoro vengo veniamo trovo troviamo'
  ).split(' '),
);
/** Verbs of visiting, followed by the place with or without a preposition ("I'm visiting Zürich"). */
const VISITING: ReadonlySet<string> = new Set('visiting visit besuche besuchen visite visito'.split(' '));
/** Words between such a verb and its place ("I currently live in", "wohne gerade in", "lebe in der Nähe von"). */
const BETWEEN: ReadonlySet<string> = new Set(
  (
    'in im at a à au aux en aus zu bei nahe nähe naehe near around close to of der von de du d da di del ' +
    'della dans près pres vicino from currently now right also just gerade jetzt derzeit momentan aktuell ' +
    'actuellement maintenant attualmente ora adesso'
  ).split(' '),
);
/** Prepositions that introduce the place after "I'm …", "ich bin …", "je suis …", "sono …". */
const MARKERS: ReadonlySet<string> = new Set(
  'in at near around from aus in im bei nahe à a au en de d près di da vicino'.split(' '),
);
const NEAR: ReadonlySet<string> = new Set(
  'near around close nahe nähe naehe près pres proche vicino autour'.split(' '),
);
/** Conjunctions that start a new clause ("I live in Zürich and I'm interested in AI"). */
const CONJUNCTIONS: ReadonlySet<string> = new Set('and und et e ed but aber mais ma'.split(' '));

export interface Home {
  place: Place;
  mode: 'in' | 'near';
  /** Indexes of the words that said it, [from, to). */
  from: number;
  to: number;
}

function clauseStarts(list: Word[], text: string, i: number): boolean {
  return i === 0 || clauseBreak(text, list[i - 1]!, list[i]!) || CONJUNCTIONS.has(list[i - 1]!.lower);
}

/** "I am", "I'm", "we are", "we're", "ich bin", "wir sind", "je suis", "nous sommes", "(io) sono", "siamo". */
function firstPersonCopula(list: Word[], text: string, i: number): boolean {
  const w = list[i]!.lower;
  const prev = i > 0 && !clauseBreak(text, list[i - 1]!, list[i]!) ? list[i - 1]!.lower : '';
  if (w === 'am' || w === 'm') return prev === 'i';
  if (w === 'are' || w === 're') return prev === 'we';
  if (w === 'sind') return prev === 'wir';
  if (w === 'sono') return prev === 'io' || clauseStarts(list, text, i);
  return w === 'bin' || w === 'suis' || w === 'sommes' || w === 'siamo';
}

/** The place named from word `j` on, after skipping words that may stand between a verb and its place. */
function placeAfter(list: Word[], text: string, j: number, tokens: string[]) {
  let near = false;
  let k = j;
  while (k < list.length && BETWEEN.has(list[k]!.lower) && !clauseBreak(text, list[k - 1]!, list[k]!)) {
    if (NEAR.has(list[k]!.lower)) near = true;
    k++;
  }
  if (k >= list.length || (k > 0 && clauseBreak(text, list[k - 1]!, list[k]!))) return undefined;
  const match = matchPlacePhrase(tokens, k);
  return match
    ? { place: match.place, mode: near ? ('near' as const) : ('in' as const), to: k + match.length }
    : undefined;
}

/** The person's own place, if the prompt says where they are (see the module comment). */
export function findHome(list: Word[], text: string): Home | undefined {
  const tokens = list.map((w) => w.text);
  for (let i = 0; i < list.length; i++) {
    const w = list[i]!.lower;
    // "living in Munich", "wohne in Köln", "j'habite à Lausanne", "vengo da Lugano", "I'm visiting Zürich"
    if (RESIDENCE.has(w) || VISITING.has(w)) {
      const found = placeAfter(list, text, i + 1, tokens);
      if (found) return { ...found, from: i };
      continue;
    }
    // "From Zurich.", "from Vienna, looking for…", "aus Wien, suche…"
    if ((w === 'from' || w === 'aus') && clauseStarts(list, text, i)) {
      const match = matchPlacePhrase(tokens, i + 1);
      if (match) return { place: match.place, mode: 'in', from: i, to: i + 1 + match.length };
      continue;
    }
    // "I'm in Basel", "I'm a student in Lausanne", "ich bin aus Wien", "je suis développeur à Lausanne",
    // "sono di Zurigo"; not "I'm looking for a meetup in Zürich", nor "Ci sono eventi … a Zurigo".
    if (firstPersonCopula(list, text, i)) {
      for (let j = i + 1; j < list.length && j <= i + 5; j++) {
        const next = list[j]!;
        if (clauseBreak(text, list[j - 1]!, next) || CONJUNCTIONS.has(next.lower) || REQUEST_WORDS.has(next.lower))
          break;
        if (!MARKERS.has(next.lower)) continue;
        const found = placeAfter(list, text, j, tokens);
        if (found) return { ...found, from: i };
      }
    }
  }
  return undefined;
}
