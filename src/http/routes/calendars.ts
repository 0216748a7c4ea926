import type { FastifyInstance } from 'fastify';
import type { ServingContext } from '../../context.js';
import { linkCalendar, listCalendars, unlinkCalendar } from '../../use-cases/calendars.js';
import { runCounts } from '../../use-cases/import-records.js';
import { requireHost } from '../../use-cases/keys.js';
import { bearerToken } from '../authenticate.js';

/** POST /api/calendars (link), GET /api/calendars (the key's links and their state), DELETE /api/calendars/<id>. */
export function registerCalendarLinkRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const host = (request: Parameters<typeof bearerToken>[0]) => requireHost(ctx, bearerToken(request));
  app.post('/api/calendars', async (request, reply) => {
    const { calendar, created, sync } = await linkCalendar(ctx, await host(request), request.body ?? {});
    // Linked now: 201 once its first read is done, 202 while it goes on (GET /api/calendars shows how it ends).
    if (created)
      reply.status(sync ? 201 : 202).header('Location', `${ctx.config.baseUrl}/api/calendars/${calendar.id}`);
    return {
      ...calendar,
      created,
      ...(sync?.report ? { sync: { ...runCounts(sync.report), ...(sync.cut ? { cut: sync.cut } : {}) } } : {}),
      ...(sync?.error ? { sync: { error: sync.error } } : {}),
    };
  });

  app.get('/api/calendars', async (request) => ({ calendars: await listCalendars(ctx, await host(request)) }));

  app.delete<{ Params: { id: string } }>('/api/calendars/:id', async (request) =>
    unlinkCalendar(ctx, await host(request), request.params.id),
  );
}
