import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { isTopic, TOPIC_SLUGS } from '../../catalogue/taxonomy.js';
import type { ServingContext } from '../../context.js';
import { COUNTRY_INFO, isCountry } from '../../places/countries.js';
import { placeBySlug, resolveCity } from '../../places/gazetteer.js';
import { toQueryString } from '../../query/params.js';
import { feedUpdated, renderAtom } from '../../render/atom.js';
import { filterLabel } from '../../render/labels.js';
import { describeQuery } from '../../render/restate.js';
import { feedEvents } from '../../use-cases/feed-events.js';
import { COUNTRY_IN_PATH, documented, GRAMMAR_PARAMETERS, inPath, problem } from '../openapi-common.js';
import { declared } from '../route-class.js';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

const atom = {
  description: 'RFC 4287 Atom: matching events, newest to the catalogue first, cancellations as updates',
  content: { 'application/atom+xml': {} },
};
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

/** GET /api/feed and the `.atom` paths beside the markdown ones: any query as an Atom feed of what is new. */
export function registerFeedRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const { baseUrl } = ctx.config;
  documented(app, {
    '/api/feed': feed('The same query as an Atom feed of what is new (never near misses)', GRAMMAR_PARAMETERS),
    '/{country}.atom': feed('A country as an Atom feed', [COUNTRY_IN_PATH]),
    '/{country}/cities/{city}.atom': feed('A city as an Atom feed (its slug or name)', [
      COUNTRY_IN_PATH,
      inPath('city', { type: 'string' }),
    ]),
    '/{country}/topics/{topic}.atom': feed('A topic in a country as an Atom feed', [
      COUNTRY_IN_PATH,
      inPath('topic', { enum: [...TOPIC_SLUGS] }),
    ]),
  });
  const send = async (request: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>) => {
    const { result, entries } = await feedEvents(ctx, query);
    const qs = toQueryString({ ...result.params, country: result.country });
    const updated = feedUpdated(entries);
    const body = renderAtom(entries, {
      baseUrl,
      self: `${baseUrl}${request.url}`,
      alternate: `${baseUrl}/?${qs}`,
      title: `Tech events · ${filterLabel({ ...result.params, country: result.country })}`,
      subtitle: describeQuery(result.restatement),
    });
    return reply.type(ATOM_TYPE).header('Last-Modified', updated.toUTCString()).send(body);
  };
  const notFound = (what: string) => new ServiceError('not-found', what);

  app.get('/api/feed', declared('cacheable', 'atom'), (request, reply) =>
    send(request, reply, request.query as Record<string, unknown>),
  );

  app.get<{ Params: { country: string } }>('/:country.atom', declared('cacheable', 'atom'), (request, reply) => {
    const { country } = request.params;
    if (!isCountry(country)) throw notFound(`There is no country feed “${country}”; countries are ch, de and at.`);
    return send(request, reply, { ...(request.query as object), country });
  });

  app.get<{ Params: { country: string; slug: string } }>(
    '/:country/cities/:slug.atom',
    declared('cacheable', 'atom'),
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) throw notFound(`There is no country feed “${country}”; countries are ch, de and at.`);
      const place = placeBySlug(country, slug) ?? resolveCity(slug, country);
      if (!place) throw notFound(`There is no city “${slug}” in ${COUNTRY_INFO[country].name}.`);
      return send(request, reply, { ...(request.query as object), country, city: place.name });
    },
  );

  app.get<{ Params: { country: string; slug: string } }>(
    '/:country/topics/:slug.atom',
    declared('cacheable', 'atom'),
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) throw notFound(`There is no country feed “${country}”; countries are ch, de and at.`);
      if (!isTopic(slug)) throw notFound(`There is no topic “${slug}”; the topics are ${TOPIC_SLUGS.join(', ')}.`);
      return send(request, reply, { ...(request.query as object), country, topic: slug });
    },
  );
}
