import type { FastifyInstance } from 'fastify';
import type { ServingContext } from '../../context.js';

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the database answers and the read index is
 * loaded, prepared ahead and caught up with the database; a load balancer sends traffic only then) and metrics
 * (`/metrics`, Prometheus text format).
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const engine = ctx.storage.engine;
  app.get('/healthz', async () => ({ status: 'ok', engine }));

  app.get('/readyz', async (_request, reply) => {
    const storage = await ctx.storage.answers();
    const { state, events } = ctx.index.status;
    const index = state === 'ready';
    // A node whose index cannot catch up with the database answers from an old catalogue: out of rotation until it has.
    const behind = ctx.freshness.behindSince;
    const caughtUp = behind === undefined;
    const ready = storage && index && caughtUp;
    reply.status(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'unavailable',
      engine,
      checks: { storage, index, caughtUp },
      events,
      ...(caughtUp ? {} : { behindSeconds: Math.round((Date.now() - behind) / 100) / 10 }),
    };
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
  );
}
