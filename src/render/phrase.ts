import { DateTime } from 'luxon';
import { isWholeDay } from '../catalogue/cfp.js';
import { PLAIN_FIELDS, type PlainField } from '../catalogue/event.js';
import type { Phrase, Value, WindowNamed } from '../catalogue/words.js';
import { calendarDay, dayRange, dayText, localDay } from '../i18n/dates.js';
import { languageName, type Translator, translator } from '../i18n/translator.js';
import { windowPeriod, windowPeriodKey } from './restate.js';

const ENGLISH = translator('en');

/** A reason or a difference (catalogue/words.ts) in a language; English is what JSON, markdown and MCP carry. */
export function sayPhrase(phrase: Phrase, t: Translator = ENGLISH): string {
  if (!phrase.values) return t.say(phrase.words);
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(phrase.values)) values[name] = valueText(value, t);
  return t.say(phrase.words, values);
}

export const inEnglish = (phrases: readonly Phrase[]): string[] => phrases.map((phrase) => sayPhrase(phrase));

function valueText(value: Value, t: Translator): string | number {
  if (typeof value !== 'object') return value;
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
  return windowName(value.window, value.zone, new Date(value.now), value.capital, t);
}

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
function windowName(window: WindowNamed, zone: string, now: Date, capital: boolean, t: Translator): string {
  const hit = window as Parameters<typeof windowPeriod>[0];
  const text =
    t.lang === 'en'
      ? window.label.split(' (')[0]!
      : (windowPeriod(hit, zone, now, t) ?? dayRange(window.from, window.to, zone, t));
  if (capital) return text.charAt(0).toLocaleUpperCase(t.locale) + text.slice(1);
  const relative = t.lang === 'en' || windowPeriodKey(hit, zone, now) !== undefined;
  return relative ? text.charAt(0).toLocaleLowerCase(t.locale) + text.slice(1) : text;
}
