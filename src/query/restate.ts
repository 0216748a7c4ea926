import { DateTime } from 'luxon';
import { type EventFormat, PLAIN_FIELDS, type PlainFieldName } from '../catalogue/event.js';
import type { EventKind, Format, Seniority, TopicSlug } from '../catalogue/taxonomy.js';
import { zoneNamed } from '../places/zones.js';
import type { Scope, SearchParams } from './params.js';
import { zoneOf } from './plan.js';
import type { DateWindowHit } from './prompt/dates.js';
import type { Understanding } from './prompt/understand.js';
import type { SpokenLanguage } from './prompt/wishes.js';
import type { Asked } from './rank-shard.js';
import type { ConstraintName } from './ranking/constraints.js';
import type { PreparedQuery } from './ranking/facet.js';

/**
 * One part of what a query asks, in no language: codes, slugs, dates and place names, for src/render/restate.ts to
 * say in each. The constraints a prompt states are named as in ranking/constraints.ts; the rest are the parameters'
 * filters and, last, what only orders the answers.
 */
export type Part =
  | { say: 'price'; price: 'free' | 'paid' }
  /** Formats either way: a hybrid event can be joined online and in person. */
  | { say: 'format'; formats: Format[] }
  | { say: 'subject'; terms: string[]; fields: TopicSlug[] }
  | { say: 'kind'; kinds: EventKind[] }
  | { say: 'audience'; founders: boolean; seniority: Seniority[] }
  | { say: 'place'; place: string; mode: 'in' | 'near' }
  | { say: 'country'; country: Scope }
  | { say: 'window'; window: DateWindowHit; zone: string }
  /** The `format` parameter: that format exactly. */
  | { say: 'formatExactly'; format: EventFormat }
  | { say: 'topics'; topics: TopicSlug[] }
  /** The `who` and `seniority` parameters: each of them. */
  | { say: 'for'; founders: boolean; seniority: Seniority[] }
  | { say: 'org'; org: string }
  | { say: 'city'; place: string; near: boolean }
  | { say: 'plain'; field: PlainFieldName; values: string[] }
  | { say: 'cfp' }
  | { say: 'starts'; from: string | undefined; to: string | undefined; zone: string }
  | { say: 'home'; place: string }
  | { say: 'wished'; language: SpokenLanguage }
  /** Words the lexicon does not know: they find what mentions them, or, beside constraints, order what meets those. */
  | { say: 'words'; terms: string[]; first: boolean };

/** What a query asks, part by part in the order a sentence says them. */
export interface Restatement {
  /** Whether a prompt was typed: without one, and with nothing said of the events, they are the upcoming ones. */
  prompted: boolean;
  /** The prompt's phrase when an event of that title is listed first, whatever its words imply (`namedMatch`). */
  titled?: string;
  parts: Part[];
}

/**
 * What a query asks: every constraint it states, the parameters' filters, and then what only orders (where the
 * person is, the language wished, words the lexicon does not know). Every event listed is what it says.
 */
export function restatement(
  p: SearchParams,
  u: Understanding,
  scope: Scope,
  q: PreparedQuery,
  asked: Asked,
  titled = false,
): Restatement {
  const zone = zoneOf(scope);
  const parts: Part[] = [];
  const asks = (name: ConstraintName) => asked.constraints.some((c) => c.name === name);
  if (asks('price') && u.price) parts.push({ say: 'price', price: u.price });
  if (asks('format')) parts.push({ say: 'format', formats: u.formats });
  if (p.format) parts.push({ say: 'formatExactly', format: p.format });
  // A specific word as asked ("Java conferences"), a field by its slug ("AI & ML meetups").
  if (asks('subject'))
    parts.push({ say: 'subject', terms: q.technologies.map((t) => t.term), fields: q.fields.map((f) => f.slug) });
  // The `topic` parameter filters beside what the prompt names: said with it, or alone.
  if (p.topics.length) parts.push({ say: 'topics', topics: p.topics });
  if (asks('kind')) parts.push({ say: 'kind', kinds: u.kinds });
  if (p.who || p.seniority.length) parts.push({ say: 'for', founders: p.who === 'founders', seniority: p.seniority });
  if (asks('audience')) parts.push({ say: 'audience', founders: u.founders, seniority: u.seniority });
  if (p.org) parts.push({ say: 'org', org: p.org });
  if (p.city) parts.push({ say: 'city', place: p.city.name, near: p.near });
  if (asks('place') && u.place) parts.push({ say: 'place', place: u.place.place.name, mode: u.place.mode });
  // The country is said when no place is: the one the prompt names, else the scope searched.
  else if (!p.city) parts.push({ say: 'country', country: q.country ?? scope });
  for (const [field, values] of Object.entries(p.plain) as [PlainFieldName, string[]][])
    parts.push({ say: 'plain', field, values });
  if (p.cfp === 'open' || u.cfp) parts.push({ say: 'cfp' });
  if (asks('window') && u.window) parts.push({ say: 'window', window: u.window, zone });
  if (p.from || p.to) parts.push({ say: 'starts', from: p.from, to: p.to, zone });
  // Where the person is and the language they wish for order the answers; they do not narrow them.
  if (u.home) parts.push({ say: 'home', place: u.home.place.name });
  if (u.language) parts.push({ say: 'wished', language: u.language });
  if (u.terms.length) parts.push({ say: 'words', terms: u.terms, first: asked.mode === 'constraints' });
  return { prompted: p.q !== '', ...(titled ? { titled: u.phrase } : {}), parts };
}

/** Every filter a query applied, from its parameters and its prompt, as the `query` echo of an answer states it. */
export interface AppliedFilters {
  /** The city events are held to: the `city` parameter, else the place the prompt names. */
  city?: string;
  /** Whether the city stands for 45 km around it (`near=1`; a place named in a prompt always does). */
  near?: boolean;
  /** The prompt's date window, as local dates (inclusive). */
  window?: { from: string; to: string };
  from?: string;
  to?: string;
  seniority?: string[];
  kinds?: string[];
  formats?: string[];
  price?: 'free' | 'paid';
  org?: string;
  who?: 'founders';
  cfp?: 'open';
  /** The plain fields' filters, by their parameter (`lang`, `access`): the values asked. */
  plain?: Record<string, string[]>;
}

export function appliedFilters(p: SearchParams, u: Understanding, zone: string): AppliedFilters {
  const out: AppliedFilters = {};
  const place = p.city ?? u.place?.place;
  if (place) out.city = place.name;
  if (p.city ? p.near : u.place) out.near = true;
  if (u.window) {
    const local = (d: Date) => DateTime.fromJSDate(d, { zone: zoneNamed(zone) }).toISODate()!;
    out.window = { from: local(u.window.from), to: local(new Date(u.window.to.getTime() - 1)) };
  }
  if (p.from) out.from = p.from;
  if (p.to) out.to = p.to;
  const seniority = [...new Set([...p.seniority, ...u.seniority])];
  if (seniority.length) out.seniority = seniority;
  if (u.kinds.length) out.kinds = [...u.kinds];
  const formats = [...new Set([...(p.format ? [p.format] : []), ...u.formats])];
  if (formats.length) out.formats = formats;
  if (u.price) out.price = u.price;
  if (p.org) out.org = p.org;
  if (p.who ?? u.founders) out.who = 'founders';
  if (p.cfp ?? u.cfp) out.cfp = 'open';
  for (const [field, values] of Object.entries(p.plain) as [PlainFieldName, string[]][]) {
    const param = PLAIN_FIELDS[field].filter;
    if (param) out.plain = { ...out.plain, [param]: values };
  }
  return out;
}
