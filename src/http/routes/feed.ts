import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { TOPIC_SLUGS } from '../../catalogue/taxonomy.js';
import type { ServingContext } from '../../context.js';
import { toQueryString } from '../../query/params.js';
import { feedUpdated, renderAtom } from '../../render/atom.js';
import { filterLabel } from '../../render/labels.js';
import { describeQuery } from '../../render/restate.js';
import { feedEvents } from '../../use-cases/feed-events.js';
import { COUNTRY_IN_PATH, documented, GRAMMAR_PARAMETERS, inPath, problem } from '../openapi-common.js';
import { declared } from '../route-class.js';
import { registerScopedPaths } from './scoped-paths.js';

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
  app.get('/api/feed', declared('cacheable', 'atom'), (request, reply) =>
    send(request, reply, request.query as Record<string, unknown>),
  );
  registerScopedPaths(
    app,
    'atom',
    {
      answer: send,
      notFound: (_reply, what) => {
        throw new ServiceError('not-found', what);
      },
    },
    'atom',
  );
}
