import { z } from 'zod';
import type { CapacityResult, DecisionResult, EventRsvps, RsvpResult } from '../use-cases/rsvp.js';
import { eventPageUrl } from './event-json.js';

/*
 * The RSVP shapes of the HTTP routes and the MCP tool, defined once: an RSVP as its holder sees it, and an event's
 * RSVPs as its host sees them (docs/contract.md, An RSVP).
 */

export const RSVP_STATUSES = ['registered', 'waitlisted', 'requested', 'declined', 'withdrawn'] as const;

const countsSchema = z
  .object({ registered: z.number().int(), waitlisted: z.number().int(), requested: z.number().int() })
  .describe("The event's RSVPs by state (withdrawn and declined ones not counted)");

export const rsvpViewShape = {
  eventId: z.string(),
  eventTitle: z.string(),
  eventUrl: z.string().describe("The event's page"),
  status: z
    .enum(RSVP_STATUSES)
    .describe(
      'registered: a place; waitlisted: in the queue (waitlistPlace); requested: pending the host (invite); ' +
        'declined: the host said no; withdrawn: given up',
    ),
  waitlistPlace: z.number().int().nullable().describe('1-based place in the queue while waitlisted, else null'),
  changed: z.boolean().describe('False when the request repeated the current state'),
  registeredAt: z.string().describe('When the RSVP was first made'),
  updatedAt: z.string().describe('When it got its status'),
  counts: countsSchema,
};
export const rsvpViewSchema = z.object(rsvpViewShape);
export type RsvpView = z.infer<typeof rsvpViewSchema>;

export function toRsvpView(r: RsvpResult, baseUrl: string): RsvpView {
  return {
    eventId: r.event.id,
    eventTitle: r.event.title,
    eventUrl: eventPageUrl(baseUrl, r.event),
    status: r.registration.status,
    waitlistPlace: r.waitlistPlace,
    changed: r.changed,
    registeredAt: r.registration.createdAt.toISOString(),
    updatedAt: r.registration.updatedAt.toISOString(),
    counts: r.counts,
  };
}

/** One sentence of an RSVP's state, for a tool's text and a CLI. */
export function rsvpText(r: RsvpResult): string {
  const place = r.waitlistPlace ? ` (place ${r.waitlistPlace} on the waitlist)` : '';
  return `${r.event.title}: ${r.registration.status}${place}${r.changed ? '' : ' — unchanged'}.`;
}

export const eventRsvpsSchema = z.object({
  eventId: z.string(),
  eventUrl: z.string(),
  regMode: z.enum(['open', 'invite', 'waitlist']),
  capacity: z.number().int().nullable().describe('Places; null: no limit'),
  counts: countsSchema.extend({ declined: z.number().int() }),
  rsvps: z
    .array(
      z.object({
        handle: z
          .string()
          .describe("An attendee's pseudonymous handle, or key:<keyId> for a host key's RSVP; names it in decisions"),
        status: z.enum(['registered', 'waitlisted', 'requested', 'declined']),
        waitlistPlace: z.number().int().nullable(),
        since: z.string().describe('When it got its status'),
      }),
    )
    .describe('In queue order; withdrawn RSVPs are not listed'),
});
export type EventRsvpsView = z.infer<typeof eventRsvpsSchema>;

export function toEventRsvpsView(list: EventRsvps, baseUrl: string): EventRsvpsView {
  const { event } = list;
  return {
    eventId: event.id,
    eventUrl: eventPageUrl(baseUrl, event),
    regMode: event.regMode,
    capacity: event.capacity,
    counts: list.counts,
    rsvps: list.rsvps.map((r) => ({ ...r, since: r.since.toISOString() })),
  };
}

export const capacityViewSchema = eventRsvpsSchema.extend({
  promoted: z.number().int().describe('Waitlisted RSVPs the change registered, in queue order'),
  changed: z.boolean(),
});

export type CapacityView = z.infer<typeof capacityViewSchema>;

export function toCapacityView(r: CapacityResult, baseUrl: string): CapacityView {
  return { ...toEventRsvpsView(r, baseUrl), promoted: r.promoted, changed: r.changed };
}

export const decisionViewSchema = z.object({
  eventId: z.string(),
  handle: z.string(),
  status: z.enum(RSVP_STATUSES),
  waitlistPlace: z.number().int().nullable(),
  changed: z.boolean(),
  counts: countsSchema,
});

export type DecisionView = z.infer<typeof decisionViewSchema>;

export function toDecisionView(r: DecisionResult): DecisionView {
  const { event, handle, status, waitlistPlace, changed, counts } = r;
  return { eventId: event.id, handle, status, waitlistPlace, changed, counts };
}
