import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** Ready means the database answers; routes are registered before listen, so a 200 means fully up. */
  app.get('/healthz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.storage.db);
      return { status: 'ok', engine: ctx.storage.engine };
    } catch {
      return reply.status(503).send({ status: 'unavailable', engine: ctx.storage.engine });
    }
  });
}
