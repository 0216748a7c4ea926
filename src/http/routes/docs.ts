import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PROBLEMS, type ProblemCode, ServiceError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { buildOpenApi } from '../openapi.js';
import { declared } from '../route-class.js';

/** GET /api/openapi.json, the API reference page at /docs, and the explanation of each problem type. */
export async function registerDocsRoutes(app: FastifyInstance, ctx: ServingContext): Promise<void> {
  // Registered after every other route: each has declared its paths by now.
  const document = buildOpenApi(ctx.config.baseUrl, app.hasDecorator('openApiPaths') ? app.openApiPaths : {});
  app.get('/api/openapi.json', declared('read', 'docs'), async () => document);

  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(async (scope) => {
    // The reference page's own routes serve documents too: reused for as long.
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, class: 'read', maxAge: 'docs' };
    });
    await scope.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  });

  app.get<{ Params: { code: string } }>('/problems/:code', declared('read', 'docs'), async (request, reply) => {
    const code = request.params.code as ProblemCode;
    const definition = PROBLEMS[code];
    if (!Object.hasOwn(PROBLEMS, code) || !definition) {
      throw new ServiceError('not-found', `No problem type "${request.params.code}".`);
    }
    reply.type('text/markdown; charset=utf-8');
    return `# ${definition.title}\n\nHTTP ${definition.status} · \`${code}\`\n\n${definition.explanation}\n`;
  });
}
