import { PLAIN_FIELDS, type PlainField, type PlainFieldName, type PlainFieldWords } from '../catalogue/event.js';
import { calendarDay, dayRange, isoDayLabel, localDay, periodOf, weeksAhead } from '../i18n/dates.js';
import { languageName, type Translator, translator } from '../i18n/translator.js';
import type { ConstraintName, DateWindowHit, Part, Restatement, SearchResult } from '../query/read-index.js';

const ENGLISH = translator('en');

/** How an answer restates its query, in English (`understood`): "AI & ML meetups in or near Zürich, next week (…)". */
export const describeQuery = (r: Restatement): string => sayRestatement(r, ENGLISH);

/** A constraint of the query as the restatement says it, for what dropping it would find ("without …"). */
export function constraintText(result: SearchResult, name: ConstraintName, t = ENGLISH, now?: Date): string {
  const part = result.restatement.parts.find((p) => p.say === name);
  return part ? sayPart(part, t, now) : name;
}

/**
 * A query's restatement (query/restate.ts) said in one language, from its messages (`restate.*`): a head naming the
 * events ("free AI & ML meetups", "Meetups zu KI & ML, kostenlos": `restate.head` orders it per language), the
 * filters after it, then the dates and what only orders, each after a comma. English is `understood`; a page says it
 * in its language.
 */
export function sayRestatement(r: Restatement, t: Translator, now?: Date): string {
  const head = new Map<Part['say'], string>();
  let rest = '';
  for (const part of r.parts) {
    const said = sayPart(part, t, now);
    if (HEAD.has(part.say)) head.set(part.say, said);
    else if (said) rest += AFTER.has(part.say) ? `, ${said}` : t.t('restate.tail', { part: said });
  }
  const about = head.get('subject') ?? '';
  const topics = head.get('topics') ?? '';
  const subject = about && topics ? t.t('restate.withTopic', { subject: about, topics }) : about || topics;
  const [price = '', format = '', formatExactly = ''] = ADJECTIVES.map((say) => head.get(say));
  const sentence =
    !r.prompted && !price && !format && !formatExactly && !subject
      ? t.t('restate.upcoming') + rest
      : tidy(
          t.t('restate.head', {
            price,
            format,
            formatExactly,
            subject: subject && t.t('restate.about', { subject }),
            kind: head.get('kind') || t.t('restate.events'),
          }),
        ) + rest;
  if (r.titled) return t.t('restate.titled', { phrase: r.titled, rest: sentence });
  return sentence.charAt(0).toLocaleUpperCase(t.locale) + sentence.slice(1);
}

/** The parts said in the head, the adjectives among them in their order. */
const ADJECTIVES = ['price', 'format', 'formatExactly'] as const;
const HEAD: ReadonlySet<Part['say']> = new Set([...ADJECTIVES, 'subject', 'topics', 'kind']);
/** The parts said after a comma: the dates, and what only orders. */
const AFTER: ReadonlySet<Part['say']> = new Set(['window', 'starts', 'home', 'wished', 'words']);

/** A head's message with its empty places dropped: no doubled spaces, no comma before nothing. */
const tidy = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/( ?,)+/g, ',')
    .replace(/^[ ,]+|[ ,]+$/g, '');

