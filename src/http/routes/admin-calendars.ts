import type { FastifyInstance } from 'fastify';
import type { ServingContext } from '../../context.js';
import { renderCalendarCheck } from '../../render/calendar-check.js';
import { checkConfiguredCalendars } from '../../use-cases/check-calendars.js';
import { adminOnly } from './admin.js';

/**
 * `GET /api/admin/calendars/check`: what `tech-events calendars check` prints, for the running service's feeds file.
 * Reads every calendar once and imports nothing; JSON, or the markdown table with `Accept: text/markdown`.
 */
export function registerCalendarCheckRoute(app: FastifyInstance, ctx: ServingContext): void {
  app.get('/api/admin/calendars/check', adminOnly(ctx.config.adminToken), async (request, reply) => {
    const { checkedAt, calendars } = await checkConfiguredCalendars(ctx);
    if (/\btext\/markdown\b/.test(request.headers.accept ?? ''))
      return reply.type('text/markdown; charset=utf-8').send(renderCalendarCheck(calendars, checkedAt));
    return { checkedAt: checkedAt.toISOString(), calendars };
  });
}
