import { DateTime } from 'luxon';
import { isWholeDay } from '../catalogue/cfp.js';
import { PLAIN_FIELDS, type PlainField } from '../catalogue/event.js';
import type { Phrase, Value, WindowNamed } from '../catalogue/words.js';
import { calendarDay, dayRange, dayText, isoDayLabel, localDay, periodOf, weeksAhead } from '../i18n/dates.js';
import { languageName, type Translator, translator } from '../i18n/translator.js';
import type { DateWindowHit } from '../query/read-index.js';

const ENGLISH = translator('en');

/** A reason or a difference (catalogue/words.ts) in a language; English is what JSON, markdown and MCP carry. */
export function sayPhrase(phrase: Phrase, t: Translator = ENGLISH): string {
  if (!phrase.values) return t.say(phrase.words);
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(phrase.values)) values[name] = valueText(value, t);
  return t.say(phrase.words, values);
}

export const inEnglish = (phrases: readonly Phrase[]): string[] => phrases.map((phrase) => sayPhrase(phrase));

/** What a value names, in a language (catalogue/words.ts, Value). */
export function valueText(value: Value | Phrase, t: Translator): string | number {
  if (typeof value !== 'object') return value;
  if ('words' in value) return sayPhrase(value, t);
  if ('or' in value) return t.or(said(value.or, t));
  if ('and' in value) return t.and(said(value.and, t));
  if ('countryIn' in value) return t.t('country.in', { country: value.countryIn as 'ch' });
  if ('isoDay' in value) return isoDayLabel(value.isoDay, value.zone, t);
  if ('topic' in value) return t.t(`topic.${value.topic}` as 'topic.ai-ml');
  if ('format' in value) return t.t(`format.${value.format}`);
  if ('kind' in value) return t.t(`kind.${value.kind}`);
  if ('level' in value) return t.t('restate.level', { level: value.level });
  if ('levels' in value) return t.and(value.levels.map((level) => t.t('restate.level', { level })));
  if ('country' in value) return t.t('country.name', { country: value.country });
  if ('language' in value) return languageName(t, value.language);
  if ('plain' in value) {
    const words = (PLAIN_FIELDS[value.plain] as PlainField).words[t.lang];
    return value.value === undefined ? words.title : (words.labels[value.value] ?? value.value);
  }
  if ('day' in value) return dayText(localDay(value.day, value.zone), t, 'short');
  if ('month' in value)
    return calendarDay(localDay(value.month, value.zone), t).toFormat(value.year ? 'LLLL yyyy' : 'LLLL');
  if ('deadline' in value) return deadlineText(value.deadline, value.zone, t);
  return windowName(value, t);
}

/** Items, each said once ("Java" asked and named by its field is one). */
const said = (items: readonly (Value | Phrase)[], t: Translator) => [
  ...new Set(items.map((item) => String(valueText(item, t)))),
];

/** "Fri 4 Dec 2026", or with its local time "Fri 4 Dec 2026, 23:59" for a deadline at an hour. */
function deadlineText(deadline: string, zone: string, t: Translator): string {
  const whole = isWholeDay(deadline);
  const at = (whole ? DateTime.fromISO(deadline, { zone }) : DateTime.fromISO(deadline).setZone(zone)).setLocale(
    t.locale,
  );
  if (t.lang === 'en') return at.toFormat(whole ? 'ccc d LLL yyyy' : "ccc d LLL yyyy', 'HH:mm");
  return at.toLocaleString(whole ? DateTime.DATE_MED_WITH_WEEKDAY : DateTime.DATETIME_MED);
}

/**
 * A date window in a phrase. In English by its own label's words ("next week", "in March 2027", "tonight"); in the
 * other languages by its name relative to today or its month, else its days. Inside a sentence a relative period
 * is not capitalised.
 */
function windowName(value: Extract<Value, { window: WindowNamed }>, t: Translator): string {
  const { window, zone, capital, dated } = value;
  const hit = window as Parameters<typeof windowPeriod>[0];
  const now = new Date(value.now);
  const text =
    t.lang === 'en'
      ? dated
        ? window.label
        : window.label.split(' (')[0]!
      : dated
        ? windowText(hit, zone, now, t)
        : (windowPeriod(hit, zone, now, t) ?? dayRange(window.from, window.to, zone, t));
  if (capital) return text.charAt(0).toLocaleUpperCase(t.locale) + text.slice(1);
  const relative = t.lang === 'en' || windowPeriodKey(hit, zone, now) !== undefined;
  return relative ? text.charAt(0).toLocaleLowerCase(t.locale) + text.slice(1) : text;
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
