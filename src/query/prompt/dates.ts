/**
 * Date windows from free-text searches ("KI Meetup am Wochenende", "vendredi prochain"). The leftmost (then longest)
 * candidate wins: our own phrases (date-phrases.ts, computed with Luxon) or chrono-node's dates, weekdays and ranges.
 * Never depends on the process time zone: chrono's `timezone` option takes no IANA names, so chrono gets a Date
 * whose process-local wall clock is the zone's at `now`, and only the calendar components it found are read back.
 */
import { de, en, fr, it, type ParsedComponents, type ParsedResult } from 'chrono-node';
import { DateTime, type Zone } from 'luxon';
import { zoneNamed } from '../../places/zones.js';
import {
  BARE_DURATION,
  CHRONO_LEAD_IN,
  CHRONO_STOP_WORDS,
  DOTTED_DATE_PATTERN,
  ITALIAN_HINT,
  MONTH_NEEDS_CONTEXT,
  MONTH_PATTERN,
  MONTH_WORDS,
  mayHoldChronoDate,
  NUMBER_WORDS,
  RELATIVE_PATTERNS,
  type Relative,
  SPAN_PATTERNS,
  YEAR_PATTERN,
} from './date-phrases.js';

export type DateWindowKind = 'day' | 'days' | 'weekend' | 'week' | 'month' | 'year' | 'range';

export interface DateWindowHit {
  /** Inclusive instant. */
  from: Date;
  /** Exclusive instant. */
  to: Date;
  kind: DateWindowKind;
  /** Short English restatement, e.g. "next week (23–29 Nov 2026)", "on Fri 4 Dec". */
  label: string;
  /** Offset and length of the matched phrase in the input, so the caller can cut it out. */
  start: number;
  length: number;
}

type Window = Omit<DateWindowHit, 'start' | 'length'>;

interface Ctx {
  now: Date;
  zone: Zone;
  /** `now` in the target zone, and its local midnight. */
  local: DateTime;
  today: DateTime;
}

interface Candidate {
  start: number;
  length: number;
  /** Tie-break at equal span: our phrases (0) before chrono de, fr, it, en (day-first locales before en). */
  rank: number;
  build: () => Window | undefined;
}

const PARSERS = [de.casual, fr.casual, it.casual, en.casual] as const;
const ITALIAN = 2;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July'].concat([
  'August',
  'September',
  'October',
  'November',
  'December',
]);
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const APOSTROPHES: ReadonlySet<string> = new Set(['’', '‘', '`', '´', 'ʼ']);
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The first date window in `text` relative to `now` in the IANA zone; undefined when none, or only past ones. */
export function findDateWindow(text: string, now: Date, timeZone: string): DateWindowHit | undefined {
  const zone = zoneNamed(timeZone);
  const local = DateTime.fromJSDate(now, { zone });
  if (!local.isValid) throw new RangeError(`findDateWindow: invalid now or time zone "${timeZone}"`);
  const ctx: Ctx = { now, zone, local, today: local.startOf('day') };
  const { folded, map } = fold(text);
  const candidates = [...phraseCandidates(text, folded, map, ctx), ...chronoCandidates(text, folded, ctx)];
  candidates.sort((a, b) => a.start - b.start || b.length - a.length || a.rank - b.rank);
  // A rejected (past or impossible) phrase also blocks the shorter readings inside it: "3 Nov 2025" must not
  // fall back to "Nov 2025" or "Nov".
  let blockedUntil = -1;
  for (const c of candidates) {
    if (c.start < blockedUntil) continue;
    const w = c.build();
    if (w && w.to.getTime() > now.getTime()) return { ...w, start: c.start, length: c.length };
    blockedUntil = Math.max(blockedUntil, c.start + c.length);
  }
  return undefined;
}

/** Lower-case, strip diacritics, unify apostrophes; `map[i]` is the input offset of folded char i. */
function fold(text: string): { folded: string; map: number[] } {
  let folded = '';
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    let f: string;
    if (ch.charCodeAt(0) < 128) f = ch.toLowerCase();
    else if (APOSTROPHES.has(ch)) f = "'";
    else f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let k = 0; k < f.length; k++) map.push(i);
    folded += f;
  }
  return { folded, map };
}

function phraseCandidates(text: string, folded: string, map: number[], ctx: Ctx): Candidate[] {
  const out: Candidate[] = [];
  const add = (m: RegExpMatchArray, build: () => Window | undefined, leadIn = false) => {
    let start = map[m.index!]!;
    const end = map[m.index! + m[0].length - 1]! + 1;
    if (leadIn) start -= CHRONO_LEAD_IN.exec(text.slice(0, start))?.[0].length ?? 0;
    out.push({ start, length: end - start, rank: 0, build });
  };
  for (const [rel, re] of RELATIVE_PATTERNS) {
    for (const m of folded.matchAll(re)) add(m, () => relativeWindow(rel, ctx));
  }
  for (const m of folded.matchAll(MONTH_PATTERN)) {
    const [, prefix, word, year] = m;
    if (MONTH_NEEDS_CONTEXT.has(word!) && !prefix && !year) continue;
    add(m, () => monthWindow(MONTH_WORDS[word!]!, year ? Number(year) : undefined, ctx));
  }
  for (const m of folded.matchAll(DOTTED_DATE_PATTERN)) add(m, () => dottedWindow(m, ctx), true);
  for (const m of folded.matchAll(YEAR_PATTERN)) add(m, () => yearWindow(Number(m[1]), ctx));
  for (const re of SPAN_PATTERNS) {
    for (const m of folded.matchAll(re)) {
      const [, count, unit] = m;
      const n = NUMBER_WORDS[count!] ?? Number(count);
      const weeks = /^(?:w|se)/.test(unit!);
      add(m, () => spanWindow(n, weeks, ctx));
    }
  }
  return out;
}

