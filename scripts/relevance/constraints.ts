/**
 * What a prompt constrains, and whether an event meets it — read off the event's own fields, apart from the engine:
 * the judge of the evaluation. A labelled prompt states its constraints as a judge reads the prompt (`constraints`
 * in relevance-queries.json); the engine's answer states its own in `understood` (see `claimsOf` in
 * eval-relevance.ts). Both are checked here, event by event: precision against the label, claims kept against the
 * answer.
 */
import { DateTime } from 'luxon';
import { cfpClosesAt } from '../../src/catalogue/cfp.js';
import { classifyKinds } from '../../src/catalogue/classify-kind.js';
import type { CatalogueEvent } from '../../src/catalogue/event.js';
import { founderFit } from '../../src/catalogue/founders.js';
import { foldText, matchLexicon } from '../../src/catalogue/lexicon.js';
import { technologiesNamed, technologyAndParts, technologyFinder } from '../../src/catalogue/lexicon-technologies.js';
import { isTopic } from '../../src/catalogue/taxonomy.js';
import { COUNTRY_INFO } from '../../src/places/countries.js';
import { distanceKm, resolveCity } from '../../src/places/gazetteer.js';

/** The radius of "in Zürich" and "near Zürich" (docs/ranking.md): a place asked counts up to this far away. */
export const PLACE_RADIUS_KM = 45;

/**
 * Constraints of a prompt, each met when the event meets it; lists are met by any of their values. `topics` and
 * `technologies` together are the subject: met by any field or technology named.
 */
export interface Constraints {
  /** Local dates, inclusive: the event runs on at least one of these days. */
  window?: { from: string; to: string };
  /** Local dates, inclusive: the event starts on one of these days (`from`/`to` parameters). */
  starts?: { from?: string; to?: string };
  /** A city: the event takes place within PLACE_RADIUS_KM of it (online events do not). */
  near?: string;
  /** A city exactly (the `city` parameter without `near`). */
  city?: string;
  country?: string;
  topics?: string[];
  /** Technologies by a term the lexicon knows ("Java", "Kubernetes"): the title, organizer or description names one. */
  technologies?: string[];
  kinds?: string[];
  /** online: online or hybrid; in_person: in person or hybrid; hybrid: hybrid only. */
  format?: string;
  /** The `format` parameter: exactly this format. */
  formatExactly?: string;
  price?: 'free' | 'paid';
  seniority?: string[];
  founders?: boolean;
  cfp?: 'open';
  /** Exactly these topics as a hard filter beside the prompt (the `topic` parameter): any of them. */
  topicParam?: string[];
  /** The language the event is held in (the `lang` parameter): any of them. */
  languages?: string[];
  organizer?: string;
}

function localDay(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISODate()!;
}

function endOf(e: CatalogueEvent): number {
  return (e.end ?? new Date(e.start.getTime() + 3 * 3_600_000)).getTime();
}

/** Whether the event runs on a day of [from, to] (local dates of its country). */
function runsWithin(e: CatalogueEvent, from: string, to: string): boolean {
  const zone = COUNTRY_INFO[e.country].timeZone;
  const first = localDay(e.start.getTime(), zone);
  // An end at midnight belongs to the day before (all-day events end at the next local midnight).
  const last = localDay(endOf(e) - 1, zone);
  return first <= to && last >= from;
}

function withinKm(e: CatalogueEvent, city: string, km: number): boolean {
  const place = resolveCity(city);
  if (!place) throw new Error(`unknown city "${city}" in a constraint`);
  if (e.format === 'online' || e.lat === null || e.lng === null) return false;
  return distanceKm(place, e.lat, e.lng) <= km;
}

/** Whether the title, organizer or description names the technology (or a part of it). */
export function namesTechnology(e: CatalogueEvent, term: string): boolean {
  const own = technologiesNamed(term).filter((id) => !isTopic(id));
  const wanted = new Set(own.flatMap((id) => [...technologyAndParts(id)]));
  for (const text of [e.title, e.organizer]) {
    for (const hit of matchLexicon(text)) {
      if (hit.kind === 'topic' && technologiesNamed(hit.term).some((id) => wanted.has(id))) return true;
    }
  }
  const finder = technologyFinder(wanted);
  return !!(finder && e.description && finder.any.test(foldText(e.description)));
}

/** The constraints an event does not meet, by name; empty when it meets them all. */
export function unmet(e: CatalogueEvent, c: Constraints, now: Date): string[] {
  const out: string[] = [];
  const zone = COUNTRY_INFO[e.country].timeZone;
  if (c.window && !runsWithin(e, c.window.from, c.window.to)) out.push('window');
  if (c.starts) {
    const day = localDay(e.start.getTime(), zone);
    if ((c.starts.from && day < c.starts.from) || (c.starts.to && day > c.starts.to)) out.push('starts');
  }
  if (c.near && !withinKm(e, c.near, PLACE_RADIUS_KM)) out.push('near');
  if (c.city && resolveCity(e.city ?? '', e.country)?.geonameId !== resolveCity(c.city)?.geonameId) out.push('city');
  if (c.country && e.country !== c.country) out.push('country');
  const subject = [...(c.topics ?? []), ...(c.technologies ?? [])];
  if (
    subject.length > 0 &&
    !(c.topics ?? []).some((t) => e.topics.includes(t)) &&
    !(c.technologies ?? []).some((t) => namesTechnology(e, t))
  )
    out.push('subject');
  if (c.topicParam?.length && !c.topicParam.some((t) => e.topics.includes(t))) out.push('topicParam');
  if (c.kinds?.length) {
    const kinds = classifyKinds(e);
    if (!c.kinds.some((k) => kinds.has(k as never))) out.push('kind');
  }
  if (c.format && !(e.format === c.format || (e.format === 'hybrid' && c.format !== 'hybrid'))) out.push('format');
  if (c.formatExactly && e.format !== c.formatExactly) out.push('format');
  if (c.price && e.priceType !== c.price) out.push('price');
  if (c.seniority?.length && !c.seniority.some((s) => e.seniority.includes(s as never))) out.push('seniority');
  if (c.founders && founderFit(e) === 0) out.push('founders');
  if (c.cfp === 'open' && !(cfpClosesAt(e) > now.getTime())) out.push('cfp');
  if (c.languages?.length && !c.languages.includes(e.language ?? '')) out.push('language');
  if (c.organizer && foldText(e.organizer) !== foldText(c.organizer)) out.push('organizer');
  return out;
}

/** Share of the events meeting every constraint; 1 for no events (nothing listed breaks no promise). */
export function shareMeeting(events: readonly CatalogueEvent[], c: Constraints, now: Date): number {
  if (events.length === 0) return 1;
  return events.filter((e) => unmet(e, c, now).length === 0).length / events.length;
}
