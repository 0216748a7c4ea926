import { DateTime } from 'luxon';
import { COUNTRY_INFO } from '../places/countries.js';
import type { CatalogueEvent } from './event.js';
import { foldText, matchLexicon } from './lexicon.js';
import { type EventKind, isEventKind } from './taxonomy.js';

/** Sources listing only conferences (`curated`: the confs.tech snapshot of the relevance evaluation). */
const CONFERENCE_SOURCES: ReadonlySet<string> = new Set(['curated', 'confs-tech', 'devopsdays', 'developers-events']);

/** An evening gathering starts between these local hours and lasts at most MEETUP_HOURS. */
const EVENING_FROM = 17;
const EVENING_UNTIL = 21;
const MEETUP_HOURS = 5;

/** A gathering of a few hours in person: a founders' breakfast or an apéro is a meetup as much as an evening talk. */
function shortInPerson(event: Pick<CatalogueEvent, 'start' | 'end' | 'allDay' | 'format'>): boolean {
  if (event.allDay || event.format === 'online') return false;
  const hours = event.end ? (event.end.getTime() - event.start.getTime()) / 3_600_000 : 3;
  return hours <= MEETUP_HOURS;
}

/**
 * A meetup's shape: in person, starting in the evening, over in a few hours ("Cologne.js" is a meetup though its title
 * does not say so). Never a conference or hackathon, or from a conference source.
 */
function eveningGathering(
  event: Pick<CatalogueEvent, 'start' | 'end' | 'allDay' | 'format' | 'country'>,
  kinds: ReadonlySet<EventKind>,
): boolean {
  if (!shortInPerson(event) || kinds.has('conference') || kinds.has('hackathon')) return false;
  const hour = DateTime.fromJSDate(event.start, { zone: COUNTRY_INFO[event.country].timeZone }).hour;
  return hour >= EVENING_FROM && hour < EVENING_UNTIL;
}

/** Words naming a day of talks in a title ("Rust Day") but only a span of time in a description. */
const DAY_TERMS: ReadonlySet<string> = new Set(['day', 'tag', 'tage', 'journee', 'giornata']);

/** The kinds of event a text names, in the order it names them. */
function kindsNamed(text: string, skipDays = false): EventKind[] {
  const kinds: EventKind[] = [];
  for (const hit of matchLexicon(text)) {
    if (hit.kind !== 'eventKind' || !isEventKind(hit.value)) continue;
    if (skipDays && DAY_TERMS.has(foldText(hit.term))) continue;
    kinds.push(hit.value);
  }
  return kinds;
}

/** The first sentence of a description: where a listing says what the event is ("Ganztägiger Workshop für …"). */
function firstSentence(description: string | undefined): string {
  if (!description) return '';
  const end = description.search(/[.!?:\n]/);
  return (end < 0 ? description : description.slice(0, end)).slice(0, 200);
}

/**
 * The kinds of an event: from its title's words, else its description's first sentence; conference sources are
 * conferences unless the title says otherwise; a meetup too with a meetup's shape (eveningGathering).
 */
export function classifyKinds(
  event: Pick<CatalogueEvent, 'title' | 'description' | 'source' | 'start' | 'end' | 'allDay' | 'format' | 'country'>,
): Set<EventKind> {
  const kinds = new Set<EventKind>(kindsNamed(event.title));
  if (CONFERENCE_SOURCES.has(event.source)) {
    if (kinds.size === 0) kinds.add('conference');
    return kinds;
  }
  if (kinds.size === 0) {
    const first = kindsNamed(firstSentence(event.description ?? undefined), true)[0];
    if (first) kinds.add(first);
  }
  if (!kinds.has('meetup') && (eveningGathering(event, kinds) || (kinds.has('networking') && shortInPerson(event))))
    kinds.add('meetup');
  return kinds;
}
