import { TOPIC_SLUGS } from '../catalogue/taxonomy.js';
import { COUNTRIES } from '../places/countries.js';
import { problem } from './openapi-common.js';

const inPath = (name: string, schema: Record<string, unknown>) => ({ name, in: 'path', required: true, schema });
const COUNTRY = inPath('country', { enum: [...COUNTRIES] });
const atom = {
  description: 'RFC 4287 Atom: matching events, newest to the catalogue first, cancellations as updates',
  content: { 'application/atom+xml': {} },
};

/** The paths of the feeds of a query (Atom) and its GeoJSON, given the query grammar's parameters. */
export function feedPaths(queryParameters: readonly unknown[]): Record<string, unknown> {
  const feed = (summary: string, parameters: readonly unknown[]) => ({
    get: {
      summary,
      parameters,
      responses: {
        200: atom,
        304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
        404: problem('Unknown country, city or topic'),
        422: problem('Invalid parameter'),
      },
    },
  });
  return {
    '/embed.js': {
      get: {
        summary:
          'The <tech-events> custom element: any query as a list on another site, as a classic or a module script (docs/api.md#embedding-a-list)',
        responses: { 200: { description: 'text/javascript', content: { 'text/javascript': {} } } },
      },
    },
    '/api/events.geojson': {
      get: {
        summary: 'The same query as RFC 7946 GeoJSON: a FeatureCollection of points, longitude first',
        description:
          'One Feature per match (id: the event id), properties as in /api/events plus `when`, `where` and `precision` ' +
          '(exact, or city/country: a centre); online events have a null geometry. Pages as /api/events (Link rel="next").',
        parameters: queryParameters,
        responses: {
          200: { description: 'application/geo+json', content: { 'application/geo+json': {} } },
          304: { description: 'Not modified' },
          422: problem('Invalid parameter'),
        },
      },
    },
    '/api/feed': feed('The same query as an Atom feed of what is new (never near misses)', queryParameters),
    '/{country}.atom': feed('A country as an Atom feed', [COUNTRY]),
    '/{country}/cities/{city}.atom': feed('A city as an Atom feed (its slug or name)', [
      COUNTRY,
      inPath('city', { type: 'string' }),
    ]),
    '/{country}/topics/{topic}.atom': feed('A topic in a country as an Atom feed', [
      COUNTRY,
      inPath('topic', { enum: [...TOPIC_SLUGS] }),
    ]),
  };
}
