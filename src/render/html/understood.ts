import { calendarDay, dayRange, isoDayLabel, localDay, periodOf, weeksAhead } from '../../i18n/dates.js';
import type { MessageId } from '../../i18n/messages/index.js';
import type { Translator } from '../../i18n/translator.js';
import { type ConstraintName, type DateWindowHit, type SearchResult, zoneOf } from '../../query/read-index.js';
import { inCountry, languageName } from './i18n.js';

/** A part of what the page says it looked for, and the constraint it restates when it is one. */
interface Facet {
  text: string;
  constraint?: ConstraintName;
}

/**
 * How the page read a search, in the reader's language: the parts of the query as short phrases ("AI & ML ·
 * meetups · in or near Zürich · next week (3–9 Mar 2025)"), built from the engine's structured understanding
 * rather than its English sentence, and each constraint as its entry in the engine's table says it (a technology as
 * typed, "online or hybrid"). Short phrases, not one sentence: a sentence assembled from parts would need each
 * language's agreement and word order ("kostenlose KI-Meetups", "meetups IA gratuits").
 */
function facetsOf(result: SearchResult, t: Translator, now: Date): Facet[] {
  const { params: p, understanding: u } = result;
  const zone = zoneOf(result.country);
  const facets: Facet[] = [];
  const subject = [
    ...u.technologies.map((tech) => tech.term),
    ...[...new Set([...u.topics.filter((topic) => !topic.specific).map((topic) => topic.slug), ...p.topics])].map(
      (slug) => t.t(`topic.${slug}`),
    ),
  ];
  if (subject.length) facets.push({ text: t.or([...new Set(subject)]), constraint: 'subject' });
  if (u.kinds.length) facets.push({ text: t.or(u.kinds.map((kind) => t.t(`kinds.${kind}`))), constraint: 'kind' });
  const formats = u.formats.map((f) =>
    f === 'hybrid' ? t.t('format.hybrid') : t.t('facet.orHybrid', { format: t.t(`format.${f}`) }),
  );
  if (formats.length) facets.push({ text: t.or(formats), constraint: 'format' });
  if (p.format) facets.push({ text: t.t(`format.${p.format}`) });
  if (u.price) facets.push({ text: t.t(u.price === 'free' ? 'facet.free' : 'facet.paid'), constraint: 'price' });
  const audience = [
    ...(u.founders ? [t.t('audience.founders')] : []),
    ...u.seniority.map((level) => t.t('audience.seniority', { level })),
  ];
  if (audience.length) facets.push({ text: t.or(audience), constraint: 'audience' });
  if (p.who === 'founders') facets.push({ text: t.t('audience.founders') });
  for (const level of p.seniority) facets.push({ text: t.t('audience.seniority', { level }) });
  if (p.org) facets.push({ text: t.t('facet.by', { org: p.org }) });
  if (p.city)
    facets.push({
      text: p.near ? t.t('facet.within', { km: 45, place: p.city.name }) : t.t('facet.in', { place: p.city.name }),
    });
  if (u.place)
    facets.push({
      text: t.t(u.place.mode === 'near' ? 'facet.near' : 'facet.inOrNear', { place: u.place.place.name }),
      constraint: 'place',
    });
  if (!p.city && !u.place) facets.push({ text: inCountry(t, result.country), constraint: 'country' });
  if (p.cfp === 'open' || u.cfp) facets.push({ text: t.t('facet.cfp') });
  if (u.window) facets.push({ text: windowText(u.window, zone, now, t), constraint: 'window' });
  if (p.from) facets.push({ text: t.t('facet.from', { date: isoDayLabel(p.from, zone, t) }) });
  if (p.to) facets.push({ text: t.t('facet.until', { date: isoDayLabel(p.to, zone, t) }) });
  // The plain fields' filters (`lang`, `access`): each hard, as the parameter asks.
  const { language, accessibility } = p.plain;
  if (language?.length)
    facets.push({ text: t.t('facet.heldIn', { language: t.or(language.map((l) => languageName(t, l))) }) });
  // Each value of the `access` filter (catalogue/event.ts) has its phrase, `facet.access.<value>`.
  for (const offer of accessibility ?? []) facets.push({ text: t.t(`facet.access.${offer}` as MessageId) });
  if (u.language) facets.push({ text: t.t('facet.languageFirst', { language: languageName(t, u.language) }) });
  for (const term of u.terms) facets.push({ text: t.t('facet.term', { term }) });
  return facets;
}

/** What the page says it looked for, part by part. */
export function understoodFacets(result: SearchResult, t: Translator, now: Date): string[] {
  return facetsOf(result, t, now).map((f) => f.text);
}

/** A constraint of the search as the page says it (for "without …"), or the engine's words when it has none. */
export function constraintText(result: SearchResult, name: ConstraintName, t: Translator, now: Date): string {
  return facetsOf(result, t, now).find((f) => f.constraint === name)?.text ?? name;
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
    !p.to &&
    Object.keys(p.plain).length === 0
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

/** The relative period a window is ("next week", "this weekend"), when it is one; its label is `period.<key>`. */
export type WindowPeriod = 'today' | 'tomorrow' | 'thisWeek' | 'nextWeek' | 'thisWeekend' | 'nextWeekend';

export function windowPeriodKey(window: DateWindowHit, zone: string, now: Date): WindowPeriod | undefined {
  const first = localDay(window.from, zone);
  switch (window.kind) {
    case 'day': {
      const period = periodOf(first, zone, now);
      return period === 'today' || period === 'tomorrow' ? period : undefined;
    }
    case 'week':
    case 'weekend': {
      // Weeks run Monday to Sunday, as the search reads them.
      const weeks = weeksAhead(first, zone, now);
      const [current, next] =
        window.kind === 'week' ? (['thisWeek', 'nextWeek'] as const) : (['thisWeekend', 'nextWeekend'] as const);
      return weeks === 0 ? current : weeks === 1 ? next : undefined;
    }
    default:
      return undefined;
  }
}

function nameWindow(window: DateWindowHit, zone: string, now: Date, t: Translator): string | undefined {
  const period = windowPeriodKey(window, zone, now);
  if (period) return t.t(`period.${period}`);
  return window.kind === 'month' ? calendarDay(localDay(window.from, zone), t).toFormat('LLLL yyyy') : undefined;
}
