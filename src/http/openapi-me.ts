import { z } from 'zod';
import { meViewSchema } from '../render/me-json.js';
import { ceremonySchema } from '../use-cases/attendees.js';
import { body, inPath, json, problem, ref, schemaOf } from './openapi-common.js';

/** The session cookie /api/me's routes take (POST /api/me/passkeys or /api/me/session sets it). */
export const meSecuritySchemes = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'tev_session',
    description: 'An attendee’s session (HttpOnly, SameSite=Lax), set by a passkey ceremony; writes must be same-site',
  },
};
const session = [{ sessionCookie: [] }];

const optionsSchema = z.object({
  challengeId: z.string().describe('Send it back with the browser’s answer; taken once, for five minutes'),
  options: z.looseObject({ challenge: z.string() }).describe('For @simplewebauthn/browser (`optionsJSON`)'),
});

/** The schemas of /api/me, for the OpenAPI document's components. */
export const meSchemas = {
  Me: schemaOf(meViewSchema, 'output'),
  Ceremony: schemaOf(ceremonySchema, 'input'),
  CeremonyOptions: schemaOf(optionsSchema, 'output'),
};

const ceremonyBody = body(ref('Ceremony'));
const bodyProblems = {
  400: problem(
    'Malformed JSON, or the passkey did not verify (`passkey-refused`: unknown or used challenge, another origin, an unknown passkey)',
  ),
  415: problem('Not JSON'),
  422: problem('Not a ceremony’s answer (`challengeId` and the browser’s `response`)'),
};
const signedIn = { 401: problem('Nobody is signed in (`not-signed-in`)') };
const sameSite = { 403: problem('A write with the cookie from another site (`cross-site`)') };
const noBodyProblems = { 400: problem('A body that is not JSON'), 415: problem('A body that is not JSON') };

/** The paths of /api/me (docs/api.md, Attendees): passkeys, the session, the attendee's RSVPs and private calendar. */
export const mePaths = {
  '/api/me': {
    get: {
      summary: 'The signed-in attendee: handle, RSVPs and private calendar address',
      security: session,
      responses: { 200: json('The attendee', ref('Me')), ...signedIn },
    },
    delete: {
      summary: 'Delete the identity: every RSVP withdrawn (waitlists promoted), passkeys and sessions deleted',
      security: session,
      responses: {
        200: json('Deleted', {
          type: 'object',
          required: ['deleted', 'withdrawn'],
          properties: { deleted: { const: true }, withdrawn: { type: 'integer', description: 'RSVPs withdrawn' } },
        }),
        ...signedIn,
        ...sameSite,
      },
    },
  },
  '/api/me/passkeys/options': {
    post: {
      summary: 'Begin creating a passkey: WebAuthn options (a discoverable credential, named by a random handle)',
      responses: { 200: json('The options and the challenge’s id', ref('CeremonyOptions')), ...noBodyProblems },
    },
  },
  '/api/me/passkeys': {
    post: {
      summary: 'Finish creating a passkey: a new attendee, signed in (session cookie)',
      description:
        'Limited per client address and hour (ATTENDEES_PER_HOUR, 10 by default). Nothing personal is stored.',
      requestBody: ceremonyBody,
      responses: {
        201: json('The new attendee; `Set-Cookie` holds the session', ref('Me')),
        ...bodyProblems,
        429: problem('Too many new passkeys from this address this hour (`rate-limited`, `Retry-After`)'),
      },
    },
  },
  '/api/me/session/options': {
    post: {
      summary: 'Begin signing in: WebAuthn options (no credentials listed: the browser offers its passkeys)',
      responses: { 200: json('The options and the challenge’s id', ref('CeremonyOptions')), ...noBodyProblems },
    },
  },
  '/api/me/session': {
    post: {
      summary: 'Finish signing in with a passkey (session cookie)',
      requestBody: ceremonyBody,
      responses: { 200: json('The attendee; `Set-Cookie` holds the session', ref('Me')), ...bodyProblems },
    },
    delete: {
      summary: 'Sign out: the session ends and its cookie is cleared (also answered without one)',
      security: session,
      responses: {
        200: json('Signed out', {
          type: 'object',
          required: ['signedOut'],
          properties: { signedOut: { const: true } },
        }),
        ...sameSite,
      },
    },
  },
  '/api/me/calendar': {
    post: {
      summary: 'Renew the private calendar address; the old one answers 404 from now on',
      security: session,
      responses: {
        200: json('The new address', {
          type: 'object',
          required: ['calendarUrl'],
          properties: { calendarUrl: { type: 'string' } },
        }),
        ...signedIn,
        ...sameSite,
      },
    },
  },
  '/me/calendar/{file}': {
    get: {
      summary: 'An attendee’s private iCal calendar (`<token>.ics`): registered, waitlisted and requested events',
      description:
        'Registered events carry reminders; waitlisted and requested ones are TENTATIVE (the place in the summary); ' +
        'a cancelled event is CANCELLED; withdrawn and declined ones are left out. `Cache-Control: private`.',
      parameters: [inPath('file', { type: 'string' })],
      responses: {
        200: { description: 'The calendar', content: { 'text/calendar': { schema: { type: 'string' } } } },
        404: problem('No calendar at this address (renewed, or the identity deleted)'),
      },
    },
  },
};