/** One part as a phrase: "AI & ML or Java", "meetups", "in or near Zürich", "next week (30 Nov – 6 Dec 2026)". */
export function sayPart(part: Part, t: Translator, now?: Date): string {
  const audience = (founders: boolean, seniority: readonly string[]) => [
    ...(founders ? [t.t('restate.founders')] : []),
    ...seniority.map((level) => t.t('restate.level', { level })),
  ];
  switch (part.say) {
    case 'price':
      return t.t('restate.price', { price: part.price });
    case 'format':
      return t.or(part.formats.map((format) => t.t('restate.format', { format })));
    case 'formatExactly':
      return t.t('restate.formatExactly', { format: part.format });
    case 'subject':
      return t.or([...new Set([...part.terms, ...part.fields.map((slug) => t.t(`topic.${slug}`))])]);
    case 'topics':
      return t.or(part.topics.map((slug) => t.t(`topic.${slug}`)));
    case 'kind':
      return t.or(part.kinds.map((kind) => t.t(`kinds.${kind}`)));
    case 'audience':
      return t.t('restate.for', { audience: t.or(audience(part.founders, part.seniority)) });
    case 'for':
      return t.t('restate.for', { audience: t.and(audience(part.founders, part.seniority)) });
    case 'org':
      return t.t('restate.by', { org: part.org });
    case 'city':
      return part.near
        ? t.t('restate.within', { km: 45, place: part.place })
        : t.t('restate.in', { place: part.place });
    case 'place':
      return t.t(part.mode === 'near' ? 'restate.near' : 'restate.inOrNear', { place: part.place });
    case 'country':
      return t.t('country.in', { country: part.country });
    case 'plain':
      return plainWords(part.field, t).filtered.replace(
        '{values}',
        t.or(part.values.map((v) => valueName(part, v, t))),
      );
    case 'cfp':
      return t.t('restate.cfp');
    case 'window':
      return windowWords(part, t, now);
    case 'starts': {
      const from = part.from && isoDayLabel(part.from, part.zone, t);
      const to = part.to && isoDayLabel(part.to, part.zone, t);
      if (from && to) return t.t('restate.startsBetween', { from, to });
      return from ? t.t('restate.startsFrom', { from }) : t.t('restate.startsUntil', { to: to ?? '' });
    }
    case 'home':
      return t.t('restate.home', { place: part.place });
    case 'wished':
      return t.t('restate.wished', { language: languageName(t, part.language) });
    case 'words': {
      const words = t.or(part.terms.map((word) => t.t('restate.word', { word })));
      return t.t(part.first ? 'restate.mentioning' : 'restate.matching', { words });
    }
  }
}

/** A plain field's words in the reader's language (catalogue/event.ts, PLAIN_FIELDS). */
const plainWords = (field: PlainFieldName, t: Translator): PlainFieldWords<string> =>
  (PLAIN_FIELDS[field] as PlainField).words[t.lang];

/** A plain field's value in the language, as the field names it. */
function valueName(part: Extract<Part, { say: 'plain' }>, value: string, t: Translator): string {
  return plainWords(part.field, t).labels[value] ?? value;
}

/**
 * A date window. In English as the prompt reader labelled it ("tonight (Wed 2 Dec, from 17:00)", "in March 2027"),
 * its own words; in the other languages by its days, named relative to `now` when it is ("nächste Woche (3.–9. März
 * 2025)"), or by its days alone without a clock.
 */
function windowWords({ window, zone }: Extract<Part, { say: 'window' }>, t: Translator, now?: Date): string {
  if (t.lang === 'en') return window.label;
  if (!now) return dayRange(window.from, window.to, zone, t);
  const text = windowText(window, zone, now, t);
  // A relative period is a heading's word ("Nächste Woche"); inside a sentence it is not capitalised.
  return windowPeriodKey(window, zone, now) ? text.charAt(0).toLocaleLowerCase(t.locale) + text.slice(1) : text;
}

/** A date window as "Next week (3–9 Mar 2025)", or just its days when it has no name relative to today. */
export function windowText(window: DateWindowHit, zone: string, now: Date, t: Translator): string {
  const range = dayRange(window.from, window.to, zone, t);
  const period = windowPeriod(window, zone, now, t);
  return period ? t.t('window.span', { period, range }) : range;
}

/**
 * A date window's name relative to today — today, tomorrow, this or next week or weekend — or its month
 * ("March 2025", "März 2025"); undefined for other spans.
 */
export const windowPeriod = (window: DateWindowHit, zone: string, now: Date, t: Translator): string | undefined =>
  nameWindow(window, zone, now, t);

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
