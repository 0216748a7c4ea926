/**
 * Cross-source duplicates: the same event reached through two sources must show once. Pure functions, no database.
 *
 * Two events are duplicates when all of these hold:
 * - same country;
 * - equal titles after folding case, accents and punctuation (as place names are) and dropping a leading or trailing
 *   year or edition mark ("2026", "'26", "#3", "Vol. 2", "3rd edition");
 * - starts within ±36 hours (a day's offset through time zones, or all-day vs timed listings);
 * - the same city place, or neighbouring ones (within `NEIGHBOURING_KM`: devopsdays lists its Zurich edition in
 *   Winterthur, where it meets, confs.tech in Zurich), when both name a city;
 * - different owners: each owner keys its own events, and a weekly series shares its title.
 * Every member of a group matches every other (no chaining A~B~C into A~C). The canonical record is the richest
 * (`richness`); the others' links show as "also listed at".
 */

import { distanceKm, foldName, type Place, resolveCity } from '../places/gazetteer.js';
import { NEIGHBOURING_KM } from './address.js';
import { type CatalogueEvent, UNKNOWN_ORGANIZER } from './event.js';

export const DUPLICATE_WINDOW_MS = 36 * 60 * 60 * 1000;

const EDITION = String.raw`(?:(?:19|20)\d{2}(?:\s+edition)?|['’]\d{2}|#\s*\d+|no\.?\s*\d+|vol\.?\s*\d+|edition\s+\d+|\d+(?:st|nd|rd|th)\s+edition)`;
const TRAILING_EDITION = new RegExp(String.raw`[\s\-–—:,/|(]+${EDITION}\)?[\s.!)]*$`, 'i');
const LEADING_EDITION = new RegExp(String.raw`^\s*\(?${EDITION}\)?[\s\-–—:,/|]+`, 'i');

/** The comparable form of a title: see the module comment. Never empty for a title with letters or digits. */
export function normaliseTitle(title: string): string {
  let stripped = title;
  for (let i = 0; i < 3; i++) {
    const next = stripped.replace(TRAILING_EDITION, '').replace(LEADING_EDITION, '');
    if (next === stripped) break;
    stripped = next;
  }
  return foldName(stripped) || foldName(title);
}

/** The bucket of an event: country and normalised title. Duplicates always share it (the converse needs checks). */
export function duplicateKey(event: Pick<CatalogueEvent, 'country' | 'title'>): string {
  // Joined, not concatenated: one flat string, where a concatenation may be kept as its two parts, and the read
  // index keeps a key per event.
  return [event.country, normaliseTitle(event.title)].join('|');
}

/** How much an event tells: a host's own push outweighs any import, then filled fields (exact point, description…). */
export function richness(event: CatalogueEvent): number {
  let score = event.owner.startsWith('key:') ? 100 : 0;
  score += event.geoPrecision === 'exact' ? 8 : event.geoPrecision === 'city' ? 3 : 0;
  if (event.description) score += 4;
  if (event.capacity !== null) score += 3;
  if (event.priceAmount !== null) score += 3;
  if (event.priceType !== 'unknown') score += 2;
  if (event.venue) score += 2;
  if (!event.allDay) score += 2;
  if (event.end) score += 1;
  if (event.url) score += 1;
  if (event.organizer && event.organizer !== UNKNOWN_ORGANIZER) score += 1;
  if (event.seniority.length > 0) score += 1;
  return score + Math.min(event.topics.length, 3);
}

/** Listed and public records win over cancelled or unlisted ones whatever they hold, then richness, then age. */
function better(a: CatalogueEvent, b: CatalogueEvent): boolean {
  const rank = (e: CatalogueEvent) => [
    e.lifecycle === 'listed' ? 1 : 0,
    e.visibility === 'public' ? 1 : 0,
    richness(e),
    -e.createdAt.getTime(),
  ];
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return a.id < b.id;
}

export interface DuplicateGroup {
  canonical: CatalogueEvent;
  duplicates: CatalogueEvent[];
}

