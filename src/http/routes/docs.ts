import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PROBLEMS, type ProblemCode, ServiceError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { buildOpenApi } from '../openapi.js';

/** GET /api/openapi.json, the API reference page at /docs, and the explanation of each problem type. */
export async function registerDocsRoutes(app: FastifyInstance, ctx: ServingContext): Promise<void> {
  const document = buildOpenApi(ctx.config.baseUrl);
  app.get('/api/openapi.json', async () => document);

  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  app.get<{ Params: { code: string } }>('/problems/:code', async (request, reply) => {
    const code = request.params.code as ProblemCode;
    const definition = PROBLEMS[code];
    if (!Object.hasOwn(PROBLEMS, code) || !definition) {
      throw new ServiceError('not-found', `No problem type "${request.params.code}".`);
    }
    reply.type('text/markdown; charset=utf-8');
    return `# ${definition.title}\n\nHTTP ${definition.status} · \`${code}\`\n\n${definition.explanation}\n`;
  });
}
