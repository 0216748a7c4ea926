import type { CatalogueEvent } from './event.js';
import { matchLexicon } from './lexicon.js';
import { type EventKind, isEventKind } from './taxonomy.js';

/**
 * What kind of event this is (meetup, conference, …), from the words of its title, and for curated
 * confs.tech listings (which are all conferences) from its source.
 */
export function classifyKinds(event: Pick<CatalogueEvent, 'title' | 'source'>): Set<EventKind> {
  const kinds = new Set<EventKind>();
  for (const hit of matchLexicon(event.title))
    if (hit.kind === 'eventKind' && isEventKind(hit.value)) kinds.add(hit.value);
  if (event.source === 'curated' && kinds.size === 0) kinds.add('conference');
  return kinds;
}
