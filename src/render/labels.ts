import type { PlainFieldName } from '../catalogue/event.js';
import { topicLabel } from '../catalogue/taxonomy.js';
import { plainFilterPhrase } from '../catalogue/words.js';
import { COUNTRY_INFO } from '../places/countries.js';
import type { SearchParams } from '../query/params.js';
import { sayPhrase } from './phrase.js';

/**
 * What a document or feed is filtered to, for titles ("AI & ML · Zürich", "online · from 2026-12-01", "“AI meetups”",
 * "Switzerland"): every parameter applied, and the prompt as typed.
 */
export function filterLabel(p: SearchParams): string {
  const parts: string[] = [];
  if (p.topics.length) parts.push(p.topics.map((t) => topicLabel(t)).join(', '));
  if (p.city) parts.push(p.near ? `near ${p.city.name}` : p.city.name);
  if (p.org) parts.push(p.org);
  if (p.who) parts.push('for founders');
  if (p.format) parts.push(p.format.replace('_', ' '));
  for (const [field, values] of Object.entries(p.plain) as [PlainFieldName, string[]][])
    parts.push(sayPhrase(plainFilterPhrase(field, values)));
  if (p.cfp) parts.push('open call for papers');
  if (p.from || p.to) parts.push([p.from && `from ${p.from}`, p.to && `until ${p.to}`].filter(Boolean).join(' '));
  if (p.q) parts.push(`“${p.q}”`);
  if (parts.length) return parts.join(' · ');
  return p.country === 'all' ? 'Switzerland, Germany and Austria' : COUNTRY_INFO[p.country].name;
}
