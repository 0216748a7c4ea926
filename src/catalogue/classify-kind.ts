import { DateTime } from 'luxon';
import { COUNTRY_INFO } from '../places/countries.js';
import type { CatalogueEvent } from './event.js';
import { matchLexicon } from './lexicon.js';
import { type EventKind, isEventKind } from './taxonomy.js';

/**
 * Sources that list only conferences: the conference data sets of the shipped feeds, and `curated` (the confs.tech
 * snapshot as the relevance evaluation loads it).
 */
const CONFERENCE_SOURCES: ReadonlySet<string> = new Set(['curated', 'confs-tech', 'devopsdays', 'developers-events']);

/** An evening gathering starts between these local hours and lasts at most MEETUP_HOURS. */
const EVENING_FROM = 17;
const EVENING_UNTIL = 21;
const MEETUP_HOURS = 5;

/**
 * Whether an event has the shape of a meetup: in person (or hybrid), starting in the evening, over within a few
 * hours — "Python Zürich: Polars & DuckDB", "Cologne.js", "SwissAI Talks" are meetups though their titles do not say
 * so. Not a conference or hackathon, and not from a source of conferences.
 */
function eveningGathering(
  event: Pick<CatalogueEvent, 'start' | 'end' | 'allDay' | 'format' | 'country'>,
  kinds: ReadonlySet<EventKind>,
): boolean {
  if (event.allDay || event.format === 'online' || kinds.has('conference') || kinds.has('hackathon')) return false;
  const hour = DateTime.fromJSDate(event.start, { zone: COUNTRY_INFO[event.country].timeZone }).hour;
  const hours = event.end ? (event.end.getTime() - event.start.getTime()) / 3_600_000 : 3;
  return hour >= EVENING_FROM && hour < EVENING_UNTIL && hours <= MEETUP_HOURS;
}

/**
 * What kind of event this is (meetup, conference, …): from the words of its title; for the conference data sets
 * (confs.tech, devopsdays, developers.events) a conference unless the title says otherwise; and a meetup, too, when
 * it has a meetup's shape (an evening of a few hours in person: see eveningGathering).
 */
export function classifyKinds(
  event: Pick<CatalogueEvent, 'title' | 'source' | 'start' | 'end' | 'allDay' | 'format' | 'country'>,
): Set<EventKind> {
  const kinds = new Set<EventKind>();
  for (const hit of matchLexicon(event.title))
    if (hit.kind === 'eventKind' && isEventKind(hit.value)) kinds.add(hit.value);
  if (CONFERENCE_SOURCES.has(event.source)) {
    if (kinds.size === 0) kinds.add('conference');
  } else if (!kinds.has('meetup') && eveningGathering(event, kinds)) {
    kinds.add('meetup');
  }
  return kinds;
}
