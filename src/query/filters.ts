import type { PlainFieldName } from '../catalogue/event.js';
import type { Phrase } from '../catalogue/words.js';
import { COUNTRY_INFO } from '../places/countries.js';
import { distanceKm } from '../places/gazetteer.js';
import { founderFitOf, type IndexedEvent } from './index/indexed-event.js';
import { NEAR_RADIUS_KM, type SearchParams } from './params.js';
import { roughlyNear } from './ranking/evidence.js';
import { topicReason } from './ranking/fits.js';
import { SAID } from './ranking/said.js';

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
export function filterReasons(e: IndexedEvent, p: SearchParams, out: Phrase[]): void {
  const ev = e.event;
  for (const t of p.topics) if (ev.topics.includes(t)) out.push(topicReason(t));
  if (p.city) {
    const place = p.city.name;
    if (e.place?.geonameId === p.city.geonameId) out.push({ words: SAID.in, values: { place } });
    else {
      const km = ev.lat !== null && ev.lng !== null ? Math.round(distanceKm(p.city, ev.lat, ev.lng)) : 0;
      out.push({ words: SAID.distance, values: { km, place } });
    }
  }
  if (p.who === 'founders') out.push({ words: SAID.founders });
  for (const level of p.seniority)
    if (ev.seniority.includes(level)) out.push({ words: SAID.level, values: { level: { level } } });
  if (p.format) out.push({ words: SAID.format, values: { format: { format: p.format } } });
  if (p.org) out.push({ words: SAID.organizer, values: { name: ev.organizer } });
  if (p.cfp === 'open') out.push(cfpReason(ev));
  for (const [field] of plainFilters(p)) {
    const value = ev[field] as string | null;
    if (value !== null)
      out.push({ words: SAID.plain, values: { field: { plain: field }, value: { plain: field, value } } });
  }
}

/** "Call for papers open until Fri 4 Dec 2026" (a date-time deadline with its local time). */
function cfpReason(event: IndexedEvent['event']): Phrase {
  const until = event.cfpUntil;
  if (!until) return { words: SAID.cfpOpen };
  return {
    words: SAID.cfpOpenUntil,
    values: { date: { deadline: until, zone: COUNTRY_INFO[event.country].timeZone } },
  };
}

/** The plain-field filters a query asks for. */
export function plainFilters(p: SearchParams): [PlainFieldName, string[]][] {
  return Object.entries(p.plain) as [PlainFieldName, string[]][];
}
