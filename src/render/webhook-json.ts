import { z } from 'zod';
import type { CatalogueEvent } from '../catalogue/event.js';
import { LIFECYCLES } from '../catalogue/event.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../use-cases/webhooks.js';
import { eventViewSchema, toEventView } from './event-json.js';

/** A message's body as POSTed (docs/api.md, Webhooks): the type, when, and the event's read shape. */
export const webhookPayloadSchema = z.object({
  type: z.enum(WEBHOOK_EVENT_TYPES),
  timestamp: z.string().describe('When the change was sent out (ISO 8601 UTC); the same on every attempt'),
  data: z.object({
    subscription: z.string().describe('The subscription’s id (`whk_…`)'),
    event: eventViewSchema
      .extend({ lifecycle: z.enum(LIFECYCLES).describe('`cancelled` in event.cancelled') })
      .describe('The event as read (GET /api/events) after the change'),
  }),
});

/** The body of one message; its size is bounded by the event's (titles, names and lists all have limits). */
export function webhookPayload(
  type: WebhookEventType,
  subscription: string,
  event: CatalogueEvent,
  at: Date,
  baseUrl: string,
): string {
  return JSON.stringify({
    type,
    timestamp: at.toISOString(),
    data: { subscription, event: { ...toEventView(event, baseUrl), lifecycle: event.lifecycle } },
  });
}
