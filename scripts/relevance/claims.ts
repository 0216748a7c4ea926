/**
 * What an answer claims of every event it lists: the constraints its `understood` restates, taken from the
 * structured understanding the sentence is made from (a sentence is for people; the evaluation reads the parts).
 * Checked event by event with constraints.ts, apart from the engine's own filters.
 */
import { DateTime } from 'luxon';
import { type SearchResult, zoneOf } from '../../src/query/read-index.js';
import type { Constraints } from './constraints.js';

function localDate(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toISODate()!;
}

/** The claims of an answer: everything its `understood` says every listed event is. */
export function claimsOf(result: SearchResult): Constraints {
  const { understanding: u, params: p } = result;
  const zone = zoneOf(result.country);
  const c: Constraints = {};
  if (u.window)
    c.window = { from: localDate(u.window.from, zone), to: localDate(new Date(u.window.to.getTime() - 1), zone) };
  if (p.from || p.to) c.starts = { ...(p.from ? { from: p.from } : {}), ...(p.to ? { to: p.to } : {}) };
  if (u.place) c.near = u.place.place.name;
  if (p.city) {
    if (p.near) c.near = p.city.name;
    else c.city = p.city.name;
  }
  // "in Switzerland" is said when no place is: a claim about the country.
  if (!u.place && !p.city && result.country !== 'all') c.country = result.country;
  const fields = u.topics.filter((t) => !t.specific).map((t) => t.slug);
  if (fields.length) c.topics = fields;
  if (u.technologies.length) c.technologies = u.technologies.map((t) => t.term);
  if (p.topics.length) c.topicParam = p.topics;
  if (u.kinds.length) c.kinds = u.kinds;
  if (u.formats.length) c.format = u.formats[0];
  if (p.format) c.formatExactly = p.format;
  if (u.price) c.price = u.price;
  const seniority = [...new Set([...u.seniority, ...p.seniority])];
  if (seniority.length) c.seniority = seniority;
  if (u.founders || p.who === 'founders') c.founders = true;
  if (p.cfp === 'open' || u.cfp) c.cfp = 'open';
  if (p.plain.language?.length) c.languages = p.plain.language;
  if (p.org) c.organizer = p.org;
  return c;
}
