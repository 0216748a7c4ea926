/**
 * The door to the read index: all the rest of the application asks of it (docs/architecture.md draws it).
 * - `search(index, params, now, page?)`: a ranked answer to any query of the shared grammar;
 * - `index.apply(event)` (and `load`, `loadPages`, `setAttendance`): changes, kept in step with the database;
 * - `index.versionOf(part)`, `index.sequence`, `attendanceVersion`: when a country or a part of one an answer was made
 *   from (its `dependsOn`) last changed, what cached answers are kept by; `recordReads`/`noteRead`: which parts a
 *   response shows.
 * Everything that exists for speed (posting lists, per-slot columns, scratch scores, memo columns, the full-text
 * index) stands behind it in query/index; dependency-cruiser keeps the rest of src/ out of there.
 */
import { LRUCache } from 'lru-cache';
import type { CursorState } from './cursor.js';
import { search as rank, type SearchResult } from './engine.js';
import type { CatalogueIndex } from './index/catalogue-index.js';
import type { SearchParams } from './params.js';

export {
  ALTERNATIVES_SHOWN,
  type Alternative,
  type RankedEvent,
  type SearchResult,
  scopeOf,
  type Widening,
  zoneOf,
} from './engine.js';
export { CatalogueIndex, type ReadRecord } from './index/catalogue-index.js';
export type { IndexedEvent } from './index/indexed-event.js';

/**
 * First pages answered lately, per index, keyed by the query and the minute, each with the versions of the parts it
 * was made from: reads the response cache does not keep (MCP calls, which are POSTs; pages in several languages)
 * repeat prompts often, and ranking one again costs a hundred times serving it.
 */
const answered = new WeakMap<CatalogueIndex, LRUCache<string, { result: SearchResult; stamp: string }>>();

/** The versions of what an answer was made from. */
const stampOf = (index: CatalogueIndex, result: SearchResult) =>
  `${result.dependsOn.map((part) => index.versionOf(part)).join('|')}|${index.attendanceVersion}`;

/** A ranked answer to any query of the shared grammar (the engine's, or the same one kept since nothing changed). */
export function search(index: CatalogueIndex, params: SearchParams, now: Date, page?: CursorState): SearchResult {
  if (page) return rank(index, params, now, page);
  let kept = answered.get(index);
  if (!kept) {
    kept = new LRUCache({ max: 500 });
    answered.set(index, kept);
  }
  const key = `${JSON.stringify(params)}|${Math.floor(now.getTime() / 60_000)}`;
  const hit = kept.get(key);
  if (hit && hit.stamp === stampOf(index, hit.result)) return hit.result;
  const result = rank(index, params, now);
  kept.set(key, { result, stamp: stampOf(index, result) });
  return result;
}
