/**
 * The door to the read index: all the rest of the application asks of it (docs/architecture.md draws it). A
 * `ReadIndex` answers, takes changes and says how current it is; what exists for speed behind it (the catalogue
 * index, country shards and their columns, posting lists, scratch scores, memo columns, the full text) is held in a
 * private field and never handed out: answers are read views (the event, and what ranking says of it).
 * dependency-cruiser keeps the rest of src/ out of query/index and the engine's internals.
 */
import { LRUCache } from 'lru-cache';
import type { CatalogueEvent } from '../catalogue/event.js';
import { COUNTRIES, type Country } from '../places/countries.js';
import { SecondSight } from '../runtime/second-sight.js';
import type { CursorState } from './cursor.js';
import { matcher, search as rank, type SearchResult } from './engine.js';
import { CatalogueIndex, type ReadRecord } from './index/catalogue-index.js';
import type { SearchParams } from './params.js';

export {
  ALTERNATIVES_SHOWN,
  type Alternative,
  type ListedEvent,
  type RankedEvent,
  type SearchResult,
  scopeOf,
  UPCOMING,
  type Widening,
  zoneOf,
} from './engine.js';
export { type DateWindowHit, warmUpDateParsing } from './prompt/dates.js';
export { CONSTRAINT_NAMES, type ConstraintName } from './ranking/facets.js';
export type { Part, Restatement } from './restate.js';
export type { ReadRecord };

/** How far the index has come, for /readyz, /metrics and the logs: one value, read, never set from outside. */
export interface IndexStatus {
  /**
   * `loading` until the whole catalogue has been read once; `preparing` while what the first queries would compute
   * for a whole country is computed ahead; `ready` after (or once preparing failed: queries then compute it).
   */
  state: 'loading' | 'preparing' | 'ready';
  /** Events held: listed, public, not ended more than a day ago, duplicates of a richer record included. */
  events: number;
  /** Events shown per country (a duplicate of a richer record is not). */
  shown: Readonly<Record<Country, number>>;
}

/** First pages kept, keyed by the query and the minute (see `search`). */
const ANSWERS_KEPT = 500;

/**
 * The in-memory read index every read runs on, kept in step with the database by the use cases: searching,
 * applying changes, the versions caches keep answers by, and its status.
 */
export class ReadIndex {
  readonly #index: CatalogueIndex;
  /**
   * First pages answered lately, each with the versions of the parts it was made from: reads the response cache does
   * not keep (MCP calls, which are POSTs; pages in several languages) repeat prompts often, and ranking one again
   * costs a hundred times serving it.
   */
  readonly #answered = new LRUCache<string, { result: SearchResult; stamp: string }>({ max: ANSWERS_KEPT });
  /** Only answers asked for twice are kept: a one-off prompt's would push out one asked again, and churn the heap. */
  readonly #askedBefore = new SecondSight(ANSWERS_KEPT);
  /** Preparing ahead failed: the index answers all the same, so a load balancer may send it traffic. */
  #preparingFailed = false;

  constructor(now: () => Date) {
    this.#index = new CatalogueIndex(now);
  }

  /** A ranked answer to any query of the shared grammar (the engine's, or the same one kept since nothing changed). */
  search(params: SearchParams, now: Date, page?: CursorState): SearchResult {
    const index = this.#index;
    if (page) return rank(index, params, now, page);
    const key = `${JSON.stringify(params)}|${Math.floor(now.getTime() / 60_000)}`;
    const hit = this.#answered.get(key);
    if (hit && hit.stamp === this.#stampOf(hit.result)) return hit.result;
    const result = rank(index, params, now);
    if (hit || this.#askedBefore.admit(key)) this.#answered.set(key, { result, stamp: this.#stampOf(result) });
    return result;
  }

  /**
   * Whether events, by id, are matches of a query as its listing shows them now (see engine.ts `matcher`): ask it
   * synchronously, before the index takes another change.
   */
  matcher(params: SearchParams, now: Date): (id: string) => boolean {
    return matcher(this.#index, params, now);
  }

  /** The versions of what an answer was made from. */
  #stampOf(result: SearchResult): string {
    return `${result.dependsOn.map((part) => this.#index.versionOf(part)).join('|')}|${this.#index.attendanceVersion}`;
  }

  /** A listed event by id with the other sources listing it; undefined when the index does not hold it. */
  event(id: string): { event: CatalogueEvent; alsoListedAt: readonly string[] } | undefined {
    const entry = this.#index.get(id);
    return entry && { event: entry.event, alsoListedAt: entry.alsoListedAt };
  }

  /** RSVPs (registered and waitlisted) of these events, those with any; the read under way then shows crowds. */
  attendanceOf(ids: Iterable<string>): ReadonlyMap<string, number> {
    this.#index.noteAttendanceRead();
    const all = this.#index.attendance;
    const some = new Map<string, number>();
    for (const id of ids) {
      const n = all.get(id);
      if (n !== undefined) some.set(id, n);
    }
    return some;
  }

  /** Adds, replaces or removes one event according to its current state. Returns whether anything changed. */
  apply(event: CatalogueEvent): boolean {
    return this.#index.apply(event);
  }

  /** Replaces the whole content (tests, the cancelled events a feed matches). */
  load(events: Iterable<CatalogueEvent>): void {
    this.#index.load(events);
  }

  /** Replaces the content with pages from the database (start-up). */
  loadPages(pages: AsyncIterable<readonly CatalogueEvent[]>): Promise<void> {
    return this.#index.loadPages(pages);
  }

  /** RSVP counts per event id (0 drops one). */
  setAttendance(counts: Iterable<[string, number]>): void {
    this.#index.setAttendance(counts);
  }

  /** Whether the index has seen this revision of the event, or a later one (a node's own write, notified back). */
  holds(id: string, revision: number): boolean {
    return this.#index.holds(id, revision);
  }

  /**
   * Computes ahead, in slices with `pause()` between them, what the first queries would compute for a whole country
   * at once. The status is `ready` when it ends, or fails (rethrown, for the log); not when `stopped()`.
   */
  async prepareAhead(pause: () => Promise<void>, stopped: () => boolean): Promise<void> {
    try {
      await this.#index.prepareAhead(pause, stopped);
    } catch (error) {
      this.#preparingFailed = true;
      throw error;
    }
  }

  get status(): IndexStatus {
    const index = this.#index;
    const state = !index.loaded ? 'loading' : index.prepared || this.#preparingFailed ? 'ready' : 'preparing';
    const shown = Object.fromEntries(COUNTRIES.map((c) => [c, index.shard(c).size])) as Record<Country, number>;
    return { state, events: index.size, shown };
  }

  /**
   * When a part of the catalogue last changed: a country (`de`), or a part of one an answer was made from (its
   * `dependsOn`, e.g. `de:topic ai-ml`). An answer is current while none of its parts changed after it was made.
   */
  versionOf(part: string): number {
    return this.#index.versionOf(part);
  }

  /** The time of the latest change anywhere, on the clock `versionOf` reads. */
  get sequence(): number {
    return this.#index.sequence;
  }

  /** Changes to RSVP counts: only answers that show crowds depend on it. */
  get attendanceVersion(): number {
    return this.#index.attendanceVersion;
  }

  /** Runs `work` noting what its reads show: the response cache keeps a body with the versions of exactly that. */
  recordReads<T>(record: ReadRecord, work: () => T): T {
    return this.#index.recordReads(record, work);
  }

  /** Notes that the read under way shows answers made from these parts (see `versionOf`, `recordReads`). */
  noteRead(parts: Iterable<string>): void {
    this.#index.noteRead(parts);
  }
}
