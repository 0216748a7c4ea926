import { AsyncLocalStorage } from 'node:async_hooks';
import { alsoListedAt, groupSameKey } from '../../catalogue/duplicates.js';
import type { CatalogueEvent } from '../../catalogue/event.js';
import { COUNTRIES, type Country } from '../../places/countries.js';
import { CountryShard } from './country-shard.js';
import {
  belongsInIndex,
  ENDED_KEPT_MS,
  endsAt,
  founderFitOf,
  type IndexedEvent,
  indexEvent,
  NO_LINKS,
} from './indexed-event.js';
import { SharedValues } from './shared-values.js';

/** What one read showed, noted as it goes (see `recordReads`): the parts its answers were made from, and whether crowds. */
export interface ReadRecord {
  parts: Set<string>;
  attendance: boolean;
}

/**
 * The read path: every public, listed event not ended more than a day ago, one shard per country. `apply` (local
 * writes, other nodes' NOTIFYs) costs only what a change touches; a revision check makes late or repeated
 * notifications harmless. A change moves on the time of its country and of the parts it touched (see Changes), so
 * cached answers made from other parts stay valid.
 */
export class CatalogueIndex {
  private readonly entries = new Map<string, IndexedEvent>();
  /** The highest revision seen of events not in the index (any more); an indexed event's is its entry's. */
  private readonly revisions = new Map<string, number>();
  /** The clock of every change, shared by the countries (see Changes). */
  private readonly clock = { n: 0 };
  private readonly shards = new Map<Country, CountryShard>(COUNTRIES.map((c) => [c, new CountryShard(c, this.clock)]));
  /** Entries by duplicate key (country and normalised title): one entry, or the several that share the key. */
  private readonly groups = new Map<string, IndexedEvent | IndexedEvent[]>();
  /** When the next indexed event passes ENDED_KEPT_MS after its end (and leaves the index). */
  private nextExpiryMs = Number.POSITIVE_INFINITY;
  /** RSVPs (registered + waitlisted) per event id, for crowd estimates; kept in step like the events. */
  private readonly rsvps = new Map<string, number>();
  /** Changes to `attendance`: only answers that show crowds depend on it. */
  attendanceVersion = 0;
  private readonly reads = new AsyncLocalStorage<ReadRecord>();
  /** Whether the whole catalogue has been loaded once (the index is ready to answer). */
  loaded = false;
  /** Whether `prepareAhead` has run to its end: no query computes anything for a whole country on first use. */
  prepared = false;
  /** What entries and queries share (organizers, cities, technology patterns…), kept as long as the index. */
  readonly shared = new SharedValues();

  constructor(private readonly now: () => Date) {}

  setAttendance(counts: Iterable<[string, number]>): void {
    for (const [id, n] of counts) {
      if (n > 0) this.rsvps.set(id, n);
      else this.rsvps.delete(id);
    }
    this.attendanceVersion++;
  }

  /** RSVPs per event id; a read that shows them says so (`noteAttendanceRead`) and depends on `attendanceVersion`. */
  get attendance(): ReadonlyMap<string, number> {
    return this.rsvps;
  }

  /** Notes that the read under way shows crowds: its body is current only while `attendanceVersion` is. */
  noteAttendanceRead(): void {
    const record = this.reads.getStore();
    if (record) record.attendance = true;
  }

  /** Runs `work` noting what its reads show: the response cache keeps a body with the versions of exactly that. */
  recordReads<T>(record: ReadRecord, work: () => T): T {
    return this.reads.run(record, work);
  }

  /** Notes that the read under way shows answers made from these parts (see `versionOf`, `recordReads`). */
  noteRead(parts: Iterable<string>): void {
    const record = this.reads.getStore();
    if (record) for (const part of parts) record.parts.add(part);
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): IndexedEvent | undefined {
    return this.entries.get(id);
  }

  /** A country's shown events with their posting lists, after letting go of events that have ended. */
  shard(country: Country): CountryShard {
    this.expire();
    return this.shards.get(country)!;
  }

