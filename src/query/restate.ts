import { DateTime } from 'luxon';
import { PLAIN_FIELDS, type PlainField, type PlainFieldName } from '../catalogue/event.js';
import { FORMAT_LABELS, SENIORITY_LABELS, topicLabel } from '../catalogue/taxonomy.js';
import { COUNTRY_INFO } from '../places/countries.js';
import { zoneNamed } from '../places/zones.js';
import type { Scope, SearchParams } from './params.js';
import type { Understanding } from './prompt/understand.js';
import type { Asked } from './rank-shard.js';
import { type ConstraintName, joinAnd, joinOr } from './ranking/constraints.js';
import type { PreparedQuery } from './ranking/facet.js';

/**
 * One plain sentence restating a query: every constraint it states, each as its entry in ranking/constraints.ts says
 * it, the parameters' filters, and then what only orders ("…, nearest to your base in Munich first"). E.g. "AI & ML
 * meetups in or near Zürich, next week (30 Nov – 6 Dec 2026)". Every event listed is what it says.
 */
export function describeQuery(
  p: SearchParams,
  u: Understanding,
  scope: Scope,
  q: PreparedQuery,
  asked: Asked,
  titled = false,
): string {
  const said = (name: ConstraintName) => {
    const constraint = asked.constraints.find((c) => c.name === name);
    return constraint ? constraint.says(q) : '';
  };
  const adjectives = [said('price'), said('format'), p.format ? FORMAT_LABELS[p.format].toLowerCase() : ''].filter(
    Boolean,
  );
  const topics = p.topics.map(topicLabel);
  let subject = said('subject');
  // The `topic` parameter filters beside what the prompt names: said with it, or alone.
  if (topics.length) subject = subject ? `${subject} (topic ${joinOr(topics)})` : joinOr(topics);
  let sentence = [...adjectives, subject, said('kind') || 'events'].filter(Boolean).join(' ');
  sentence = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  if (!p.q && adjectives.length === 0 && !subject) sentence = 'Upcoming events';

  const parts = [sentence];
  const audience = [
    ...(p.who === 'founders' ? ['founders'] : []),
    ...p.seniority.map((s) => SENIORITY_LABELS[s].toLowerCase()),
  ];
  if (audience.length) parts.push(`for ${joinAnd(audience)}`);
  if (said('audience')) parts.push(said('audience'));
  if (p.org) parts.push(`by ${p.org}`);
  if (p.city) parts.push(p.near ? `within 45 km of ${p.city.name}` : `in ${p.city.name}`);
  if (said('place')) parts.push(said('place'));
  else if (!p.city) {
    parts.push(
      q.country
        ? `in ${COUNTRY_INFO[q.country].name}`
        : scope === 'all'
          ? 'in Switzerland, Germany or Austria'
          : `in ${COUNTRY_INFO[scope].name}`,
    );
  }
  for (const [field, values] of Object.entries(p.plain) as [PlainFieldName, string[]][]) {
    const spec: PlainField = PLAIN_FIELDS[field];
    const labels = values.map((v) => spec.labels[v] ?? v);
    parts.push(spec.restate ? spec.restate(labels) : `${spec.title.toLowerCase()} ${labels.join(' or ')}`);
  }
  if (p.cfp === 'open' || u.cfp) parts.push('with an open call for papers');
  sentence = parts.join(' ');
  if (said('window')) sentence += `, ${said('window')}`;
  if (p.from || p.to)
    sentence += `, starting ${p.from ? `from ${p.from}` : ''}${p.from && p.to ? ' ' : ''}${p.to ? `until ${p.to}` : ''}`;
  // Where the person is and the language they wish for order the answers; they do not narrow them.
  if (u.home) sentence += `, nearest to your base in ${u.home.place.name} first`;
  if (u.language) sentence += `, those held in ${PLAIN_FIELDS.language.labels[u.language]} first`;
  const words = u.terms.map((t) => `“${t}”`);
  if (words.length) {
    // Words the lexicon does not know find what mentions them, or, beside constraints, order what meets those.
    sentence +=
      asked.mode === 'constraints' ? `, those mentioning ${joinOr(words)} first` : `, matching ${joinOr(words)}`;
  }
  // The event named by its title is listed whatever its words imply (rank-shard.ts, `namedMatch`).
  return titled
    ? `The event titled “${u.phrase}”, then ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`
    : sentence;
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
