import { z } from 'zod';
import { searchInputShape } from '../query/params.js';
import { webhookPayloadSchema } from '../render/webhook-json.js';
import {
  webhookCreatedSchema,
  webhookDeliverySchema,
  webhookDetailSchema,
  webhookInputSchema,
  webhookSummarySchema,
} from '../use-cases/webhooks.js';
import { bearer, body, ID_IN_PATH, inPath, json, listOf, problem, ref, schemaOf } from './openapi-common.js';

const MSG = inPath('msg', { type: 'string' });

/** The body of POST /api/webhooks: the target, and the query grammar's parameters (those of a page aside). */
const { limit: _limit, cursor: _cursor, ...queryFields } = searchInputShape;
const subscribeSchema = z.strictObject({ ...webhookInputSchema.shape, ...queryFields });

/** The schemas of /api/webhooks, for the OpenAPI document's components. */
export const webhookSchemas = {
  Subscribe: schemaOf(subscribeSchema, 'input'),
  Webhook: schemaOf(webhookSummarySchema, 'output'),
  WebhookCreated: schemaOf(webhookCreatedSchema, 'output'),
  WebhookDetail: schemaOf(webhookDetailSchema, 'output'),
  WebhookMessage: schemaOf(webhookPayloadSchema, 'output'),
  WebhookDelivery: schemaOf(webhookDeliverySchema, 'output'),
};

const byId = (summary: string, answer: ReturnType<typeof json>, extra: Record<string, unknown> = {}) => ({
  summary,
  security: bearer,
  parameters: [ID_IN_PATH],
  responses: {
    200: answer,
    400: problem('An id holding a character that cannot be stored, such as NUL (`bad-request`)'),
    401: problem('Missing or invalid key'),
    404: problem('Your key has no such subscription (webhook-not-found)'),
  },
  ...extra,
});

/** The paths of /api/webhooks: a key's subscriptions to a query, pushed as signed messages (docs/api.md, Webhooks). */
export const webhookPaths = {
  '/api/webhooks': {
    post: {
      summary: 'Subscribe a URL to a query: matching events are POSTed to it, signed (Standard Webhooks)',
      description:
        'The body is the target `url` and a query in the grammar every output shares, its parameters as fields ' +
        '(`limit` and `cursor` aside). The target must lead to a public address (checked now and at every ' +
        'delivery). Messages: `event.matched`, `event.updated` (time, place, title or status), `event.cancelled`, ' +
        '`event.restored`, `event.unmatched`; each a `WebhookMessage` body with `webhook-id`, `webhook-timestamp` ' +
        'and `webhook-signature` headers. The answer holds the secret (`whsec_…`) this once.',
      security: bearer,
      requestBody: body(ref('Subscribe')),
      responses: {
        201: json('Subscribed; `secret` is shown this once', ref('WebhookCreated')),
        400: problem('Malformed JSON, or not valid UTF-8'),
        401: problem('Missing or invalid key'),
        409: problem('The key holds the most subscriptions it may (too-many-webhooks)'),
        415: problem('Not JSON, or JSON in a charset other than UTF-8'),
        422: problem('Not an http(s) URL, a refused address, a field outside the grammar, or a query it refuses'),
      },
    },
    get: {
      summary: 'Your webhook subscriptions (never their secrets)',
      security: bearer,
      responses: {
        200: json('Oldest first; deleted ones left out', listOf('webhooks', ref('Webhook'))),
        401: problem('Missing or invalid key'),
      },
    },
  },
  '/api/webhooks/{id}': {
    get: byId('A subscription with its latest deliveries', json('The subscription', ref('WebhookDetail'))),
    delete: byId('End a subscription: nothing more is sent; it is kept, as `deleted`', json('Deleted', ref('Webhook'))),
  },
  '/api/webhooks/{id}/pause': {
    post: byId('Pause: no messages are made for it while paused; pending ones wait', json('Paused', ref('Webhook'))),
  },
  '/api/webhooks/{id}/resume': {
    post: byId(
      'Resume (also after a 410 or a day of failures): pending messages go out again',
      json('Active', ref('Webhook')),
    ),
  },
  '/api/webhooks/{id}/rotate': {
    post: byId(
      'A new secret, shown this once; the old one signs beside it for 24 hours',
      json('Rotated', ref('WebhookCreated')),
    ),
  },
  '/api/webhooks/{id}/deliveries/{msg}/resend': {
    post: {
      summary: 'Send a message again now, under its own `webhook-id`',
      security: bearer,
      parameters: [ID_IN_PATH, MSG],
      responses: {
        200: json('Due now', ref('WebhookDelivery')),
        400: problem('An id holding a character that cannot be stored, such as NUL (`bad-request`)'),
        401: problem('Missing or invalid key'),
        404: problem('No such subscription (webhook-not-found) or message (webhook-message-not-found)'),
      },
    },
  },
};
