import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { HTML_SECURITY_HEADERS } from '../../render/html/layout.js';
import { renderSourcesPage } from '../../render/html/sources-page.js';
import { listSources } from '../../use-cases/list-sources.js';

/** GET /api/sources (JSON) and GET /sources (the same as a page): every source and how current it is. */
export function registerSourcesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/sources', () => listSources(ctx));
  app.get('/sources', async (_request, reply) =>
    reply
      .headers(HTML_SECURITY_HEADERS)
      .type('text/html; charset=utf-8')
      .send(renderSourcesPage(ctx.config.baseUrl, await listSources(ctx))),
  );
}
