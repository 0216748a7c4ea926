import type { CatalogueEvent } from './event.js';
import { matchLexicon } from './lexicon.js';
import { type EventKind, isEventKind } from './taxonomy.js';

/**
 * Sources that list only conferences: the conference data sets of the shipped feeds, and `curated` (the confs.tech
 * snapshot as the relevance evaluation loads it).
 */
const CONFERENCE_SOURCES: ReadonlySet<string> = new Set(['curated', 'confs-tech', 'devopsdays', 'developers-events']);

/**
 * What kind of event this is (meetup, conference, …), from the words of its title, and for the conference data
 * sets (confs.tech, devopsdays, developers.events) from its source.
 */
export function classifyKinds(event: Pick<CatalogueEvent, 'title' | 'source'>): Set<EventKind> {
  const kinds = new Set<EventKind>();
  for (const hit of matchLexicon(event.title))
    if (hit.kind === 'eventKind' && isEventKind(hit.value)) kinds.add(hit.value);
  if (CONFERENCE_SOURCES.has(event.source) && kinds.size === 0) kinds.add('conference');
  return kinds;
}
