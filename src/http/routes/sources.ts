import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { translator } from '../../i18n/translator.js';
import { renderSourcesPage } from '../../render/html/sources-page.js';
import { listSources } from '../../use-cases/list-sources.js';
import { languageOf, PAGE_CONFIG, sendHtml } from './pages.js';

/** GET /api/sources (JSON) and GET /sources (the same as a page, in the reader's language): every source and how current it is. */
export function registerSourcesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/sources', () => listSources(ctx));
  app.get('/sources', { config: PAGE_CONFIG }, async (request, reply) => {
    const language = languageOf(request);
    const view = await listSources(ctx);
    return sendHtml(
      reply,
      200,
      language,
      renderSourcesPage({ t: translator(language.lang), baseUrl: ctx.config.baseUrl, view }),
    );
  });
}
