import type { ImportedRecord } from './importer.js';

/**
 * What one read of one iCal calendar may cost, whoever serves it: a host's linked calendar or a feed's. A calendar over
 * a limit on size fails its read; one over a limit on events keeps its first events and says it was cut. See
 * docs/operations.md, "Limits of a calendar read".
 */
export const CALENDAR_LIMITS = {
  /** Bytes of the calendar as received, after any decompression (a small gzip body may unpack to far more). */
  maxBytes: 4 * 1024 * 1024,
  /** Events kept of one calendar: those not over yet first, in start order, then past ones, latest first. */
  maxEvents: 1_000,
  /** Occurrences all the calendar's recurring series expand to together. */
  maxOccurrences: 2_000,
  /** Recurrence-rule steps all its series take together: a rule that began long ago walks up to now first. */
  maxRuleSteps: 100_000,
} as const;

/** A start as a number to order by: an all-day date counts from its UTC midnight. */
const startOf = (record: ImportedRecord) =>
  'instant' in record.start ? record.start.instant.getTime() : Date.parse(`${record.start.date}T00:00:00Z`);
const endOf = (record: ImportedRecord) => {
  const end = record.end ?? record.start;
  return 'instant' in end ? end.instant.getTime() : Date.parse(`${end.date}T23:59:59Z`);
};

/**
 * The first `max` records: those not over at `now` in start order, then past ones from the latest back; undefined when
 * all fit (nothing to cut, order unchanged).
 */
export function firstEvents(records: ImportedRecord[], max: number, now: Date): ImportedRecord[] | undefined {
  if (records.length <= max) return undefined;
  const at = now.getTime();
  const upcoming = records.filter((r) => endOf(r) >= at).sort((a, b) => startOf(a) - startOf(b));
  const past = records.filter((r) => endOf(r) < at).sort((a, b) => startOf(b) - startOf(a));
  return [...upcoming, ...past].slice(0, max);
}
