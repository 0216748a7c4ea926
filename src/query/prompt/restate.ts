import { PLAIN_FIELDS, type PlainField, type PlainFieldName } from '../../catalogue/event.js';
import { EVENT_KIND_LABELS, FORMAT_LABELS, SENIORITY_LABELS, topicLabel } from '../../catalogue/taxonomy.js';
import { COUNTRY_INFO, type Country } from '../../places/countries.js';
import type { SearchParams } from '../params.js';
import type { Understanding } from './understand.js';

const KIND_PLURAL: Record<string, string> = {
  meetup: 'meetups',
  conference: 'conferences',
  workshop: 'workshops',
  hackathon: 'hackathons',
  talk: 'talks',
  networking: 'networking events',
};

function joinAnd(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** One plain sentence restating how a query was understood, e.g. "AI & ML meetups in or near Zürich, next week (23–29 Nov 2026)". */
export function describeQuery(p: SearchParams, u: Understanding, country: Country): string {
  const adjectives: string[] = [];
  if (u.price === 'free') adjectives.push('free');
  for (const f of u.formats) adjectives.push(FORMAT_LABELS[f].toLowerCase());
  if (p.format) adjectives.push(FORMAT_LABELS[p.format].toLowerCase());
  // A specific word is restated as asked ("Java conferences"), a field by its label ("AI & ML meetups").
  const fields = u.topics.filter((t) => !t.specific).map((t) => t.slug);
  const topics = [
    ...new Set([...u.technologies.map((t) => t.term), ...[...new Set([...fields, ...p.topics])].map(topicLabel)]),
  ];
  const kinds = u.kinds.map((k) => KIND_PLURAL[k] ?? EVENT_KIND_LABELS[k].toLowerCase());
  let subject = [...adjectives, topics.join(' or ')].filter(Boolean).join(' ');
  subject = `${subject} ${kinds.length ? joinAnd(kinds) : 'events'}`.trim();
  subject = subject.charAt(0).toUpperCase() + subject.slice(1);
  if (!p.q && adjectives.length === 0 && topics.length === 0) subject = 'Upcoming events';

  const parts = [subject];
  const audience = [
    ...(u.founders || p.who === 'founders' ? ['founders'] : []),
    ...[...new Set([...u.seniority, ...p.seniority])].map((s) => SENIORITY_LABELS[s].toLowerCase()),
  ];
  if (audience.length) parts.push(`for ${joinAnd(audience)}`);
  if (p.org) parts.push(`by ${p.org}`);
  if (p.city) parts.push(p.near ? `within 45 km of ${p.city.name}` : `in ${p.city.name}`);
  if (u.place) parts.push(u.place.mode === 'near' ? `near ${u.place.place.name}` : `in or near ${u.place.place.name}`);
  if (!p.city && !u.place) parts.push(`in ${COUNTRY_INFO[country].name}`);
  for (const [field, values] of Object.entries(p.plain) as [PlainFieldName, string[]][]) {
    const spec: PlainField = PLAIN_FIELDS[field];
    const labels = values.map((v) => spec.labels[v] ?? v);
    parts.push(spec.restate ? spec.restate(labels) : `${spec.title.toLowerCase()} ${labels.join(' or ')}`);
  }
  if (p.cfp === 'open') parts.push('with an open call for papers');
  let sentence = parts.join(' ');
  // Where the person is orders the answers; it does not narrow them as "in Munich" does.
  if (u.home) sentence += `, nearest to your base in ${u.home.place.name} first`;
  if (u.window) sentence += `, ${u.window.label}`;
  if (p.from || p.to)
    sentence += `, starting ${p.from ? `from ${p.from}` : ''}${p.from && p.to ? ' ' : ''}${p.to ? `until ${p.to}` : ''}`;
  if (u.terms.length) sentence += `, matching ${u.terms.map((t) => `“${t}”`).join(', ')}`;
  return sentence;
}
