import type { FastifyInstance } from 'fastify';
import type { ServingContext } from '../../context.js';
import { toQueryString } from '../../query/params.js';
import { renderGeoJson } from '../../render/geojson.js';
import { searchEvents } from '../../use-cases/read-events.js';
import { documented, GRAMMAR_PARAMETERS, problem } from '../openapi-common.js';
import { declared } from '../route-class.js';

/** GET /api/events.geojson: the same query as GeoJSON, for people who draw their own maps. */
export function registerGeoRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const { baseUrl } = ctx.config;
  documented(app, {
    '/api/events.geojson': {
      get: {
        summary: 'The same query as RFC 7946 GeoJSON: a FeatureCollection of points, longitude first',
        description:
          'One Feature per match (id: the event id), properties as in /api/events plus `when`, `where` and `precision` ' +
          '(exact, or city/country: a centre); online events have a null geometry. Pages as /api/events (Link rel="next").',
        parameters: GRAMMAR_PARAMETERS,
        responses: {
          200: { description: 'application/geo+json', content: { 'application/geo+json': {} } },
          304: { description: 'Not modified' },
          422: problem('Invalid parameter'),
        },
      },
    },
  });
  app.get('/api/events.geojson', declared('cacheable'), async (request, reply) => {
    const result = await searchEvents(ctx, request.query as Record<string, unknown>);
    if (result.nextCursor) {
      const next = toQueryString({ ...result.params, country: result.country }, { cursor: result.nextCursor });
      reply.header('Link', `<${baseUrl}/api/events.geojson?${next}>; rel="next"`);
    }
    return reply.type('application/geo+json; charset=utf-8').send(JSON.stringify(renderGeoJson(result, baseUrl)));
  });
}
