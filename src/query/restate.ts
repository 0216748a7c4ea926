import { DateTime } from 'luxon';
import { PLAIN_FIELDS, type PlainFieldName } from '../catalogue/event.js';
import { type Phrase, plainFilterPhrase, type Words } from '../catalogue/words.js';
import { zoneNamed } from '../places/zones.js';
import { NEAR_RADIUS_KM, type Scope, type SearchParams } from './params.js';
import { zoneOf } from './plan.js';
import type { Understanding } from './prompt/understand.js';
import type { Asked } from './rank-shard.js';
import type { PreparedQuery } from './ranking/facet.js';
import type { ConstraintName } from './ranking/facets.js';
import { audienceOf, RESTATE } from './ranking/said.js';

/** What a part of the restatement is: a constraint the prompt states, or one of the parameters' filters. */
export type PartName =
  | ConstraintName
  /** The `format` parameter: that format exactly. */
  | 'formatExactly'
  | 'topics'
  /** The `who` and `seniority` parameters: each of them. */
  | 'for'
  | 'org'
  | 'city'
  | 'plain'
  | 'cfp'
  | 'starts'
  | 'home'
  | 'wished'
  /** Words the lexicon does not know: they find what mentions them, or, beside constraints, order what meets those. */
  | 'words';

/** One part of what a query asks, in no language (ranking/said.ts, RESTATE), for src/render/restate.ts to say. */
export interface Part {
  say: PartName;
  phrase: Phrase;
}

/** What a query asks, part by part in the order a sentence says them. */
export interface Restatement {
  /** Whether a prompt was typed: without one, and with nothing said of the events, they are the upcoming ones. */
  prompted: boolean;
  /** The prompt's phrase when an event of that title is listed first, whatever its words imply (`namedMatch`). */
  titled?: string;
  parts: Part[];
}

/**
 * What a query asks: every constraint it states (each as its row in ranking/constraints.ts says it), the parameters'
 * filters, and then what only orders (where the person is, the language wished, words the lexicon does not know).
 * Every event listed is what it says.
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
  const add = (say: PartName, words: Words, values?: Phrase['values']) =>
    parts.push({ say, phrase: { words, values } });
  // Each constraint once: at its own place in the sentence, or, for one with no place of its own, before the dates.
  const placed = new Set<ConstraintName>();
  const said = (name: ConstraintName) => {
    placed.add(name);
    const constraint = asked.constraints.find((c) => c.name === name);
    if (constraint?.restates) parts.push({ say: name, phrase: constraint.restates(q) });
  };
  said('price');
  said('format');
  if (p.format) add('formatExactly', RESTATE.formatExactly, { format: p.format });
  said('subject');
  // The `topic` parameter filters beside what the prompt names: said with it, or alone.
  if (p.topics.length) add('topics', RESTATE.just, { value: { or: p.topics.map((topic) => ({ topic })) } });
  said('kind');
  if (p.who || p.seniority.length)
    add('for', RESTATE.for, { audience: { and: audienceOf(p.who === 'founders', p.seniority) } });
  said('audience');
  if (p.org) add('org', RESTATE.by, { org: p.org });
  if (p.city)
    if (p.near) add('city', RESTATE.within, { km: NEAR_RADIUS_KM, place: p.city.name });
    else add('city', RESTATE.in, { place: p.city.name });
  if (asked.constraints.some((c) => c.name === 'place')) said('place');
  // The country is said when no place is: the one the prompt names, else the scope searched.
  else if (!p.city) add('country', RESTATE.just, { value: { countryIn: q.country ?? scope } });
  for (const [field, values] of Object.entries(p.plain) as [PlainFieldName, string[]][])
    parts.push({ say: 'plain', phrase: plainFilterPhrase(field, values) });
  if (p.cfp === 'open' || u.cfp) add('cfp', RESTATE.cfp);
  for (const c of asked.constraints) if (!placed.has(c.name) && c.name !== 'window') said(c.name);
  said('window');
  if (p.from && p.to)
    add('starts', RESTATE.startsBetween, { from: { isoDay: p.from, zone }, to: { isoDay: p.to, zone } });
  else if (p.from) add('starts', RESTATE.startsFrom, { from: { isoDay: p.from, zone } });
  else if (p.to) add('starts', RESTATE.startsUntil, { to: { isoDay: p.to, zone } });
  // Where the person is and the language they wish for order the answers; they do not narrow them.
  if (u.home) add('home', RESTATE.home, { place: u.home.place.name });
  if (u.language) add('wished', RESTATE.wished, { language: { language: u.language } });
  if (u.terms.length) {
    const words = { or: u.terms.map((word) => ({ words: RESTATE.word, values: { word } })) };
    add('words', asked.mode === 'constraints' ? RESTATE.mentioning : RESTATE.matching, { words });
  }
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
