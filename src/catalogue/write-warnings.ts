import { type EventContent, endsAt } from './event.js';

/**
 * Something a write should know about a submission that was stored all the same. An event already over is kept (a
 * host may push its whole history, and nothing is destroyed) but no listing shows it, so the answer says so.
 */
export interface WriteWarning {
  code: 'event-over';
  /** The field that makes it so: endAt when one was given, else startAt. */
  field: 'endAt' | 'startAt';
  detail: string;
}

/** The warnings for content about to be stored at `now`; `endGiven`: whether the submission named endAt. */
export function writeWarnings(
  content: Pick<EventContent, 'start' | 'end'>,
  endGiven: boolean,
  now: Date,
): WriteWarning[] {
  const ended = endsAt(content);
  if (ended > now.getTime()) return [];
  const when = new Date(ended).toISOString();
  const field = endGiven ? 'endAt' : 'startAt';
  const why = endGiven
    ? `it ended at ${when}`
    : `it started at ${content.start.toISOString()} and, without endAt, counts as over at ${when}`;
  return [
    {
      code: 'event-over',
      field,
      detail:
        `Stored, but ${why}: listings, feeds, calendars and MCP answers show only events that have not ended, so it ` +
        `will not be found there (its page and mine=1 still show it). If it is meant to be upcoming, check ${field}'s year.`,
    },
  ];
}
