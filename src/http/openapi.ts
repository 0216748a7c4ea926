import { z } from 'zod';
import { PROBLEMS } from '../catalogue/errors.js';
import { cancelQuerySchema, eventActionSchema, eventSubmissionSchema } from '../catalogue/submission.js';
import { searchQuerySchema } from '../query/params.js';
import { createKeySchema } from './routes/admin.js';

/** JSON Schema of a zod schema as a request body (defaults make fields optional on input). */
const inputSchema = (schema: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });

const queryParameters = (schema: z.ZodType) => {
  const jsonSchema = inputSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(jsonSchema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: jsonSchema.required?.includes(name) ?? false,
    schema: s,
  }));
};

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
 * Read endpoints join it as they are added (see `extraPaths`).
 */
export function buildOpenApi(baseUrl: string, extraPaths: Record<string, unknown> = {}): Record<string, unknown> {
  const bearer = [{ bearerAuth: [] }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tech events catalogue (ch · de · at)',
      version: '1.0.0',
      description:
        'A public catalogue of tech events in Switzerland, Germany and Austria. Reading is keyless and CORS-open; ' +
        'writing needs a per-host API key sent as `Authorization: Bearer <key>`. Errors are RFC 9457 problem+json.',
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Host API key (tev_…)' } },
      schemas: {
        EventSubmission: inputSchema(eventSubmissionSchema),
        EventAction: inputSchema(eventActionSchema),
        WriteResult: {
          type: 'object',
          required: ['id', 'url', 'created'],
          properties: { id: { type: 'string' }, url: { type: 'string', format: 'uri' }, created: { type: 'boolean' } },
        },
        CancelResult: {
          type: 'object',
          required: ['id', 'cancelled', 'reversible'],
          properties: {
            id: { type: 'string' },
            cancelled: { const: true },
            reversible: { const: true },
            detail: { type: 'string', description: 'Present when the event was already cancelled.' },
          },
        },
        RestoreResult: {
          type: 'object',
          required: ['id', 'url', 'restored'],
          properties: {
            id: { type: 'string' },
            url: { type: 'string', format: 'uri' },
            restored: { const: true },
            detail: { type: 'string', description: 'Present when the event was not cancelled.' },
          },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'code'],
          properties: {
            type: { type: 'string', format: 'uri' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', enum: Object.keys(PROBLEMS) },
            errors: {
              type: 'array',
              description: 'With code invalid-request: every bad field.',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: { field: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
        CreateKey: inputSchema(createKeySchema),
        Event: {
          type: 'object',
          required: [
            'id',
            'title',
            'start',
            'format',
            'rsvp',
            'geo',
            'price',
            'topics',
            'seniority',
            'organizer',
            'source',
            'sourceUrl',
            'url',
            'matchReasons',
          ],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            start: { type: 'string', format: 'date-time', description: 'UTC with milliseconds' },
            format: { enum: ['in_person', 'online', 'hybrid'] },
            rsvp: { enum: ['open', 'invite', 'waitlist'] },
            city: { type: 'string' },
            venue: { type: 'string' },
            geo: {
              type: ['object', 'null'],
              properties: {
                lat: { type: 'number' },
                lng: { type: 'number' },
                precision: { enum: ['exact', 'city', 'country'] },
              },
            },
            price: {
              type: 'object',
              properties: {
                type: { enum: ['free', 'paid', 'unknown'] },
                amount: { type: ['number', 'null'] },
                currency: { enum: ['CHF', 'EUR'] },
              },
            },
            topics: { type: 'array', items: { type: 'string' } },
            seniority: { type: 'array', items: { type: 'string' } },
            organizer: { type: 'string' },
            source: {
              type: 'string',
              description: '`curated` for curated listings, `host` for host-pushed ones, else the importer source name',
            },
            sourceUrl: { type: 'string', format: 'uri' },
            url: { type: 'string', format: 'uri' },
            matchReasons: { type: 'array', items: { type: 'string' } },
          },
        },
        EventList: {
          type: 'object',
          required: ['query', 'count', 'total', 'understood', 'calendar', 'events'],
          properties: {
            query: {
              type: 'object',
              properties: {
                country: { type: 'string' },
                q: { type: 'string' },
                topics: { type: 'array', items: { type: 'string' } },
                limit: { type: 'integer' },
              },
            },
            count: { type: 'integer' },
            total: { type: 'integer' },
            understood: { type: 'string' },
            calendar: { type: 'string', format: 'uri' },
            events: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
          },
        },
      },
    },
    paths: {
      '/api/events': {
        post: {
          summary: 'Create, update, cancel or restore an event',
          description:
            'With an event submission: creates the event (201, `created: true`), or, when this key already sent the ' +
            'same `externalId`, replaces its content (200, `created: false`). An identical resend adds no revision. ' +
            'With `{"action": "cancel"|"restore", "externalId"}` (or `id`): cancels or restores the event.',
          security: bearer,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { $ref: '#/components/schemas/EventSubmission' },
                    { $ref: '#/components/schemas/EventAction' },
                  ],
                },
              },
            },
          },
          responses: {
            200: json('Updated, cancelled or restored', {
              oneOf: [
                { $ref: '#/components/schemas/WriteResult' },
                { $ref: '#/components/schemas/CancelResult' },
                { $ref: '#/components/schemas/RestoreResult' },
              ],
            }),
            201: json('Created', { $ref: '#/components/schemas/WriteResult' }),
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
            200: json('Cancelled', { $ref: '#/components/schemas/CancelResult' }),
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
            "Every event carries `matchReasons`. With `mine=1` and a key: that key's events, unlisted and cancelled included, with `lifecycle`.",
          parameters: queryParameters(searchQuerySchema),
          responses: {
            200: json('Event list response (spec §2.2)', { $ref: '#/components/schemas/EventList' }),
            401: problem('mine=1 without a valid key'),
            422: problem('An invalid parameter, named in `errors`'),
            429: problem('Over the per-client read limit; see Retry-After'),
          },
        },
        ...((extraPaths['/api/events'] as object | undefined) ?? {}),
      },
      '/api/md': {
        get: {
          summary: 'The same query as a paste-ready GitHub markdown table',
          parameters: queryParameters(searchQuerySchema),
          responses: {
            200: { description: 'text/markdown', content: { 'text/markdown': {} } },
            422: problem('Invalid parameter'),
          },
        },
      },
      '/{country}.md': {
        get: {
          summary: 'A country feed as markdown (also /{country}/cities/{city}.md and /{country}/topics/{topic}.md)',
          parameters: [{ name: 'country', in: 'path', required: true, schema: { enum: ['ch', 'de', 'at'] } }],
          responses: {
            200: { description: 'text/markdown' },
            404: { description: 'Unknown country, city or topic (markdown body)' },
          },
        },
      },
      '/api/calendar': {
        get: {
          summary: 'The same query as a live iCal subscription (https or webcal)',
          parameters: queryParameters(searchQuerySchema),
          responses: {
            200: { description: 'text/calendar', content: { 'text/calendar': {} } },
            304: { description: 'Not modified' },
            422: problem('Invalid parameter'),
          },
        },
      },
      '/api/mcp': {
        post: {
          summary: 'MCP server (streamable HTTP, protocol 2025-06-18, stateless)',
          description:
            'Tools: search_events, find_events, best_next_event, get_event, subscribe_calendar, rsvp (needs a key).',
          responses: {
            200: { description: 'JSON-RPC response' },
            403: { description: 'Foreign Host or Origin' },
            405: { description: 'GET/DELETE' },
          },
        },
      },
      '/api/admin/keys': {
        get: {
          summary: 'List host keys (admin; enabled by ADMIN_TOKEN)',
          security: bearer,
          responses: { 200: { description: 'Keys, without secrets' }, 401: problem('Bad admin token') },
        },
        post: {
          summary: 'Create a host key (admin); the response holds the only copy of the key',
          security: bearer,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateKey' } } },
          },
          responses: {
            201: { description: 'The new key' },
            401: problem('Bad admin token'),
            422: problem('Invalid fields'),
          },
        },
      },
      '/api/admin/keys/{id}/revoke': {
        post: {
          summary: 'Revoke a host key (admin)',
          security: bearer,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'The revoked key' }, 404: problem('Unknown key') },
        },
      },
      '/healthz': {
        get: {
          summary: 'Readiness',
          responses: { 200: { description: 'Ready' }, 503: { description: 'Database unreachable' } },
        },
      },
      ...Object.fromEntries(Object.entries(extraPaths).filter(([path]) => path !== '/api/events')),
    },
  };
}
