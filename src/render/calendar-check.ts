import type { CalendarCheck } from '../use-cases/check-calendars.js';
import { escapeCell } from './markdown.js';

const HEAD =
  '| Calendar | State | Events | Place from (event / description / calendar / online / unknown) | Next event |';

/** Where the events' places came from, counts in the header's order. */
const placesOf = (c: CalendarCheck) => {
  const { event, description, calendar, online, unknown } = c.places;
  return `${event} / ${description} / ${calendar} / ${online} / ${unknown}`;
};

/**
 * The result of `calendars check` as a GitHub markdown table: one row a calendar, then a line of totals by state.
 * "10 (full)" is a calendar showing as many events as it shows at most: later ones are not in the read; a calendar
 * over a limit of a read says what was cut beside its state.
 */
export function renderCalendarCheck(checks: readonly CalendarCheck[], checkedAt: Date): string {
  const rows = checks.map((c) => {
    const state = c.error ? `${c.state}: ${c.error}` : c.cut ? `${c.state}, ${c.cut}` : c.state;
    const events = c.full ? `${c.events} (full)` : String(c.events);
    const next = c.next ? `${c.next.start.slice(0, 16).replace('T', ' ')} UTC ${c.next.title}` : '';
    return `| ${escapeCell(`${c.source}/${c.calendar}`)} | ${escapeCell(state.slice(0, 200))} | ${events} | ${placesOf(c)} | ${escapeCell(next)} |`;
  });
  const byState = new Map<string, number>();
  for (const c of checks) byState.set(c.state, (byState.get(c.state) ?? 0) + 1);
  const totals = [...byState].map(([state, n]) => `${n} ${state}`).join(', ');
  return [
    `Calendars checked at ${checkedAt.toISOString()}: ${checks.length}${totals ? ` (${totals})` : ''}.`,
    '',
    HEAD,
    '|---|---|---:|---|---|',
    ...rows,
    '',
  ].join('\n');
}
