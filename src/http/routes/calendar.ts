import type { FastifyInstance } from 'fastify';
import { isCountry } from '../../catalogue/countries.js';
import { ServiceError } from '../../catalogue/errors.js';
import type { AppContext } from '../../context.js';
import { search } from '../../query/engine.js';
import { parseSearchParams } from '../../query/params.js';
import { FEED_REFRESH_SECONDS, renderCalendar } from '../../render/ical.js';
import { filterLabel } from '../../render/labels.js';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

function lastModified(dates: Date[], fallback: Date): string {
  const latest = dates.reduce((max, d) => (d > max ? d : max), new Date(0));
  return (dates.length ? latest : fallback).toUTCString();
}

/** GET /api/calendar (a live subscription: each fetch re-runs the query) and one event's .ics. */
export function registerCalendarRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/calendar', async (request, reply) => {
    const params = parseSearchParams(request.query as Record<string, unknown>);
    const result = search(ctx.index, params, ctx.now());
    const events = result.events.map((r) => r.entry.event);
    const body = renderCalendar(events, {
      baseUrl: ctx.config.baseUrl,
      name: `Tech events · ${filterLabel({ ...params, country: result.country })}`,
      description: result.understood,
    });
    return reply
      .type(CALENDAR_TYPE)
      .header('Cache-Control', `public, max-age=${Math.min(FEED_REFRESH_SECONDS, 300)}`)
      .header(
        'Last-Modified',
        lastModified(
          events.map((e) => e.updatedAt),
          ctx.now(),
        ),
      )
      .header('Content-Disposition', 'inline; filename="tech-events.ics"')
      .send(body);
  });

  app.get<{ Params: { country: string; id: string } }>('/:country/events/:id.ics', async (request, reply) => {
    const { country, id } = request.params;
    const event = isCountry(country) ? await ctx.events.findById(id) : undefined;
    if (!event || event.country !== country)
      throw new ServiceError('event-not-found', `No event “${id}” in ${country}.`);
    const body = renderCalendar([event], { baseUrl: ctx.config.baseUrl, name: event.title });
    return reply
      .type(CALENDAR_TYPE)
      .header('Cache-Control', 'public, max-age=300')
      .header('Last-Modified', event.updatedAt.toUTCString())
      .header('Content-Disposition', `attachment; filename="${event.id}.ics"`)
      .send(body);
  });
}
