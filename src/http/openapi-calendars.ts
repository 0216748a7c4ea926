import { calendarSummarySchema, linkCalendarSchema, linkedCalendarSchema } from '../use-cases/calendars.js';
import { bearer, body, ID_IN_PATH, json, listOf, problem, ref, schemaOf } from './openapi-common.js';

/** The schemas of /api/calendars, for the OpenAPI document's components. */
export const calendarSchemas = {
  LinkCalendar: schemaOf(linkCalendarSchema, 'input'),
  Calendar: schemaOf(calendarSummarySchema, 'output'),
  LinkedCalendar: schemaOf(linkedCalendarSchema, 'output'),
};

/** The paths of /api/calendars: calendars a host links to its key. */
export const calendarPaths = {
  '/api/admin/calendars/check': {
    get: {
      summary: 'Read every calendar of the feeds file once, importing nothing (admin)',
      description:
        'What `tech-events calendars check` prints. Per calendar: state (ok, empty, gone, failing, not iCal), upcoming ' +
        'events (`full` when the calendar shows as many as it shows at most; `cut` when it went over a limit of a read, ' +
        'saying what was left out), where their places come from (the ' +
        'event, its description, the calendar’s entry; online; unknown) and the next event. `Accept: text/markdown` ' +
        'answers the same as a GitHub markdown table.',
      security: bearer,
      responses: {
        200: {
          description:
            '{checkedAt, calendars: [{source, calendar, url, state, error?, events, window?, full, cut?, places, next?}]}',
          content: { 'application/json': {}, 'text/markdown': {} },
        },
        400: problem('The feeds file is not valid'),
        401: problem('Bad admin token'),
      },
    },
  },
  '/api/calendars': {
    post: {
      summary: 'Link an iCal feed to your key',
      description:
        'The feed (https, http or webcal) is checked at once (a private, loopback, link-local or reserved address (IPv4 or IPv6) is refused, ' +
        'redirects included) and its first read starts in the background; the answer comes within a second or two: ' +
        '201 with what the first read did when it is done by then, 202 with state `syncing` while it goes on ' +
        '(GET /api/calendars shows how it ends). A first read that fails by then unlinks it again (422). Every read ' +
        'has limits (docs/operations.md, “Limits of a calendar read”): a whole-answer deadline, a size limit, and at ' +
        'most 1,000 events and 2,000 occurrences of recurring events; a calendar over a limit on events keeps its ' +
        'first ones in start order and says so in `cut`. Its events are imported as your own, under your key’s ' +
        'name, and it syncs with the feeds from then on, each sync the complete state of its events (a calendar that ' +
        'fails keeps them). Linking a URL you have linked already changes nothing (200, `created: false`). When you ' +
        'cancel an event through the API that your calendar still lists, your cancel wins until you restore it.',
      security: bearer,
      requestBody: body(ref('LinkCalendar')),
      responses: {
        201: json('Linked, with what its first sync did', ref('LinkedCalendar')),
        202: json('Linked; its first read goes on (state `syncing`)', ref('LinkedCalendar')),
        200: json('Linked already: nothing changed', ref('LinkedCalendar')),
        400: problem('Malformed JSON, or not valid UTF-8'),
        401: problem('Missing or invalid key'),
        409: problem('The key has the most calendars it may link (too-many-calendars)'),
        415: problem('Not JSON, or JSON in a charset other than UTF-8'),
        422: problem(
          'Not an http(s)/webcal URL, a refused address, or a first read that failed within the answer: unreadable, ' +
            'over a limit on size or time, a host that asked not to be read now, or not an iCal feed',
        ),
      },
    },
    get: {
      summary: 'Your linked calendars, with the state of each one’s last sync',
      security: bearer,
      responses: {
        200: json('Oldest first', listOf('calendars', ref('Calendar'))),
        401: problem('Missing or invalid key'),
      },
    },
  },
  '/api/calendars/{id}': {
    delete: {
      summary:
        'Unlink a calendar: it is no longer synced, and its upcoming events are retired (cancelled, never deleted)',
      security: bearer,
      parameters: [ID_IN_PATH],
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
        400: problem('An id holding a character that cannot be stored, such as NUL (`bad-request`)'),
        401: problem('Missing or invalid key'),
        404: problem('Your key has no linked calendar with this id (calendar-not-found)'),
      },
    },
  },
};
