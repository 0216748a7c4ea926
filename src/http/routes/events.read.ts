import type { FastifyInstance } from 'fastify';
import { keyOwner } from '../../catalogue/event.js';
import type { AppContext } from '../../context.js';
import { search } from '../../query/engine.js';
import { parseSearchParams } from '../../query/params.js';
import { toOwnEventView } from '../../render/event-json.js';
import { toSearchResponse } from '../../render/search-json.js';
import { requireKey } from '../authenticate.js';

/** GET /api/events: the ranked public listing, or with mine=1 the calling key's own events. */
export function registerEventReadRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/events', async (request) => {
    const query = request.query as Record<string, unknown>;
    const params = parseSearchParams(query);
    if (query.mine === '1') {
      const key = await requireKey(ctx, request);
      const events = await ctx.events.listByOwner(keyOwner(key.id));
      const counts = await ctx.registrations.countsFor(events.map((e) => e.id));
      const none = { registered: 0, waitlisted: 0, requested: 0 };
      return {
        query: { country: params.country, q: '', topics: [], limit: events.length, mine: true },
        count: events.length,
        total: events.length,
        understood: `All events of ${key.name}, including unlisted and cancelled ones.`,
        calendar: `${ctx.config.baseUrl}/api/calendar?country=${key.country}`,
        events: events.map((event) => ({
          ...toOwnEventView(event, ctx.config.baseUrl),
          registrations: counts.get(event.id) ?? none,
        })),
      };
    }
    return toSearchResponse(search(ctx.index, params, ctx.now()), ctx.config.baseUrl);
  });
}
