import { DateTime } from 'luxon';
import { isWholeDay } from '../catalogue/cfp.js';
import { PLAIN_FIELDS, type PlainField, type PlainFieldName } from '../catalogue/event.js';
import { FORMAT_LABELS, SENIORITY_LABELS, topicLabel } from '../catalogue/taxonomy.js';
import { COUNTRY_INFO } from '../places/countries.js';
import { distanceKm } from '../places/gazetteer.js';
import { founderFitOf, type IndexedEvent } from './index/indexed-event.js';
import { NEAR_RADIUS_KM, type SearchParams } from './params.js';
import { roughlyNear } from './ranking/evidence.js';

/** Structured parameters that need the event itself (time and format filters read the shard's columns). */
export function passesFilters(e: IndexedEvent, p: SearchParams, org: string | undefined): boolean {
  const ev = e.event;
  if (p.topics.length && !p.topics.some((t) => ev.topics.includes(t))) return false;
  if (p.seniority.length && !p.seniority.some((s) => ev.seniority.includes(s))) return false;
  if (org !== undefined && org !== e.organizer.folded) return false;
  if (p.who === 'founders' && founderFitOf(e) === 0) return false;
  for (const [field, values] of plainFilters(p)) if (!values.includes(ev[field] as string)) return false;
  if (p.city) {
    if (p.near) {
      if (ev.format === 'online' || ev.lat === null || ev.lng === null) return false;
      if (!roughlyNear(p.city, ev.lat, ev.lng) || distanceKm(p.city, ev.lat, ev.lng) > NEAR_RADIUS_KM) return false;
    } else if (e.place?.geonameId !== p.city.geonameId) {
      return false;
    }
  }
  return true;
}

/** Reasons a structured filter matched, so listings without `q` still explain themselves. */
export function filterReasons(e: IndexedEvent, p: SearchParams, out: string[]): void {
  for (const t of p.topics) if (e.event.topics.includes(t)) out.push(`Topic: ${topicLabel(t)}`);
  if (p.city) {
    const d = e.event.lat !== null && e.event.lng !== null ? distanceKm(p.city, e.event.lat, e.event.lng) : 0;
    out.push(e.place?.geonameId === p.city.geonameId ? `In ${p.city.name}` : `${Math.round(d)} km from ${p.city.name}`);
  }
  if (p.who === 'founders') out.push('For founders');
  for (const s of p.seniority) if (e.event.seniority.includes(s)) out.push(`For ${SENIORITY_LABELS[s].toLowerCase()}`);
  if (p.format) out.push(FORMAT_LABELS[p.format]);
  if (p.org) out.push(`Organizer: ${e.event.organizer}`);
  if (p.cfp === 'open') out.push(cfpReason(e.event));
  for (const [field] of plainFilters(p)) {
    const spec: PlainField = PLAIN_FIELDS[field];
    const value = e.event[field] as string | null;
    if (value !== null) out.push(`${spec.title}: ${spec.labels[value] ?? value}`);
  }
}

/** "Call for papers open until Fri 4 Dec 2026" (a date-time deadline with its local time). */
export function cfpReason(event: IndexedEvent['event']): string {
  const until = event.cfpUntil;
  if (!until) return 'Call for papers open';
  const zone = COUNTRY_INFO[event.country].timeZone;
  const when = isWholeDay(until)
    ? DateTime.fromISO(until, { zone }).toFormat('ccc d LLL yyyy')
    : DateTime.fromISO(until, { setZone: true }).setZone(zone).toFormat("ccc d LLL yyyy', 'HH:mm");
  return `Call for papers open until ${when}`;
}

/** The plain-field filters a query asks for. */
export function plainFilters(p: SearchParams): [PlainFieldName, string[]][] {
  return Object.entries(p.plain) as [PlainFieldName, string[]][];
}
