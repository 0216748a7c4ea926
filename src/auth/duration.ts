/**
 * Durations as operators type them: a whole number and one unit, `90s`, `30m`, `2h`, `1d`. Written here rather than
 * taken from a library: `ms` also reads "1.5 hours", "2 years" and negative numbers, and luxon's Duration reads only
 * ISO 8601 (`PT2H`); one strict pattern is all a grace period needs.
 */
const DURATION_SHAPE = /^(\d{1,7})([smhd])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** The duration in seconds, or undefined when `text` is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_SHAPE.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/** The longest grace period of a key rotation: enough to redeploy, short enough that rotating away a leaked secret means something. */
export const MAX_GRACE_SECONDS = 30 * 86_400;
export const GRACE_MESSAGE = 'must be a duration such as 30m, 2h or 1d (at most 30d)';

/** A rotation's grace period as typed (`2h`) in seconds, or undefined when it is not one of at most 30 days. */
export function parseGrace(text: string): number | undefined {
  const seconds = parseDuration(text);
  return seconds === undefined || seconds > MAX_GRACE_SECONDS ? undefined : seconds;
}
