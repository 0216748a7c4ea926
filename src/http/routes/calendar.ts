import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServingContext } from '../../context.js';
import { renderCalendar, renderCfpCalendar } from '../../render/ical.js';
import { filterLabel } from '../../render/labels.js';
import { describeQuery } from '../../render/restate.js';
import { getEvent, searchEvents } from '../../use-cases/read-events.js';
import { COUNTRY_IN_PATH, documented, GRAMMAR_PARAMETERS, ID_IN_PATH, problem } from '../openapi-common.js';
import { declared } from '../route-class.js';

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

function lastModified(dates: Date[], fallback: Date): string {
  return (dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : fallback).toUTCString();
}

/** GET /api/calendar (a live subscription: each fetch re-runs the query) and one event's .ics. */
export function registerCalendarRoutes(app: FastifyInstance, ctx: ServingContext): void {
  documented(app, {
    '/api/calendar': {
      get: {
        summary: 'The same query as a live iCal subscription (https or webcal)',
        parameters: GRAMMAR_PARAMETERS,
        responses: {
          200: { description: 'text/calendar', content: { 'text/calendar': {} } },
          304: { description: 'Not modified' },
          422: problem('Invalid parameter'),
        },
      },
    },
    '/{country}/events/{id}.ics': {
      get: {
        summary: 'One event as an iCal file (add to calendar)',
        parameters: [COUNTRY_IN_PATH, ID_IN_PATH],
        responses: {
          200: { description: 'The event as iCal', content: { 'text/calendar': {} } },
          304: { description: 'Not modified' },
          404: problem('No such event in this country'),
        },
      },
    },
  });
  app.get('/api/calendar', declared('cacheable', 'calendar'), async (request, reply) => {
    // A calendar is a whole document: no pages.
    const { cursor: _, ...query } = request.query as Record<string, unknown>;
    const result = await searchEvents(ctx, query);
    const events = result.events.map((r) => r.event);
    const label = filterLabel({ ...result.params, country: result.country });
    // With cfp=open the calendar holds the deadlines of the calls for papers, each with reminders.
    const cfp = result.params.cfp === 'open';
    const body = (cfp ? renderCfpCalendar : renderCalendar)(events, {
      baseUrl: ctx.config.baseUrl,
      name: cfp ? `Calls for papers · ${label}` : `Tech events · ${label}`,
      description: describeQuery(result.restatement),
    });
    return reply
      .type(CALENDAR_TYPE)
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

  app.get<{ Params: { country: string; id: string } }>(
    '/:country/events/:id.ics',
    declared('cacheable', 'page'),
    (request, reply) => sendEventCalendar(ctx, request.params.country, request.params.id, reply),
  );
}

/**
 * One event's .ics. Also reached from the event page's route: the router's `:id.ics` pattern misses an id holding a
 * line terminator (%0A, %E2%80%A8), which must still get this route's problem 404, not a page's.
 */
export async function sendEventCalendar(ctx: ServingContext, country: string, id: string, reply: FastifyReply) {
  const { event } = await getEvent(ctx, { id, country });
  const body = renderCalendar([event], { baseUrl: ctx.config.baseUrl, name: event.title });
  return reply
    .type(CALENDAR_TYPE)
    .header('Cache-Control', 'public, max-age=300')
    .header('Last-Modified', event.updatedAt.toUTCString())
    .header('Content-Disposition', `attachment; filename="${event.id}.ics"`)
    .send(body);
}