  /**
   * When a part of the catalogue last changed: a country (`de`), or a part of one an answer was made from
   * (`de:topic ai-ml`, see Changes). An answer is current while none of its parts changed after it was made.
   */
  versionOf(part: string): number {
    const shard = this.shards.get(part.slice(0, 2) as Country);
    if (!shard) throw new Error(`versionOf: no country in “${part}”`);
    return part.length === 2 ? shard.changedAt() : shard.changedAt(part.slice(3));
  }

  /** The time of the latest change anywhere, on the clock `versionOf` reads. */
  get sequence(): number {
    return this.clock.n;
  }

  /** A country's shown events sorted by start, then id. */
  visibleIn(country: Country): IndexedEvent[] {
    return [...this.shard(country).inOrder()];
  }

  /** Whether the index has seen this revision of the event, or a later one. */
  holds(id: string, revision: number): boolean {
    const seen = this.revisionSeen(id);
    return seen !== undefined && seen >= revision;
  }

  /** Adds, replaces or removes one event according to its current state. Returns whether anything changed. */
  apply(event: CatalogueEvent): boolean {
    const seen = this.revisionSeen(event.id);
    if (seen !== undefined && seen >= event.revision) return false;
    const touchedKeys: string[] = [];
    const old = this.entries.get(event.id);
    if (old) {
      this.drop(old);
      touchedKeys.push(old.duplicateKey);
      this.shards.get(old.event.country)!.touch();
    }
    const listed = belongsInIndex(event, this.now().getTime());
    if (listed) {
      this.revisions.delete(event.id);
      const entry = indexEvent(event, this.shared);
      this.entries.set(event.id, entry);
      this.join(entry);
      touchedKeys.push(entry.duplicateKey);
      this.nextExpiryMs = Math.min(this.nextExpiryMs, endsAt(entry.event) + ENDED_KEPT_MS);
    } else {
      this.revisions.set(event.id, event.revision);
    }
    for (const key of new Set(touchedKeys)) this.regroup(key);
    // Every change counts for the country's version, listed or not: an unlisted or cancelled event's page changes.
    this.shards.get(event.country)!.touch();
    return old !== undefined || listed;
  }

  /** Replaces the whole content (start-up, tests). */
  load(events: Iterable<CatalogueEvent>): void {
    this.beginLoad();
    this.loadBatch(events);
    this.endLoad();
  }

  /** Replaces the content with pages from the database (start-up); shards are built once the last page is in. */
  async loadPages(pages: AsyncIterable<readonly CatalogueEvent[]>): Promise<void> {
    this.beginLoad();
    try {
      for await (const page of pages) this.loadBatch(page);
    } finally {
      this.endLoad();
    }
  }

  private beginLoad(): void {
    for (const [id, entry] of this.entries) this.revisions.set(id, entry.event.revision);
    this.entries.clear();
    this.groups.clear();
    this.nextExpiryMs = Number.POSITIVE_INFINITY;
  }

  private loadBatch(events: Iterable<CatalogueEvent>): void {
    const nowMs = this.now().getTime();
    for (const event of events) {
      const seen = this.revisionSeen(event.id);
      if (seen !== undefined && seen > event.revision) continue;
      if (belongsInIndex(event, nowMs)) {
        this.revisions.delete(event.id);
        this.entries.set(event.id, indexEvent(event, this.shared));
      } else {
        this.entries.delete(event.id);
        this.revisions.set(event.id, event.revision);
      }
    }
  }

  /** Groups the loaded entries by duplicate key and builds each country's shard of those shown, in one pass. */
  private endLoad(): void {
    const shown = new Map<Country, IndexedEvent[]>(COUNTRIES.map((c) => [c, []]));
    for (const entry of this.entries.values()) {
      this.join(entry);
      this.nextExpiryMs = Math.min(this.nextExpiryMs, endsAt(entry.event) + ENDED_KEPT_MS);
    }
    for (const key of this.groups.keys()) {
      for (const { entry, show } of this.grouped(key)) if (show) shown.get(entry.event.country)!.push(entry);
    }
    for (const [country, list] of shown) this.shards.get(country)!.load(list);
    this.loaded = true;
  }

