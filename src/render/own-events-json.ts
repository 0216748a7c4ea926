import { z } from 'zod';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import type { OwnEventsPage } from '../use-cases/read-events.js';
import { ownEventViewSchema, toOwnEventView } from './event-json.js';

/**
 * `mine=1`: the calling host's own events, unlisted and cancelled included, each with its registrations. It carries
 * no `calendar` or `feed`: a subscription URL would have to hold the key, and keys never go into URLs.
 */
export const ownEventsResponseSchema = z.object({
  query: z
    .object({
      country: z.string().describe('The key’s country'),
      q: z.literal(''),
      topics: z.array(z.string()).length(0),
      limit: z.number().int(),
      mine: z.literal(true),
    })
    .describe('The query as read'),
  count: z.number().int().describe('Events in this response'),
  total: z.number().int().describe('All of the key’s events'),
  understood: z.string().describe('Whose events these are, in one sentence'),
  events: z
    .array(
      ownEventViewSchema.extend({
        registrations: z.object({
          registered: z.number().int(),
          waitlisted: z.number().int(),
          requested: z.number().int(),
        }),
      }),
    )
    .describe('By start, then id'),
  webhooks: z
    .string()
    .describe('The key’s webhook subscriptions (GET with the key; docs/api.md, Webhooks): pushed changes of a query'),
  next: z
    .string()
    .optional()
    .describe('When more events follow: the URL of the next page (also in the Link header, rel="next")'),
});
export type OwnEventsResponse = z.output<typeof ownEventsResponseSchema>;

export function toOwnEventsResponse(page: OwnEventsPage, host: ApiKeyRecord, baseUrl: string): OwnEventsResponse {
  const none = { registered: 0, waitlisted: 0, requested: 0 };
  const next =
    page.nextCursor &&
    `${baseUrl}/api/events?${new URLSearchParams({ mine: '1', limit: String(page.limit), cursor: page.nextCursor })}`;
  return {
    query: { country: host.country, q: '', topics: [], limit: page.limit, mine: true },
    count: page.events.length,
    total: page.total,
    understood: `All events of ${host.name}, including unlisted and cancelled ones.`,
    events: page.events.map((e) => ({
      ...toOwnEventView(e, baseUrl),
      registrations: page.registrations.get(e.id) ?? none,
    })),
    webhooks: `${baseUrl}/api/webhooks`,
    ...(next ? { next } : {}),
  };
}
