import type { FastifyInstance, FastifyRequest } from 'fastify';
import { shownValue, ValidationError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { toEventDetail } from '../../render/event-json.js';
import { toOwnEventsResponse } from '../../render/own-events-json.js';
import { toSearchResponse } from '../../render/search-json.js';
import { answerCoverage } from '../../use-cases/coverage.js';
import { requireHost } from '../../use-cases/keys.js';
import { getEvent, listOwnEvents, searchEvents } from '../../use-cases/read-events.js';
import { bearerToken } from '../authenticate.js';
import { declared } from '../route-class.js';

/**
 * GET /api/events: the ranked public listing, or with mine=1 the calling key's own events; GET /api/events/<id>: one
 * event, as its page shows it (cancelled and unlisted ones too: whoever has its id or link may read it).
 */
export function registerEventReadRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const publicEvents = async (query: Record<string, unknown>) => {
    const result = await searchEvents(ctx, query);
    return toSearchResponse(result, ctx.config.baseUrl, await answerCoverage(ctx, result));
  };
  const ownEvents = async (request: FastifyRequest, query: Record<string, unknown>) => {
    const host = await requireHost(ctx, bearerToken(request));
    return toOwnEventsResponse(await listOwnEvents(ctx, host, query), host, ctx.config.baseUrl);
  };

  app.get('/api/events', declared('cacheable'), async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    if (query.mine !== undefined && query.mine !== '1' && query.mine !== '0')
      throw new ValidationError([
        { field: 'mine', message: 'must be 1 (with a key: your own events) or 0', given: shownValue(query.mine) },
      ]);
    const body = query.mine === '1' ? await ownEvents(request, query) : await publicEvents(query);
    if (body.next) reply.header('Link', `<${body.next}>; rel="next"`);
    return body;
  });

  // Ids are unique across the catalogue (the country in a page's path is for people): the id alone names the event.
  app.get<{ Params: { id: string } }>('/api/events/:id', declared('cacheable', 'page'), async (request) => {
    const { event } = await getEvent(ctx, { id: request.params.id });
    return toEventDetail(event, ctx.config.baseUrl);
  });
}