interface Cluster {
  members: CatalogueEvent[];
  firstStart: number;
  owners: Set<string>;
  city: City | undefined;
  order: number;
}

/** An event's city: its place when the gazetteer knows it (so "Zurich" = "Zürich"), else its folded name. */
type City = Place | string;

function cityOf(event: CatalogueEvent): City | undefined {
  if (!event.city) return undefined;
  return resolveCity(event.city, event.country) ?? foldName(event.city);
}

function sameCity(a: City | undefined, b: City | undefined): boolean {
  if (a === undefined || b === undefined || a === b) return true;
  if (typeof a === 'string' || typeof b === 'string') return false;
  return a.geonameId === b.geonameId || distanceKm(a, b.lat, b.lng) <= NEIGHBOURING_KM;
}

/** Splits one bucket (same key) into complete groups, sweeping by start time. */
function clusterBucket(bucket: { event: CatalogueEvent; order: number }[], out: Cluster[]): void {
  bucket.sort((a, b) => a.event.start.getTime() - b.event.start.getTime() || a.order - b.order);
  let open: Cluster[] = [];
  for (const { event, order } of bucket) {
    const start = event.start.getTime();
    open = open.filter((c) => start - c.firstStart <= DUPLICATE_WINDOW_MS);
    const city = cityOf(event);
    const cluster = open.find((c) => !c.owners.has(event.owner) && sameCity(c.city, city));
    if (cluster) {
      cluster.members.push(event);
      cluster.owners.add(event.owner);
      cluster.city ??= city;
      cluster.order = Math.min(cluster.order, order);
    } else {
      const created: Cluster = { members: [event], firstStart: start, owners: new Set([event.owner]), city, order };
      open.push(created);
      out.push(created);
    }
  }
}

/** Every event in exactly one group, in order of first appearance; meant for the whole catalogue at once. */
export function groupDuplicates(events: CatalogueEvent[]): DuplicateGroup[] {
  const buckets = new Map<string, { event: CatalogueEvent; order: number }[]>();
  events.forEach((event, order) => {
    const key = duplicateKey(event);
    const bucket = buckets.get(key);
    if (bucket) bucket.push({ event, order });
    else buckets.set(key, [{ event, order }]);
  });
  // Each group at the position of its first member (positions are distinct: every event is in one group), so the
  // groups come out in order without sorting 100k of them; most buckets hold one event and need no clustering.
  const byOrder: (DuplicateGroup | undefined)[] = new Array(events.length);
  for (const bucket of buckets.values()) {
    for (const { group, order } of clustered(bucket)) byOrder[order] = group;
  }
  const groups: DuplicateGroup[] = [];
  for (const group of byOrder) if (group) groups.push(group);
  return groups;
}

/** The groups sharing one duplicate key, in order of first members: what the index recomputes for a change. */
export function groupSameKey(events: readonly CatalogueEvent[]): DuplicateGroup[] {
  return clustered(events.map((event, order) => ({ event, order }))).map((c) => c.group);
}

function clustered(bucket: { event: CatalogueEvent; order: number }[]): { group: DuplicateGroup; order: number }[] {
  if (bucket.length === 1) return [{ group: { canonical: bucket[0]!.event, duplicates: [] }, order: bucket[0]!.order }];
  const clusters: Cluster[] = [];
  clusterBucket(bucket, clusters);
  return clusters
    .sort((a, b) => a.order - b.order)
    .map(({ members, order }) => {
      const canonical = members.reduce((best, e) => (better(e, best) ? e : best));
      return { group: { canonical, duplicates: members.filter((e) => e !== canonical) }, order };
    });
}

/** The original links of a group's duplicates that the canonical record does not already carry. */
export function alsoListedAt(group: DuplicateGroup): string[] {
  const own = new Set([group.canonical.sourceUrl, group.canonical.url].filter(Boolean));
  const links = group.duplicates.map((e) => e.sourceUrl ?? e.url).filter((u): u is string => !!u && !own.has(u));
  return [...new Set(links)];
}
