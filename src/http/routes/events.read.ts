import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { keyOwner } from '../../catalogue/event.js';
import { parseOrThrow } from '../../catalogue/submission.js';
import type { AppContext } from '../../context.js';
import { toOwnEventView } from '../../render/event-json.js';
import { requireKey } from '../authenticate.js';

const mineQuerySchema = z.object({ mine: z.literal('1', { error: 'must be 1' }) }).passthrough();

/** GET /api/events?mine=1: the calling key's own events, including unlisted and cancelled ones. */
export function registerOwnEventsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/events', async (request) => {
    parseOrThrow(mineQuerySchema, request.query);
    const key = await requireKey(ctx, request);
    const events = await ctx.events.listByOwner(keyOwner(key.id));
    return {
      query: { country: key.country, q: '', topics: [], limit: events.length, mine: true },
      count: events.length,
      total: events.length,
      understood: `All events of ${key.name}, including unlisted and cancelled ones.`,
      calendar: `${ctx.config.baseUrl}/api/calendar?country=${key.country}`,
      events: events.map((event) => toOwnEventView(event, ctx.config.baseUrl)),
    };
  });
}
