import type { FastifyInstance } from 'fastify';
import { embedScript } from '../../render/embed/embed-script.js';
import { documented } from '../openapi-common.js';

/**
 * GET /embed.js: the `<tech-events>` element any site may load, as a classic or a module script. CORS-open like every
 * read, which a module script loaded from another origin needs; the service's BASE_URL is written into it.
 */
export function registerEmbedRoutes(app: FastifyInstance, baseUrl: string): void {
  documented(app, {
    '/embed.js': {
      get: {
        summary:
          'The <tech-events> custom element: any query as a list on another site, as a classic or a module script (docs/api.md#embedding-a-list)',
        responses: { 200: { description: 'text/javascript', content: { 'text/javascript': {} } } },
      },
    },
  });
  const script = embedScript(baseUrl);
  app.get('/embed.js', (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      // Loaded by pages of any origin, including those that isolate themselves (COEP).
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(script),
  );
}
