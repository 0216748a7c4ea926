import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ServingContext } from '../../context.js';

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the database answers and the read index is
 * loaded and prepared ahead, a second or so after loading at 100k events; a load balancer sends traffic only then)
 * and metrics (`/metrics`, Prometheus text format).
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const engine = ctx.storage.engine;
  app.get('/healthz', async () => ({ status: 'ok', engine }));

  app.get('/readyz', async (_request, reply) => {
    const storage = await sql`select 1`
      .execute(ctx.storage.db)
      .then(() => true)
      .catch(() => false);
    const index = ctx.index.loaded && ctx.index.prepared;
    const ready = storage && index;
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', engine, checks: { storage, index }, events: ctx.index.size };
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
  );
}
