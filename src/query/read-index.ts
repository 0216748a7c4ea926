/**
 * The door to the read index: all the rest of the application asks of it (docs/architecture.md draws it).
 * - `search(index, params, now, page?)`: a ranked answer to any query of the shared grammar;
 * - `index.apply(event)` (and `load`, `loadPages`, `setAttendance`): changes, kept in step with the database;
 * - `index.versionOf(country)`, `attendanceVersion`: what cached answers are keyed by; `recordReads`/`noteRead`:
 *   which of them a response shows.
 * Everything that exists for speed (posting lists, per-slot columns, scratch scores, memo columns, the full-text
 * index) stands behind it in query/index; dependency-cruiser keeps the rest of src/ out of there.
 */
export {
  ALTERNATIVES_SHOWN,
  type Alternative,
  type RankedEvent,
  type SearchResult,
  scopeOf,
  search,
  type Widening,
  zoneOf,
} from './engine.js';
export { CatalogueIndex, type ReadRecord } from './index/catalogue-index.js';
export type { IndexedEvent } from './index/indexed-event.js';
