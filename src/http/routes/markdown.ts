import type { FastifyInstance, FastifyReply } from 'fastify';
import { isTopic, TOPIC_SLUGS } from '../../catalogue/taxonomy.js';
import type { ServingContext } from '../../context.js';
import { COUNTRY_INFO, isCountry } from '../../places/countries.js';
import { placeBySlug, resolveCity } from '../../places/gazetteer.js';
import { filterLabel } from '../../render/labels.js';
import { renderMarkdown } from '../../render/markdown.js';
import { answerCoverage } from '../../use-cases/coverage.js';
import { searchEvents } from '../../use-cases/read-events.js';
import { COUNTRY_IN_PATH, documented, GRAMMAR_PARAMETERS, problem } from '../openapi-common.js';
import { declared } from '../route-class.js';

function notFound(reply: FastifyReply, what: string): FastifyReply {
  return reply
    .status(404)
    .type('text/markdown; charset=utf-8')
    .send(
      `# Not found\n\n${what}\n\nCountries are \`ch\`, \`de\` and \`at\`; see /api/openapi.json for the query grammar.\n`,
    );
}

/** Every markdown shape of the contract (docs/contract.md, What the service is); each renders the same engine result as /api/events. */
export function registerMarkdownRoutes(app: FastifyInstance, ctx: ServingContext): void {
  documented(app, {
    '/api/md': {
      get: {
        summary: 'The same query as a paste-ready GitHub markdown table',
        parameters: GRAMMAR_PARAMETERS,
        responses: {
          200: { description: 'text/markdown', content: { 'text/markdown': {} } },
          422: problem('Invalid parameter'),
        },
      },
    },
    '/{country}.md': {
      get: {
        summary: 'A country feed as markdown (also /{country}/cities/{city}.md and /{country}/topics/{topic}.md)',
        parameters: [COUNTRY_IN_PATH],
        responses: {
          200: { description: 'A GitHub markdown table', content: { 'text/markdown': {} } },
          404: { description: 'Unknown country, city or topic (markdown body)', content: { 'text/markdown': {} } },
        },
      },
    },
  });
  const send = async (reply: FastifyReply, query: Record<string, unknown>) => {
    // A markdown document is whole: no pages.
    const { cursor: _, ...whole } = query;
    const result = await searchEvents(ctx, whole);
    const coverage = await answerCoverage(ctx, result);
    const body = renderMarkdown(result, {
      ...(coverage ? { coverage } : {}),
      baseUrl: ctx.config.baseUrl,
      filterLabel: filterLabel(result.params),
      now: ctx.now(),
      // RSVPs recorded here floor the crowd estimate (counts kept in memory beside the index).
      registrations: ctx.index.attendanceOf(result.events.map((r) => r.event.id)),
    });
    return reply.type('text/markdown; charset=utf-8').send(body);
  };

  app.get('/api/md', declared('cacheable'), (request, reply) => send(reply, request.query as Record<string, unknown>));

  app.get<{ Params: { country: string } }>('/:country.md', declared('cacheable'), (request, reply) => {
    const { country } = request.params;
    if (!isCountry(country)) return notFound(reply, `There is no country feed “${country}”.`);
    return send(reply, { ...(request.query as object), country });
  });

  app.get<{ Params: { country: string; slug: string } }>(
    '/:country/cities/:slug.md',
    declared('cacheable'),
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) return notFound(reply, `There is no country feed “${country}”.`);
      // The slug of the place (`zurich`), or its name in any spelling the gazetteer knows (`Zürich`, `Zuerich`).
      const place = placeBySlug(country, slug) ?? resolveCity(slug, country);
      if (!place) return notFound(reply, `There is no city “${slug}” in ${COUNTRY_INFO[country].name}.`);
      return send(reply, { ...(request.query as object), country, city: place.name });
    },
  );

  app.get<{ Params: { country: string; slug: string } }>(
    '/:country/topics/:slug.md',
    declared('cacheable'),
    (request, reply) => {
      const { country, slug } = request.params;
      if (!isCountry(country)) return notFound(reply, `There is no country feed “${country}”.`);
      if (!isTopic(slug))
        return notFound(reply, `There is no topic “${slug}”; the topics are ${TOPIC_SLUGS.join(', ')}.`);
      return send(reply, { ...(request.query as object), country, topic: slug });
    },
  );
}