  /**
   * Computes every event's founder fit ahead, in slices with `pause()` between them, which the first query asking
   * would otherwise do for a whole country at once, stalling every request behind it. Stops cleanly once `stopped()`.
   */
  async prepareAhead(pause: () => Promise<void>, stopped: () => boolean, sliceMs = 2): Promise<void> {
    const entries = [...this.entries.values()];
    for (let i = 0; i < entries.length; ) {
      if (stopped()) return;
      const until = performance.now() + sliceMs;
      // The clock is read every 64 events.
      do founderFitOf(entries[i++]!);
      while (i < entries.length && ((i & 63) !== 0 || performance.now() < until));
      await pause();
    }
    if (stopped()) return;
    // Every fit is known now: each country's list of founder events is a pass over its slots.
    for (const shard of this.shards.values()) shard.founders();
    this.prepared = true;
  }

  /** The highest revision seen of an event, indexed or not. */
  private revisionSeen(id: string): number | undefined {
    return this.entries.get(id)?.event.revision ?? this.revisions.get(id);
  }

  /** Takes an entry out of the index: out of its shard if shown, out of its duplicate group. */
  private drop(entry: IndexedEvent): void {
    if (entry.slot >= 0) this.shards.get(entry.event.country)!.remove(entry);
    this.entries.delete(entry.event.id);
    const members = this.groups.get(entry.duplicateKey);
    if (members === entry) {
      this.groups.delete(entry.duplicateKey);
    } else if (Array.isArray(members)) {
      const rest = members.filter((m) => m !== entry);
      this.groups.set(entry.duplicateKey, rest.length === 1 ? rest[0]! : rest);
    }
  }

  private join(entry: IndexedEvent): void {
    const members = this.groups.get(entry.duplicateKey);
    if (members === undefined) this.groups.set(entry.duplicateKey, entry);
    else if (Array.isArray(members)) members.push(entry);
    else this.groups.set(entry.duplicateKey, [members, entry]);
  }

  /** Which entries of one duplicate key are shown (each group's canonical record) and hidden; members in id order. */
  private grouped(key: string): { entry: IndexedEvent; show: boolean }[] {
    const members = this.groups.get(key);
    if (members === undefined) return [];
    if (!Array.isArray(members)) {
      members.alsoListedAt = NO_LINKS;
      return [{ entry: members, show: true }];
    }
    const byId = new Map(members.map((m) => [m.event, m]));
    const sorted = members.map((m) => m.event).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const out: { entry: IndexedEvent; show: boolean }[] = [];
    for (const group of groupSameKey(sorted)) {
      const canonical = byId.get(group.canonical)!;
      const links = alsoListedAt(group);
      canonical.alsoListedAt = links.length > 0 ? links : NO_LINKS;
      out.push({ entry: canonical, show: true });
      for (const duplicate of group.duplicates) {
        const entry = byId.get(duplicate)!;
        entry.alsoListedAt = NO_LINKS;
        out.push({ entry, show: false });
      }
    }
    return out;
  }

  /** Brings the shards in line with the groups of one duplicate key after a change to it. */
  private regroup(key: string): void {
    const members = this.grouped(key);
    // Hide first, then show: a record taking over as canonical never sits beside the one it replaces.
    for (const { entry, show } of members)
      if (!show && entry.slot >= 0) this.shards.get(entry.event.country)!.remove(entry);
    for (const { entry, show } of members) {
      if (!show) continue;
      // A record shown before may link other sources now, or no longer: its country's version moves on.
      const shard = this.shards.get(entry.event.country)!;
      if (entry.slot < 0) shard.add(entry);
      else shard.touch(entry);
    }
  }

  /** Drops events that ended over ENDED_KEPT_MS ago (scanning only once one has), as a fresh build would. */
  private expire(): void {
    const nowMs = this.now().getTime();
    if (nowMs < this.nextExpiryMs) return;
    const expired: IndexedEvent[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.entries.values()) {
      const leaves = endsAt(entry.event) + ENDED_KEPT_MS;
      if (leaves <= nowMs) expired.push(entry);
      else if (leaves < next) next = leaves;
    }
    this.nextExpiryMs = next;
    const keys = new Set<string>();
    for (const entry of expired) {
      this.drop(entry);
      this.revisions.set(entry.event.id, entry.event.revision);
      keys.add(entry.duplicateKey);
      this.shards.get(entry.event.country)!.touch();
    }
    for (const key of keys) this.regroup(key);
  }
}
