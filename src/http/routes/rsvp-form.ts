import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { attendeeHolder } from '../../catalogue/holder.js';
import type { ServingContext } from '../../context.js';
import { translator } from '../../i18n/translator.js';
import { renderNotFoundPage } from '../../render/html/event-page.js';
import { withLanguage } from '../../render/html/i18n.js';
import { renderRsvpResult } from '../../render/html/me-page.js';
import { getEvent } from '../../use-cases/read-events.js';
import { rsvp } from '../../use-cases/rsvp.js';
import { signedInAttendee } from '../attendee-session.js';
import { acceptFormBodies } from '../form-body.js';
import { refuseCrossSite } from '../session-holder.js';
import { pathOf } from '../url-path.js';
import { languageOf, sendHtml } from './pages.js';

type Params = { country: string; id: string };

/**
 * POST /{country}/events/<id>/rsvp, the Register and Withdraw forms of a host-run event's page, with the session
 * cookie: signed out, 303 to /me with the event page to come back to; from another site, 403; else a small page
 * saying where the person stands, never cached.
 */
async function rsvpForm(ctx: ServingContext, request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const language = languageOf(request);
  const t = translator(language.lang);
  const baseUrl = ctx.config.baseUrl;
  const { country, id } = request.params;
  const lang = language.explicit ? t.lang : undefined;
  reply.header('Cache-Control', 'no-store');
  const attendee = await signedInAttendee(ctx, request);
  if (!attendee) {
    const back = `/${encodeURIComponent(country)}/events/${encodeURIComponent(id)}`;
    return reply.redirect(withLanguage('/me', new URLSearchParams({ return: back }), lang), 303);
  }
  refuseCrossSite(ctx, request);
  const action = (request.body as Record<string, unknown> | undefined)?.action === 'withdraw' ? 'withdraw' : 'register';
  try {
    const result = await rsvp(ctx, attendeeHolder(attendee.id), { id, country, action });
    const outcome = {
      status: result.registration.status,
      place: result.waitlistPlace ?? 0,
      changed: result.changed,
    };
    return sendHtml(reply, 200, language, renderRsvpResult({ t, baseUrl, event: result.event, outcome }));
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status >= 500) throw error;
    if (error.code === 'event-not-found') {
      const what = t.t('notFound.event', { id, country });
      return sendHtml(reply, 404, language, renderNotFoundPage({ t, baseUrl, path: pathOf(request.url), what }));
    }
    // Refused (a cancelled event, one that takes registrations at its source…): the page says why, in English.
    const { event } = await getEvent(ctx, { id, country });
    const page = renderRsvpResult({ t, baseUrl, event, outcome: { failed: error.message } });
    return sendHtml(reply, error.status, language, page);
  }
}

/** The RSVP forms' route, in a scope of its own that takes urlencoded bodies. */
export function registerRsvpFormRoutes(app: FastifyInstance, ctx: ServingContext): void {
  app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.post<{ Params: Params }>('/:country/events/:id/rsvp', (request, reply) => rsvpForm(ctx, request, reply));
  });
}
