/**
 * Who holds an RSVP: a host key (the MCP tool with a host's key, as before attendees existed) or an attendee, a
 * person known only by a random id (see storage/attendees.repository.ts). Never the owner of an event.
 */
export type Holder = { kind: 'key'; keyId: string } | { kind: 'attendee'; attendeeId: string };

export const keyHolder = (keyId: string): Holder => ({ kind: 'key', keyId });
export const attendeeHolder = (attendeeId: string): Holder => ({ kind: 'attendee', attendeeId });
