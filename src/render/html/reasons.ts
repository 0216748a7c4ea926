import { DateTime } from 'luxon';
import type { CatalogueEvent } from '../../catalogue/event.js';
import {
  EVENT_KIND_LABELS,
  EVENT_KINDS,
  FORMAT_LABELS,
  FORMATS,
  SENIORITIES,
  SENIORITY_LABELS,
  TOPICS,
} from '../../catalogue/taxonomy.js';
import { dayText, localDay } from '../../i18n/dates.js';
import { languageName, type Translator } from '../../i18n/translator.js';
import type { DateWindowHit } from '../../query/read-index.js';
import { windowPeriod } from '../restate.js';

/**
 * Match reasons in the reader's language. The engine explains each match in English text ("Topic: AI & ML",
 * "In Zürich", "Next week: Thu 5 Mar") because the JSON, markdown and MCP outputs carry exactly that text; the
 * pages read those reasons back into their message and arguments here, by the engine's own label tables and
 * phrasing. A reason this does not know is shown as it is, marked as English (`lang: 'en'`), never dropped.
 * When the engine gives reasons as a code and arguments, this module becomes a lookup.
 */
export interface ShownReason {
  text: string;
  /** Set when the text is the engine's English, untranslated. */
  lang?: 'en';
}

/** The engine's reason for an event in a plain listing, which matched nothing in particular. */
export const PLACEHOLDER_REASON = 'Upcoming';

type Fixed = (t: Translator) => string;

/** The reasons without arguments, by the engine's exact wording. */
const FIXED: ReadonlyMap<string, Fixed> = new Map<string, Fixed>([
  ...TOPICS.map((topic): [string, Fixed] => [
    `Topic: ${topic.label}`,
    (t) => t.t('reason.topic', { topic: t.t(`topic.${topic.slug}`) }),
  ]),
  ...FORMATS.map((format): [string, Fixed] => [FORMAT_LABELS[format], (t) => t.t(`format.${format}`)]),
  ...EVENT_KINDS.map((kind): [string, Fixed] => [EVENT_KIND_LABELS[kind], (t) => t.t(`kind.${kind}`)]),
  ...SENIORITIES.map((level): [string, Fixed] => [
    `For ${SENIORITY_LABELS[level].toLowerCase()}`,
    (t) => t.t('reason.seniority', { level }),
  ]),
  ['Hybrid: also online', (t) => t.t('reason.hybrid', { format: 'online' })],
  ['Hybrid: also in person', (t) => t.t('reason.hybrid', { format: 'in_person' })],
  ['Free', (t) => t.t('price.free')],
  ['Paid', (t) => t.t('price.paid')],
  ['For founders', (t) => t.t('reason.founders')],
  ['General tech event', (t) => t.t('reason.general')],
  [PLACEHOLDER_REASON, (t) => t.t('reason.upcoming')],
]);

/** The reasons with an argument, by the engine's phrasing; the first that matches wins. */
const PATTERNS: readonly [RegExp, (t: Translator, m: RegExpExecArray) => string][] = [
  [/^Near your base in (.*)$/s, (t, m) => t.t('reason.nearBase', { place: m[1]! })],
  [/^(\d+) km from your base in (.*)$/s, (t, m) => t.t('reason.distanceFromBase', { km: Number(m[1]), place: m[2]! })],
  [/^Online: no travel from (.*)$/s, (t, m) => t.t('reason.onlineFromBase', { place: m[1]! })],
  [/^Worth the trip from (.*)$/s, (t, m) => t.t('reason.worthTrip', { place: m[1]! })],
  [/^Call for papers open until (.*)$/s, (t, m) => t.t('reason.cfpOpen', { date: englishDate(m[1]!, t) })],
  [
    /^Language: (en|de|fr|it|English|German|French|Italian)$/s,
    (t, m) => t.t('reason.language', { language: languageName(t, LANGUAGE_CODES[m[1]!] ?? m[1]!) }),
  ],
  [/^Title mentions “(.*)”$/s, (t, m) => t.t('reason.titleMentions', { term: m[1]! })],
  [/^Description mentions “(.*)”$/s, (t, m) => t.t('reason.descriptionMentions', { term: m[1]! })],
  [/^Topic mentions “(.*)”$/s, (t, m) => t.t('reason.topicMentions', { term: m[1]! })],
  [/^Organizer: (.*)$/s, (t, m) => t.t('reason.organizer', { name: m[1]! })],
  [/^(\d+) km from (.*)$/s, (t, m) => t.t('reason.distance', { km: Number(m[1]), place: m[2]! })],
  [/^In (.*)$/s, (t, m) => t.t('reason.in', { place: m[1]! })],
  [/^At (.*)$/s, (t, m) => t.t('reason.at', { venue: m[1]! })],
];

export interface ReasonContext {
  t: Translator;
  event: Pick<CatalogueEvent, 'start'>;
  /** The date window of the query, if it had one: its reason is "<window phrase>: <day>". */
  window: DateWindowHit | undefined;
  zone: string;
  now: Date;
}

/** One engine reason in the reader's language. */
export function showReason(reason: string, ctx: ReasonContext): ShownReason {
  const { t } = ctx;
  const fixed = FIXED.get(reason);
  if (fixed) return { text: fixed(t) };
  if (ctx.window && reason.startsWith(windowReasonPrefix(ctx.window))) {
    // The day shown is the event's start, or the window's first day for an event that began before it.
    const shown = Math.max(ctx.event.start.getTime(), ctx.window.from.getTime());
    const day = dayText(localDay(shown, ctx.zone), t, 'short');
    const period = windowPeriod(ctx.window, ctx.zone, ctx.now, t) ?? t.t('reason.inYourDates');
    return { text: t.t('reason.when', { period, day }) };
  }
  for (const [pattern, render] of PATTERNS) {
    const match = pattern.exec(reason);
    if (match) return { text: render(t, match) };
  }
  return { text: reason, lang: 'en' };
}

const LANGUAGE_CODES: Record<string, string> = { English: 'en', German: 'de', French: 'fr', Italian: 'it' };

/** A date the engine wrote in English ("Tue 1 Dec 2026", "…, 23:59"), written again in the reader's language. */
function englishDate(text: string, t: Translator): string {
  if (t.locale.startsWith('en')) return text;
  const withTime = DateTime.fromFormat(text, "ccc d LLL yyyy', 'HH:mm", { locale: 'en' });
  if (withTime.isValid) return withTime.setLocale(t.locale).toLocaleString(DateTime.DATETIME_MED);
  const day = DateTime.fromFormat(text, 'ccc d LLL yyyy', { locale: 'en' });
  return day.isValid ? day.setLocale(t.locale).toLocaleString(DateTime.DATE_MED_WITH_WEEKDAY) : text;
}

/** How the engine starts the reason of a date window: its label's phrase, capitalised ("Next week: "). */
function windowReasonPrefix(window: DateWindowHit): string {
  const phrase = window.label.split(' (')[0]!;
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}: `;
}
