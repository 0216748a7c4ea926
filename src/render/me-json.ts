import { z } from 'zod';
import { type CatalogueEvent, LIFECYCLES } from '../catalogue/event.js';
import { eventPageUrl } from './event-json.js';

/** GET /api/me: the signed-in attendee as they see themselves (docs/api.md, Attendees). */
export const meViewSchema = z.object({
  handle: z.string().describe('The random handle hosts see beside your RSVPs'),
  calendarUrl: z.string().describe('Your private iCal address (secret; POST /api/me/calendar renews it)'),
  rsvps: z
    .array(
      z.object({
        id: z.string().describe('The event’s id'),
        title: z.string(),
        url: z.string().describe('The event page'),
        start: z.string().describe('ISO 8601 UTC'),
        lifecycle: z.enum(LIFECYCLES),
        status: z.enum(['registered', 'waitlisted', 'requested', 'declined']),
        waitlistPlace: z.number().int().nullable().describe('1-based, when waitlisted'),
        since: z.string().describe('When the status last changed, ISO 8601 UTC'),
      }),
    )
    .describe('Every RSVP but withdrawn ones, soonest event first'),
});
export type MeView = z.output<typeof meViewSchema>;

/** The address of an attendee's private calendar. */
export const privateCalendarUrl = (baseUrl: string, token: string) => `${baseUrl}/me/calendar/${token}.ics`;

export function toMeView(
  baseUrl: string,
  attendee: { handle: string; calendarToken: string },
  rsvps: readonly {
    event: Pick<CatalogueEvent, 'id' | 'title' | 'country' | 'start' | 'lifecycle'>;
    status: MeView['rsvps'][number]['status'];
    waitlistPlace: number | null;
    since: Date;
  }[],
): MeView {
  return {
    handle: attendee.handle,
    calendarUrl: privateCalendarUrl(baseUrl, attendee.calendarToken),
    rsvps: rsvps.map((r) => ({
      id: r.event.id,
      title: r.event.title,
      url: eventPageUrl(baseUrl, r.event),
      start: r.event.start.toISOString(),
      lifecycle: r.event.lifecycle,
      status: r.status,
      waitlistPlace: r.waitlistPlace,
      since: r.since.toISOString(),
    })),
  };
}
