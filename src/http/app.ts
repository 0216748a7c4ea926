import cors from '@fastify/cors';
import etag from '@fastify/etag';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import { refuseKeyInQuery } from './authenticate.js';
import { sendProblem, toServiceError } from './problem.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerCalendarRoutes } from './routes/calendar.js';
import { registerDocsRoutes } from './routes/docs.js';
import { registerEventReadRoutes } from './routes/events.read.js';
import { registerEventWriteRoutes } from './routes/events.write.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMarkdownRoutes } from './routes/markdown.js';
import { registerMcpRoutes } from './routes/mcp.js';
import { registerPageRoutes } from './routes/pages.js';

export const BODY_LIMIT = 64 * 1024;

/** Logs the path but never a secret: query strings are dropped from request logs. */
function requestSerializer(request: { method: string; url: string; ip?: string; id?: string }) {
  return { method: request.method, path: request.url.split('?')[0], ip: request.ip, id: request.id };
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: ctx.logger.child({}, { serializers: { req: requestSerializer } }) as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true },
  });

  // Reading is keyless and CORS-open; writes authenticate with a bearer header (not cookies), so '*' is safe too.
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'Mcp-Session-Id', 'Mcp-Protocol-Version'],
    exposedHeaders: ['ETag', 'Last-Modified', 'Location', 'WWW-Authenticate', 'Mcp-Session-Id', 'Retry-After'],
    maxAge: 86400,
  });

  // Strong ETags on every response body; a matching If-None-Match gets 304 (calendar clients, crawlers, caches).
  await app.register(etag);

  app.addHook('onRequest', async (request) => {
    refuseKeyInQuery(request);
  });

  app.setErrorHandler((error, request, reply) => {
    sendProblem(reply, ctx.config.baseUrl, toServiceError(error, request), request.url.split('?')[0]!);
  });
  app.setNotFoundHandler((request, reply) => {
    sendProblem(
      reply,
      ctx.config.baseUrl,
      new ServiceError('not-found', `Nothing at ${request.method} ${request.url.split('?')[0]}.`),
      request.url.split('?')[0]!,
    );
  });

  registerHealthRoutes(app, ctx);
  registerEventWriteRoutes(app, ctx);
  registerEventReadRoutes(app, ctx);
  registerMarkdownRoutes(app, ctx);
  registerCalendarRoutes(app, ctx);
  registerPageRoutes(app, ctx);
  registerMcpRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  await registerDocsRoutes(app, ctx);
  return app;
}
