import type { FastifyInstance } from 'fastify';
import type { ServingContext } from '../../context.js';
import { declared } from '../route-class.js';

/** How long /readyz waits for the changes announced before it to be applied before it says the index is behind. */
const CATCH_UP_WAIT_MS = 1_000;

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the database answers and the read index is
 * loaded, prepared ahead and caught up with the database; a load balancer sends traffic only then) and metrics.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const engine = ctx.storage.engine;
  app.get('/healthz', declared('operations'), async () => ({ status: 'ok', engine }));

  app.get('/readyz', declared('operations'), async (_request, reply) => {
    const storage = await ctx.storage.answers();
    const { state, events } = ctx.index.status;
    const index = state === 'ready';
    // A node whose index cannot catch up with the database answers from an old catalogue: out of rotation until it has.
    // Caught up only once what the database announced before this request is in the index (a node just resumed
    // holds notifications it has not applied yet).
    const caughtUp =
      ctx.freshness.behindSince === undefined && ((await ctx.freshness.applied?.(CATCH_UP_WAIT_MS)) ?? true);
    const behind = ctx.freshness.behindSince;
    const ready = storage && index && caughtUp;
    reply.status(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'unavailable',
      engine,
      checks: { storage, index, caughtUp },
      events,
      ...(behind === undefined ? {} : { behindSeconds: Math.round((Date.now() - behind) / 100) / 10 }),
    };
  });

  app.get('/metrics', declared('operations'), async (_request, reply) =>
    reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
  );
}
