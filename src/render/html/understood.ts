import { calendarDay, dayRange, isoDayLabel, localDay, periodOf, weeksAhead } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import { type SearchResult, zoneOf } from '../../query/engine.js';
import type { DateWindowHit } from '../../query/prompt/dates.js';
import { inCountry } from './i18n.js';

/**
 * How the page read a search, in the reader's language: the parts of the query as short phrases ("AI & ML ·
 * meetups · in or near Zürich · next week (3–9 Mar 2025)"), built from the engine's structured understanding
 * rather than its English sentence. Short phrases, not one sentence: a sentence assembled from parts would need
 * each language's agreement and word order ("kostenlose KI-Meetups", "meetups IA gratuits").
 */
export function understoodFacets(result: SearchResult, t: Translator, now: Date): string[] {
  const { params: p, understanding: u } = result;
  const zone = zoneOf(result.country);
  const facets: string[] = [];
  const topics = [...new Set([...u.topics.map((topic) => topic.slug), ...p.topics])];
  if (topics.length) facets.push(t.or(topics.map((slug) => t.t(`topic.${slug}`))));
  if (u.kinds.length) facets.push(t.or(u.kinds.map((kind) => t.t(`kinds.${kind}`))));
  for (const format of new Set([...u.formats, ...(p.format ? [p.format] : [])])) facets.push(t.t(`format.${format}`));
  if (u.price) facets.push(t.t(u.price === 'free' ? 'facet.free' : 'facet.paid'));
  if (u.founders || p.who === 'founders') facets.push(t.t('audience.founders'));
  for (const level of new Set([...u.seniority, ...p.seniority])) facets.push(t.t('audience.seniority', { level }));
  if (p.org) facets.push(t.t('facet.by', { org: p.org }));
  if (p.city)
    facets.push(p.near ? t.t('facet.within', { km: 45, place: p.city.name }) : t.t('facet.in', { place: p.city.name }));
  if (u.place)
    facets.push(t.t(u.place.mode === 'near' ? 'facet.near' : 'facet.inOrNear', { place: u.place.place.name }));
  if (!p.city && !u.place && result.country !== 'all') facets.push(inCountry(t, result.country));
  if (u.window) facets.push(windowText(u.window, zone, now, t));
  if (p.from) facets.push(t.t('facet.from', { date: isoDayLabel(p.from, zone, t) }));
  if (p.to) facets.push(t.t('facet.until', { date: isoDayLabel(p.to, zone, t) }));
  for (const term of u.terms) facets.push(t.t('facet.term', { term }));
  return facets;
}

/** Whether a search asks for anything beyond the country's upcoming events. */
export function isPlainListing(result: SearchResult): boolean {
  const { params: p } = result;
  return (
    !p.q &&
    p.topics.length === 0 &&
    p.seniority.length === 0 &&
    !p.city &&
    !p.format &&
    !p.org &&
    !p.who &&
    !p.from &&
    !p.to
  );
}

/** A date window as "Next week (3–9 Mar 2025)", or just its days when it has no name relative to today. */
export function windowText(window: DateWindowHit, zone: string, now: Date, t: Translator): string {
  const range = dayRange(window.from, window.to, zone, t);
  const period = windowPeriod(window, zone, now, t);
  return period ? t.t('window.span', { period, range }) : range;
}

/**
 * A date window's name relative to today — today, tomorrow, this or next week or weekend — or its month
 * ("March 2025", "März 2025"); undefined for other spans. Kept per window and language: each result with a date
 * reason asks for it.
 */
export function windowPeriod(window: DateWindowHit, zone: string, now: Date, t: Translator): string | undefined {
  let names = windowNames.get(window);
  if (!names) {
    names = {};
    windowNames.set(window, names);
  }
  if (!(t.lang in names)) names[t.lang] = nameWindow(window, zone, now, t);
  return names[t.lang];
}

const windowNames = new WeakMap<DateWindowHit, Record<string, string | undefined>>();

function nameWindow(window: DateWindowHit, zone: string, now: Date, t: Translator): string | undefined {
  const first = localDay(window.from, zone);
  switch (window.kind) {
    case 'day': {
      const period = periodOf(first, zone, now);
      return period === 'today' || period === 'tomorrow' ? t.t(`period.${period}`) : undefined;
    }
    case 'week':
    case 'weekend': {
      // Weeks run Monday to Sunday, as the search reads them.
      const weeks = weeksAhead(first, zone, now);
      const [current, next] =
        window.kind === 'week' ? (['thisWeek', 'nextWeek'] as const) : (['thisWeekend', 'nextWeekend'] as const);
      return weeks === 0 ? t.t(`period.${current}`) : weeks === 1 ? t.t(`period.${next}`) : undefined;
    }
    case 'month':
      return calendarDay(first, t).toFormat('LLLL yyyy');
    default:
      return undefined;
  }
}
