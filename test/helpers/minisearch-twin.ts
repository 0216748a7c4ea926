import MiniSearch, { type SearchOptions } from 'minisearch';
import type { CatalogueEvent } from '../../src/catalogue/event.js';
import { processTerm, SEARCH_FIELDS } from '../../src/query/index/full-text.js';

/**
 * MiniSearch set up as the project's full-text index scores (BM25+, the same fields, terms, boosts, prefix and fuzzy
 * matches): the reference test/search-index.test.ts compares against, and bench/full-text-cost.ts times beside it.
 */
export const MINISEARCH_SEARCH: SearchOptions = {
  boost: { title: 3, organizer: 2, topics: 1.5, venue: 1, city: 1, description: 0.6 },
  prefix: (t) => t.length >= 4,
  fuzzy: (t) => (t.length >= 5 ? 0.2 : false),
  maxFuzzy: 2,
};

/** An empty MiniSearch of events' documents (`miniSearchDocument`), keyed by slot. */
export const miniSearchTwin = () => new MiniSearch({ idField: 'id', fields: [...SEARCH_FIELDS], processTerm });

/** MiniSearch's document of an event at a slot: topics as the index reads them. */
export function miniSearchDocument(slot: number, e: CatalogueEvent) {
  return {
    id: slot,
    title: e.title,
    organizer: e.organizer,
    topics: e.topics.join(' '),
    venue: e.venue ?? '',
    city: e.city ?? '',
    description: e.description ?? '',
  };
}
