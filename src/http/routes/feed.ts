import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { isTopic, TOPIC_SLUGS } from '../../catalogue/taxonomy.js';
import type { ServingContext } from '../../context.js';
import { COUNTRY_INFO, isCountry } from '../../places/countries.js';
import { placeBySlug, resolveCity } from '../../places/gazetteer.js';
import { toQueryString } from '../../query/params.js';
import { FEED_TTL_SECONDS, feedUpdated, renderAtom } from '../../render/atom.js';
import { filterLabel } from '../../render/labels.js';
import { describeQuery } from '../../render/restate.js';
import { feedEvents } from '../../use-cases/feed-events.js';
import { askerOf } from '../asker.js';
import { declared } from '../route-class.js';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/** GET /api/feed and the `.atom` paths beside the markdown ones: any query as an Atom feed of what is new. */
export function registerFeedRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const { baseUrl } = ctx.config;
  const send = async (request: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>) => {
    const { result, entries } = await feedEvents(ctx, query, askerOf(request));
    const qs = toQueryString({ ...result.params, country: result.country });
    const updated = feedUpdated(entries);
    const body = renderAtom(entries, {
      baseUrl,
      self: `${baseUrl}${request.url}`,
      alternate: `${baseUrl}/?${qs}`,
      title: `Tech events · ${filterLabel({ ...result.params, country: result.country })}`,
      subtitle: describeQuery(result.restatement),
    });
    return reply
      .type(ATOM_TYPE)
      .header('Cache-Control', `public, max-age=${FEED_TTL_SECONDS}`)
      .header('Last-Modified', updated.toUTCString())
      .send(body);
  };
  const notFound = (what: string) => new ServiceError('not-found', what);

  app.get('/api/feed', declared('cacheable'), (request, reply) =>
    send(request, reply, request.query as Record<string, unknown>),
  );

  app.get<{ Params: { country: string } }>('/:country.atom', declared('cacheable'), (request, reply) => {
    const { country } = request.params;
    if (!isCountry(country)) throw notFound(`There is no country feed “${country}”; countries are ch, de and at.`);
    return send(request, reply, { ...(request.query as object), country });
  });

  app.get<{ Params: { country: string; slug: string } }>(
    '/:country/cities/:slug.atom',
    declared('cacheable'),
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
    declared('cacheable'),
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) throw notFound(`There is no country feed “${country}”; countries are ch, de and at.`);
      if (!isTopic(slug)) throw notFound(`There is no topic “${slug}”; the topics are ${TOPIC_SLUGS.join(', ')}.`);
      return send(request, reply, { ...(request.query as object), country, topic: slug });
    },
  );
}
