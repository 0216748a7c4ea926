import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isTopic, TOPIC_SLUGS } from '../../catalogue/taxonomy.js';
import { COUNTRY_INFO, isCountry } from '../../places/countries.js';
import { placeBySlug, resolveCity } from '../../places/gazetteer.js';
import { type CACHE_SECONDS, declared } from '../route-class.js';

/** How an output answers a query of the grammar that a path named, or says the path names nothing. */
export interface ScopedOutput {
  answer(request: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>): unknown;
  notFound(reply: FastifyReply, what: string): unknown;
}

/**
 * An output's paths by country, city and topic (`/de.md`, `/de/cities/zurich.md`, `/de/topics/ai-ml.md`), each the
 * query string's query held to what the path names; cacheable, like every answer of the grammar.
 */
export function registerScopedPaths(
  app: FastifyInstance,
  extension: string,
  output: ScopedOutput,
  maxAge?: keyof typeof CACHE_SECONDS,
): void {
  const options = declared('cacheable', maxAge);
  const unknownCountry = (reply: FastifyReply, country: string) =>
    output.notFound(reply, `There is no country feed “${country}”; countries are ch, de and at.`);
  const query = (request: FastifyRequest, scope: Record<string, string>) => ({
    ...(request.query as object),
    ...scope,
  });

  app.get<{ Params: { country: string } }>(`/:country.${extension}`, options, (request, reply) => {
    const { country } = request.params;
    if (!isCountry(country)) return unknownCountry(reply, country);
    return output.answer(request, reply, query(request, { country }));
  });

  app.get<{ Params: { country: string; slug: string } }>(
    `/:country/cities/:slug.${extension}`,
    options,
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) return unknownCountry(reply, country);
      // The slug of the place (`zurich`), or its name in any spelling the gazetteer knows (`Zürich`, `Zuerich`).
      const place = placeBySlug(country, slug) ?? resolveCity(slug, country);
      if (!place) return output.notFound(reply, `There is no city “${slug}” in ${COUNTRY_INFO[country].name}.`);
      return output.answer(request, reply, query(request, { country, city: place.name }));
    },
  );

  app.get<{ Params: { country: string; slug: string } }>(
    `/:country/topics/:slug.${extension}`,
    options,
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) return unknownCountry(reply, country);
      if (!isTopic(slug))
        return output.notFound(reply, `There is no topic “${slug}”; the topics are ${TOPIC_SLUGS.join(', ')}.`);
      return output.answer(request, reply, query(request, { country, topic: slug }));
    },
  );
}
