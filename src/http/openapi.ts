import type { z } from 'zod';
import { cancelQuerySchema, eventActionSchema, eventSubmissionSchema } from '../catalogue/submission.js';
import { eventDetailSchema, eventViewSchema } from '../render/event-json.js';
import { ownEventsResponseSchema } from '../render/own-events-json.js';
import { searchResponseSchema } from '../render/search-json.js';
import { createKeySchema, rotateKeySchema } from '../use-cases/keys.js';
import { adminPaths } from './openapi-admin.js';
import { calendarPaths, calendarSchemas } from './openapi-calendars.js';
import {
  bearer,
  body,
  GRAMMAR_PARAMETERS,
  ID_IN_PATH,
  json,
  problem,
  queryParameters,
  ref,
  schemaOf,
  withCommonAnswers,
} from './openapi-common.js';
import { mcpPaths, oauthMetadataPaths } from './openapi-mcp.js';
import { mePaths, meSchemas, meSecuritySchemes } from './openapi-me.js';
import { proposalPaths, proposalSchemas } from './openapi-proposals.js';
import { writeResultSchemas } from './openapi-results.js';
import { rsvpPaths, rsvpSchemas } from './openapi-rsvp.js';
import { webhookPaths, webhookSchemas } from './openapi-webhooks.js';

const inputSchema = (schema: z.ZodType) => schemaOf(schema, 'input');
const outputSchema = (schema: z.ZodType) => schemaOf(schema, 'output');

/** What /readyz answers, ready or not. */
const READINESS = {
  type: 'object',
  required: ['status', 'engine', 'checks', 'events'],
  properties: {
    status: { enum: ['ready', 'unavailable'] },
    engine: { enum: ['pglite', 'postgres'] },
    checks: {
      type: 'object',
      required: ['storage', 'index', 'caughtUp'],
      properties: { storage: { type: 'boolean' }, index: { type: 'boolean' }, caughtUp: { type: 'boolean' } },
    },
    events: { type: 'integer' },
    behindSeconds: { type: 'number', description: 'When the index is behind the database: by how long' },
  },
} as const;

/** `mine=1` with a key: that key's own events (an `OwnEventList`); `0` is the public listing. */
const MINE = {
  name: 'mine',
  in: 'query',
  required: false,
  description: "1 (with a key): the key's own events, unlisted and cancelled included; 0: the public listing",
  schema: { enum: ['0', '1'] },
} as const;

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests; `extraPaths` are those the
 * routes declared beside themselves (`documented`, openapi-common.ts).
 */