/** Prompts of every shape chrono reads: each parser runs all its patterns on every text. */
const WARM_UP_TEXTS = [
  'AI Meetup am 3. Dezember 2026 um 18:30',
  'le 12 mars à 14h, jusqu’au vendredi',
  'next Friday 5pm',
];

/** Compiles chrono's patterns at start-up rather than in the first dated prompts; `serve` calls it before listening. */
export function warmUpDateParsing(): void {
  const ref = new Date();
  for (let round = 0; round < 2; round++) {
    for (const parser of PARSERS) for (const text of WARM_UP_TEXTS) parser.parse(text, ref, { forwardDate: true });
  }
}

function chronoCandidates(text: string, folded: string, ctx: Ctx): Candidate[] {
  if (!mayHoldChronoDate(folded)) return [];
  const l = ctx.local;
  // Process-local wall clock == target-zone wall clock, so chrono's "today" is the target zone's today.
  const ref = new Date(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  const italian = ITALIAN_HINT.test(folded);
  const out: Candidate[] = [];
  PARSERS.forEach((parser, i) => {
    if (i === ITALIAN && !italian) return;
    for (const r of parser.parse(text, ref, { forwardDate: true })) {
      if (!usable(r, text)) continue;
      const lead = CHRONO_LEAD_IN.exec(text.slice(0, r.index))?.[0].length ?? 0;
      const start = r.index - lead;
      out.push({ start, length: r.text.length + lead, rank: i + 1, build: () => chronoWindow(r, ctx) });
    }
  });
  return out;
}

/** Drop chrono's false friends: times without a date, bare words and durations, matches cut mid-word. */
function usable(r: ParsedResult, text: string): boolean {
  const s = r.start;
  const dayKnown = s.isCertain('day');
  if (!dayKnown && !s.isCertain('weekday')) return false; // "at 18:00", "this year", "March" (ours), "night"
  const t = r.text.trim().toLowerCase();
  if (CHRONO_STOP_WORDS.has(t) || BARE_DURATION.test(t)) return false;
  // chrono de reads "Do 3.12." as Thursday 03:12; we parse dotted dates ourselves.
  if (!dayKnown && /\d\.\d/.test(t)) return false;
  // chrono en reads "le 3 décembre" as "3 d(ays)".
  const before = text[r.index - 1] ?? '';
  const after = text[r.index + r.text.length] ?? '';
  return !WORD_CHAR.test(before) && !WORD_CHAR.test(after);
}

function chronoWindow(r: ParsedResult, ctx: Ctx): Window | undefined {
  const first = calendarDay(r.start, ctx.zone);
  if (!first) return undefined;
  const last = r.end ? calendarDay(r.end, ctx.zone) : undefined;
  return dayWindow(first, last && last > first ? last : first, ctx);
}

/** The local midnight of the calendar date chrono found; its clock time is ignored on purpose. */
function calendarDay(c: ParsedComponents, zone: Zone): DateTime | undefined {
  const year = c.get('year');
  const month = c.get('month');
  const day = c.get('day');
  if (year === null || month === null || day === null) return undefined;
  const d = DateTime.fromObject({ year, month, day }, { zone });
  return d.isValid ? d : undefined;
}

/** "3.12.", "03.12.2026", "3.-5.12." (day first, as written in ch/de/at). No year: the next occurrence. */
function dottedWindow(m: RegExpMatchArray, ctx: Ctx): Window | undefined {
  const [, fromDay, day, month, y] = m;
  const year = y ? Number(y) + (y.length === 2 ? 2000 : 0) : ctx.today.year;
  let last = DateTime.fromObject({ year, month: Number(month), day: Number(day) }, { zone: ctx.zone });
  if (!last.isValid) return undefined;
  if (!y && last < ctx.today) last = last.plus({ years: 1 });
  if (!fromDay) return dayWindow(last, last, ctx);
  if (Number(fromDay) >= last.day) return undefined;
  return dayWindow(last.set({ day: Number(fromDay) }), last, ctx);
}

/** A single local day (kind 'day') or first..last inclusive (kind 'range'). */
function dayWindow(first: DateTime, last: DateTime, ctx: Ctx): Window {
  const single = first.hasSame(last, 'day');
  const year = showYear(ctx, first, last);
  return win(
    first,
    last.plus({ days: 1 }),
    single ? 'day' : 'range',
    `on ${single ? dayLabel(first, year) : spanLabel(first, last, year)}`,
  );
}

function relativeWindow(rel: Relative, ctx: Ctx): Window {
  const { today } = ctx;
  const monday = today.startOf('week'); // Luxon weeks are ISO: Monday first
  const saturday = monday.plus({ days: 5 }); // on Sunday this is yesterday: today's weekend
  const named = (name: string, d: DateTime): Window =>
    win(d, d.plus({ days: 1 }), 'day', `${name} (${dayLabel(d, showYear(ctx, d))})`);
  const weekend = (name: string, sat: DateTime): Window =>
    win(
      sat,
      sat.plus({ days: 2 }),
      'weekend',
      `${name} (${spanLabel(sat, sat.plus({ days: 1 }), showYear(ctx, sat))})`,
    );
  const span = (name: string, kind: DateWindowKind, from: DateTime, to: DateTime): Window =>
    win(from, to, kind, `${name} (${spanLabel(from, to.minus({ days: 1 }), true)})`);
  switch (rel) {
    case 'today':
      return named('today', today);
    case 'tonight': {
      const w = named('tonight', today);
      return { ...w, from: today.set({ hour: 17 }).toJSDate(), label: w.label.replace(')', ', from 17:00)') };
    }
    case 'tomorrow':
      return named('tomorrow', today.plus({ days: 1 }));
    case 'afterTomorrow':
      return named('the day after tomorrow', today.plus({ days: 2 }));
    case 'thisWeek': // from today, never the days already gone
      return span('this week', 'week', today, monday.plus({ weeks: 1 }));
    case 'nextWeek':
      return span('next week', 'week', monday.plus({ weeks: 1 }), monday.plus({ weeks: 2 }));
    case 'thisWeekend':
      return weekend('this weekend', saturday);
    case 'nextWeekend':
      return weekend('next weekend', saturday.plus({ weeks: 1 }));
    case 'thisMonth': // like "this week": the rest of the month
      return span('this month', 'month', today, today.startOf('month').plus({ months: 1 }));
    case 'nextMonth': {
      const first = today.startOf('month').plus({ months: 1 });
      return win(first, first.plus({ months: 1 }), 'month', `next month (${monthName(first)})`);
    }
  }
}

/** A whole calendar month; without a year, the next occurrence (the current month counts). */
function monthWindow(month: number, year: number | undefined, ctx: Ctx): Window {
  const y = year ?? (month >= ctx.today.month ? ctx.today.year : ctx.today.year + 1);
  const first = DateTime.fromObject({ year: y, month, day: 1 }, { zone: ctx.zone });
  return win(first, first.plus({ months: 1 }), 'month', `in ${monthName(first)}`);
}

/** A whole calendar year, local ("in 2027"); one already over is rejected like any past window. */
function yearWindow(year: number, ctx: Ctx): Window {
  const first = DateTime.fromObject({ year, month: 1, day: 1 }, { zone: ctx.zone });
  return win(first, first.plus({ years: 1 }), 'year', `in ${year}`);
}

/** "in the next N days/weeks": from now to the end of the local day N days ahead. */
function spanWindow(n: number, weeks: boolean, ctx: Ctx): Window | undefined {
  const days = weeks ? n * 7 : n;
  if (!Number.isInteger(days) || days < 1 || days > 366) return undefined;
  const to = ctx.today.plus({ days: days + 1 });
  const unit = weeks ? (n === 1 ? 'week' : 'weeks') : n === 1 ? 'day' : 'days';
  const label = `next ${n} ${unit} (${spanLabel(ctx.today, to.minus({ days: 1 }), true)})`;
  return { from: ctx.now, to: to.toJSDate(), kind: 'days', label };
}

function win(from: DateTime, to: DateTime, kind: DateWindowKind, label: string): Window {
  return { from: from.toJSDate(), to: to.toJSDate(), kind, label };
}

function showYear(ctx: Ctx, ...days: DateTime[]): boolean {
  return days.some((d) => d.year !== ctx.today.year);
}

function dayLabel(d: DateTime, year: boolean): string {
  return `${WEEKDAYS[d.weekday - 1]} ${d.day} ${MONTHS[d.month - 1]}${year ? ` ${d.year}` : ''}`;
}

function monthName(d: DateTime): string {
  return `${MONTHS_LONG[d.month - 1]} ${d.year}`;
}

/** "23–29 Nov 2026", "30 Nov – 6 Dec 2026", "28 Dec 2026 – 3 Jan 2027" (first and last day inclusive). */
function spanLabel(a: DateTime, b: DateTime, year: boolean): string {
  const y = year ? ` ${b.year}` : '';
  if (a.hasSame(b, 'day')) return `${a.day} ${MONTHS[a.month - 1]}${y}`;
  if (a.hasSame(b, 'month')) return `${a.day}–${b.day} ${MONTHS[b.month - 1]}${y}`;
  if (a.year === b.year) return `${a.day} ${MONTHS[a.month - 1]} – ${b.day} ${MONTHS[b.month - 1]}${y}`;
  return `${a.day} ${MONTHS[a.month - 1]} ${a.year} – ${b.day} ${MONTHS[b.month - 1]} ${b.year}`;
}
