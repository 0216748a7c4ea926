import { z } from 'zod';
import { capacityViewSchema, decisionViewSchema, eventRsvpsSchema, rsvpViewSchema } from '../render/rsvp-json.js';
import { capacitySchema, decisionSchema } from '../use-cases/rsvp.js';
import { bearer, body, ID_IN_PATH, inPath, json, problem, ref, schemaOf } from './openapi-common.js';

const ID = { ...ID_IN_PATH, description: "The event's id" };
const HANDLE = {
  ...inPath('handle', { type: 'string' }),
  description: "The RSVP's handle, as the event's list gives it (an attendee's handle, or key:<keyId>)",
};
const COUNTRY = {
  name: 'country',
  in: 'query',
  required: false,
  description: "The event's country; an event in another one is not found",
  schema: { enum: ['ch', 'de', 'at'] },
} as const;

/** The schemas of the RSVP routes, for the OpenAPI document's components. */
export const rsvpSchemas = {
  Rsvp: schemaOf(rsvpViewSchema, 'output'),
  EventRsvps: schemaOf(eventRsvpsSchema, 'output'),
  CapacityResult: schemaOf(capacityViewSchema, 'output'),
  RsvpDecisionResult: schemaOf(decisionViewSchema, 'output'),
  RsvpDecision: schemaOf(z.strictObject({ decision: decisionSchema.shape.decision }), 'input'),
  Capacity: schemaOf(z.strictObject({ capacity: capacitySchema.shape.capacity }), 'input'),
};

const common = {
  400: problem('An id holding a character that cannot be stored, such as NUL (`bad-request`)'),
  401: problem('Nobody to RSVP for (`missing-holder`: says how to connect) or an invalid key (`invalid-key`)'),
  404: problem('No such event (`event-not-found`)'),
  422: problem('An unknown country'),
};

const own = (summary: string, description: string, extra: Record<string, unknown> = {}) => ({
  summary,
  description,
  security: bearer,
  parameters: [ID, COUNTRY],
  responses: {
    200: json('The RSVP', ref('Rsvp')),
    ...common,
    409: problem(
      'The event is cancelled (`event-cancelled`), or is imported and registered for at its source ' +
        '(`registration-at-source`, with `registrationUrl`); nothing was stored',
    ),
    ...extra,
  },
});

const hostOnly = {
  ...common,
  401: problem('Missing or invalid key'),
  403: problem('The event belongs to another key (`not-owner`)'),
};

/** The paths of RSVPs (docs/api.md, RSVPs): one's own, and the host's side of an event. */
export const rsvpPaths = {
  '/api/events/{id}/rsvp': {
    post: own(
      'RSVP to a host-run event',
      'open → registered while places are left, else waitlisted; waitlist → waitlisted; invite → requested ' +
        '(pending the host). RSVPing again changes nothing (`changed: false`), and a declined RSVP stays declined. ' +
        'An imported event takes no RSVP here: 409 `registration-at-source` with its `registrationUrl`.',
    ),
    delete: own(
      'Withdraw an RSVP',
      'A registered place withdrawn goes to the longest waiting on the waitlist. Withdrawing twice changes nothing.',
    ),
    get: own('Your RSVP for an event', 'Never cached (`Cache-Control: private, no-store`).', {
      404: problem('No such event (`event-not-found`), or you have no RSVP for it (`rsvp-not-found`)'),
    }),
  },
  '/api/events/{id}/rsvps': {
    get: {
      summary: "An event's RSVPs, for its host",
      description:
        'Counts, and each RSVP by its pseudonymous handle, state, waitlist place and since when, in queue order ' +
        '(withdrawn ones left out). Only the key that owns the event; never cached.',
      security: bearer,
      parameters: [ID, COUNTRY],
      responses: { 200: json("The event's RSVPs", ref('EventRsvps')), ...hostOnly },
    },
  },
  '/api/events/{id}/rsvps/{handle}': {
    post: {
      summary: 'Approve or decline a requested RSVP',
      description:
        'Approved, a request is registered while a place is left, else joins the end of the waitlist; declined, it ' +
        'stays declined. Repeating the decision that made its state changes nothing; any other state is a 409.',
      security: bearer,
      parameters: [ID, HANDLE, COUNTRY],
      requestBody: body(ref('RsvpDecision')),
      responses: {
        200: json('Decided', ref('RsvpDecisionResult')),
        ...hostOnly,
        400: problem('Malformed JSON, not valid UTF-8, or a character that cannot be stored'),
        404: problem('No such event (`event-not-found`) or no RSVP of it by this handle (`rsvp-not-found`)'),
        409: problem('The RSVP is not a request (`rsvp-not-requested`, with its `status`)'),
        415: problem('Not JSON, or JSON in a charset other than UTF-8'),
        422: problem('A decision other than approve or decline, a field it does not take, or an unknown country'),
      },
    },
  },
  '/api/events/{id}/capacity': {
    put: {
      summary: "Set an event's capacity",
      description:
        'A whole number of places, or null for no limit; kept as a revision of the event, like any write. Places it ' +
        'frees go to the waitlist in queue order (`promoted`); a lower capacity takes no place from anyone registered.',
      security: bearer,
      parameters: [ID, COUNTRY],
      requestBody: body(ref('Capacity')),
      responses: {
        200: json('Set, with the RSVPs after it', ref('CapacityResult')),
        ...hostOnly,
        400: problem('Malformed JSON, not valid UTF-8, or a character that cannot be stored'),
        409: problem('An imported event (`registration-at-source`)'),
        415: problem('Not JSON, or JSON in a charset other than UTF-8'),
        422: problem('Not a whole number of places from 1 (or null), a field it does not take, or an unknown country'),
      },
    },
  },
};
