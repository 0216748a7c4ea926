import { COMMUNITY_SOURCE, HOST_SOURCE } from '../catalogue/event.js';

/** A source name: also the owner (`source:<name>`) and the public `source` field, so kept plain. */
export const SOURCE_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export function sourceNameError(source: string): string | undefined {
  if (!SOURCE_NAME.test(source)) return 'must be 1-63 lower-case letters, digits, ".", "_" or "-"';
  if (source === HOST_SOURCE) return `"${HOST_SOURCE}" is reserved for events pushed by hosts`;
  if (source === COMMUNITY_SOURCE)
    return `"${COMMUNITY_SOURCE}" is reserved for the calendars communities proposed (POST /api/calendars/proposals)`;
  return undefined;
}
