import type { FastifyInstance } from 'fastify';
import { embedScript } from '../../render/embed/embed-script.js';

/** GET /embed.js: the `<tech-events>` element any site may load (CORS-open like every read). */
export function registerEmbedRoutes(app: FastifyInstance): void {
  const script = embedScript();
  app.get('/embed.js', (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      // Loaded by pages of any origin, including those that isolate themselves (COEP).
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(script),
  );
}
