import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServingContext } from '../../context.js';
import { filterLabel } from '../../render/labels.js';
import { renderMarkdown } from '../../render/markdown.js';
import { answerCoverage } from '../../use-cases/coverage.js';
import { searchEvents } from '../../use-cases/read-events.js';
import { COUNTRY_IN_PATH, documented, GRAMMAR_PARAMETERS, problem } from '../openapi-common.js';
import { declared } from '../route-class.js';
import { registerScopedPaths } from './scoped-paths.js';

function notFound(reply: FastifyReply, what: string): FastifyReply {
  return reply
    .status(404)
    .type('text/markdown; charset=utf-8')
    .send(`# Not found\n\n${what}\n\nThe query grammar: /api/openapi.json.\n`);
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
  registerScopedPaths(app, 'md', { answer: (_request, reply, query) => send(reply, query), notFound });
}
