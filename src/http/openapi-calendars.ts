import { z } from 'zod';
import { calendarSummarySchema, linkCalendarSchema, linkedCalendarSchema } from '../use-cases/calendars.js';

const schemaOf = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
const bearer = [{ bearerAuth: [] }];

/** The schemas of /api/calendars, for the OpenAPI document's components. */
export const calendarSchemas = {
  LinkCalendar: schemaOf(linkCalendarSchema, 'input'),
  Calendar: schemaOf(calendarSummarySchema, 'output'),
  LinkedCalendar: schemaOf(linkedCalendarSchema, 'output'),
};

/** The paths of /api/calendars: calendars a host links to its key. */
export const calendarPaths = {
  '/api/calendars': {
    post: {
      summary: 'Link an iCal feed to your key',
      description:
        'The feed (https, http or webcal) is read at once and must be iCalendar; its events are imported as your own, ' +
        'under your key’s name, and it syncs with the feeds from then on, each sync the complete state of its events ' +
        '(a calendar that fails keeps them). Addresses on private, loopback or link-local networks are refused, ' +
        'redirects included. Linking a URL you have linked already changes nothing (200, `created: false`). When you ' +
        'cancel an event through the API that your calendar still lists, your cancel wins until you restore it.',
      security: bearer,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/LinkCalendar' } } },
      },
      responses: {
        201: json('Linked, with what its first sync did', { $ref: '#/components/schemas/LinkedCalendar' }),
        200: json('Linked already: nothing changed', { $ref: '#/components/schemas/LinkedCalendar' }),
        401: problem('Missing or invalid key'),
        409: problem('The key has the most calendars it may link (too-many-calendars)'),
        415: problem('Not JSON'),
        422: problem('Not an http(s)/webcal URL, a refused address, unreadable, or not an iCal feed'),
      },
    },
    get: {
      summary: 'Your linked calendars, with the state of each one’s last sync',
      security: bearer,
      responses: {
        200: json('Oldest first', {
          type: 'object',
          required: ['calendars'],
          properties: { calendars: { type: 'array', items: { $ref: '#/components/schemas/Calendar' } } },
        }),
        401: problem('Missing or invalid key'),
      },
    },
  },
  '/api/calendars/{id}': {
    delete: {
      summary:
        'Unlink a calendar: it is no longer synced, and its upcoming events are retired (cancelled, never deleted)',
      security: bearer,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: json('Unlinked', {
          type: 'object',
          required: ['id', 'unlinked', 'retired'],
          properties: {
            id: { type: 'string' },
            unlinked: { const: true },
            retired: { type: 'integer', description: 'Upcoming events cancelled' },
          },
        }),
        401: problem('Missing or invalid key'),
        404: problem('Your key has no linked calendar with this id (calendar-not-found)'),
      },
    },
  },
};
