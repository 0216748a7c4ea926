import { topicLabel } from '../catalogue/taxonomy.js';
import { COUNTRY_INFO } from '../places/countries.js';
import type { SearchParams } from '../query/params.js';

/** What a document or feed is filtered to, for titles ("AI & ML · Zürich", "“AI meetups”", "Switzerland"). */
export function filterLabel(p: SearchParams): string {
  const parts: string[] = [];
  if (p.topics.length) parts.push(p.topics.map((t) => topicLabel(t)).join(', '));
  if (p.city) parts.push(p.near ? `near ${p.city.name}` : p.city.name);
  if (p.org) parts.push(p.org);
  if (p.who) parts.push('for founders');
  if (p.q) parts.push(`“${p.q}”`);
  if (parts.length) return parts.join(' · ');
  return p.country === 'all' ? 'Switzerland, Germany and Austria' : COUNTRY_INFO[p.country].name;
}