export function buildOpenApi(baseUrl: string, extraPaths: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tech events catalogue (ch · de · at)',
      version: '1.0.0',
      description:
        'A public catalogue of tech events in Switzerland, Germany and Austria. Reading is keyless and CORS-open; ' +
        'writing needs a per-host API key sent as `Authorization: Bearer <key>`. Errors are RFC 9457 problem+json.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    // Keyless unless an operation says otherwise.
    security: [{}],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Host API key (tev_…); on /api/mcp also an OAuth access token',
        },
        ...meSecuritySchemes,
      },
      schemas: {
        EventSubmission: inputSchema(eventSubmissionSchema),
        EventAction: inputSchema(eventActionSchema),
        ...writeResultSchemas,
        CreateKey: inputSchema(createKeySchema),
        RotateKey: inputSchema(rotateKeySchema),
        ...calendarSchemas,
        ...proposalSchemas,
        ...webhookSchemas,
        ...rsvpSchemas,
        ...meSchemas,
        Event: outputSchema(eventViewSchema),
        EventList: outputSchema(searchResponseSchema),
        OwnEventList: outputSchema(ownEventsResponseSchema),
        EventDetail: outputSchema(eventDetailSchema),
      },
    },
    paths: withCommonAnswers({
      '/api/events': {
        post: {
          summary: 'Create, update, cancel or restore an event',
          description:
            'With an event submission: creates the event (201, `created: true`), or, when this key already sent the ' +
            'same `externalId`, replaces its content (200, `created: false`). An identical resend adds no revision. ' +
            'With `{"action": "cancel"|"restore", "externalId"}` (or `id`): cancels or restores the event.',
          security: bearer,
          requestBody: body({ oneOf: [ref('EventSubmission'), ref('EventAction')] }),
          responses: {
            200: json('Updated, cancelled or restored', {
              oneOf: [ref('WriteResult'), ref('CancelResult'), ref('RestoreResult')],
            }),
            201: json('Created', ref('WriteResult')),
            400: problem('Malformed JSON'),
            401: problem('Missing, unknown or revoked key'),
            403: problem('The event belongs to another key'),
            404: problem('Unknown event (cancel/restore)'),
            413: problem('Body over 64 KiB'),
            415: problem('Not application/json'),
            422: problem('Invalid fields, each listed in `errors`'),
            429: problem('Over the per-key write limit; see Retry-After'),
          },
        },
        delete: {
          summary: 'Cancel an event',
          description: 'By `externalId`, or by `id` (optionally with `country`). Reversible with action `restore`.',
          security: bearer,
          parameters: queryParameters(cancelQuerySchema),
          responses: {
            200: json('Cancelled', ref('CancelResult')),
            401: problem('Missing, unknown or revoked key'),
            403: problem('The event belongs to another key'),
            404: problem('Unknown event'),
            422: problem('Neither externalId nor id'),
            429: problem('Over the per-key write limit; see Retry-After'),
          },
        },
        get: {
          summary: 'Ranked events (free text + hard filters), or with mine=1 your own events',
          description:
            'Keyless and CORS-open. Listings hold public, listed, upcoming events: by start without `q`, by relevance with `q`. ' +
            "Every event carries `matchReasons`. With `mine=1` and a key: that key's events, unlisted and cancelled included, with `lifecycle` " +
            '(an `OwnEventList`: no `calendar` or `feed`, which would need the key in a URL).',
          security: [{}, { bearerAuth: [] }],
          parameters: [...GRAMMAR_PARAMETERS, MINE],
          responses: {
            200: json('Event list response (with mine=1: the key’s own events)', {
              oneOf: [ref('EventList'), ref('OwnEventList')],
            }),
            401: problem('mine=1 without a valid key'),
            422: problem('An invalid parameter, named in `errors`'),
            429: problem('Over the per-client read limit; see Retry-After'),
          },
        },
        ...((extraPaths['/api/events'] as object | undefined) ?? {}),
      },
      '/api/events/{id}': {
        get: {
          summary:
            'One event as JSON: a list item with its `lifecycle` and `description`, cancelled and unlisted ones too',
          description:
            'Keyless and CORS-open, cached like the event page. Ids are unique across the catalogue, so the id alone ' +
            'names the event (its page is /{country}/events/{id}). A cancelled event answers 200 with `lifecycle: cancelled`.',
          parameters: [ID_IN_PATH],
          responses: {
            200: json('The event', ref('EventDetail')),
            304: { description: 'Not modified (If-None-Match)' },
            404: problem('`event-not-found`: no event has this id'),
            429: problem('Over the per-client read limit; see Retry-After'),
          },
        },
      },
      '/api/events/batch': {
        post: {
          summary: 'Create or update up to 1,000 events at once (a platform syncing its listings)',
          description:
            'Each item is an event submission with its externalId, stored as POST /api/events would store it: idempotent ' +
            'per item, a bad item refused alone. `results` answers every item in request order, with id, url and ' +
            'created, or with an error (a problem object). With `complete: true` the batch is the key’s complete list of ' +
            'upcoming events: those missing from it are cancelled (reversibly; listed in `cancelled`), and items of ' +
            'cancelled events are restored. Rate limits: one write request, and each item counts against the key’s batch ' +
            'items per minute (RATE_LIMIT_BATCH_ITEMS_PER_MINUTE, default 5,000); a batch that does not fit is refused ' +
            'whole (429). Bodies up to 5 MiB.',
          security: bearer,
          requestBody: body({
            type: 'object',
            required: ['events'],
            properties: {
              events: { type: 'array', minItems: 1, maxItems: 1000, items: ref('EventSubmission') },
              complete: { type: 'boolean' },
            },
          }),
          responses: {
            200: json('One result per item, in order', {
              type: 'object',
              required: ['results'],
              properties: {
                results: {
                  type: 'array',
                  items: {
                    oneOf: [
                      ref('WriteResult'),
                      {
                        type: 'object',
                        required: ['error'],
                        properties: { externalId: { type: 'string' }, error: ref('Problem') },
                      },
                    ],
                  },
                },
                cancelled: {
                  type: 'array',
                  description: 'With complete: the events cancelled because the batch left them out',
                  items: { type: 'object', properties: { externalId: { type: 'string' }, id: { type: 'string' } } },
                },
              },
            }),
            400: problem('Malformed JSON, or not valid UTF-8'),
            401: problem('Missing, unknown or revoked key'),
            413: problem('Body over 5 MiB'),
            415: problem('Not application/json'),
            422: problem('Not a batch: `events` missing, empty or over 1,000'),
            429: problem('Over the key’s write requests or batch items per minute; see Retry-After'),
          },
        },
      },
      ...mcpPaths,
      ...oauthMetadataPaths,
      ...adminPaths,
      '/api/sources': {
        get: {
          summary: 'Every source of the catalogue: kind, feed URL, licence, last attempt, success and error, counts',
          description:
            'The same as the page at /sources. Query strings of feed URLs and local file paths are not shown.',
          responses: {
            200: json('Every source, with its state', {
              type: 'object',
              required: ['syncIntervalMinutes', 'lastRefreshed', 'sources'],
              properties: {
                syncIntervalMinutes: { type: 'integer' },
                lastRefreshed: { type: ['string', 'null'] },
                sources: { type: 'array', items: { type: 'object' } },
              },
            }),
          },
        },
      },
      '/healthz': {
        get: {
          summary: 'Liveness: the process answers',
          responses: {
            200: json('Alive', {
              type: 'object',
              required: ['status', 'engine'],
              properties: { status: { const: 'ok' }, engine: { enum: ['pglite', 'postgres'] } },
            }),
          },
        },
      },
      '/readyz': {
        get: {
          summary: 'Readiness: the database answers and the read index is loaded and caught up with it',
          responses: {
            200: json('Ready', READINESS),
            503: json('Database unreachable, index loading, or index behind the database', READINESS),
          },
        },
      },
      '/metrics': {
        get: {
          summary:
            'Prometheus metrics: requests and latency by route, events per country, writes, syncs, cache, webhook deliveries',
          responses: { 200: { description: 'text/plain; version=0.0.4', content: { 'text/plain': {} } } },
        },
      },
      ...calendarPaths,
      ...proposalPaths,
      ...webhookPaths,
      ...rsvpPaths,
      ...mePaths,
      ...Object.fromEntries(Object.entries(extraPaths).filter(([path]) => path !== '/api/events')),
    }),
  };
}
