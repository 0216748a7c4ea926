import type { FastifyInstance, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import { ValidationError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { toCapacityView, toDecisionView, toEventRsvpsView, toRsvpView } from '../../render/rsvp-json.js';
import { requireHost } from '../../use-cases/keys.js';
import { decideRsvp, eventRsvps, ownRsvp, rsvp, setCapacity } from '../../use-cases/rsvp.js';
import { bearerToken } from '../authenticate.js';
import { declared } from '../route-class.js';
import { requireHolder } from '../rsvp-holder.js';

type EventParams = { Params: { id: string }; Querystring: { country?: string } };

/** The event an RSVP route names: its id in the path, and the country when the query gives one. */
const target = (request: { params: { id: string }; query: { country?: string } }) => ({
  id: request.params.id,
  ...(request.query.country !== undefined ? { country: request.query.country } : {}),
});

/** A body that must be a JSON object (or absent): its fields, to be checked by the use case. */
function fieldsOf(body: unknown, shape: string): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ field: 'body', message: `must be a JSON object ${shape}` }]);
  }
  return body as Record<string, unknown>;
}

/**
 * A write's answer about someone's RSVP is theirs: never kept by a cache, shared or not (the reads say so by their
 * declaration, `personal`).
 */
const personal = (reply: FastifyReply) => reply.header('Cache-Control', 'private, no-store');

/**
 * RSVPs over HTTP, the MCP tool's use case: a holder's own RSVP (`/rsvp`), and the host's side of an event
 * (`/rsvps`, `/capacity`, with the key that owns it).
 */
export function registerRsvpRoutes(app: FastifyInstance, ctx: ServingContext, oauth: Provider): void {
  const baseUrl = ctx.config.baseUrl;

  app.post<EventParams>('/api/events/:id/rsvp', async (request, reply) => {
    const holder = await requireHolder(ctx, request, oauth);
    personal(reply);
    return toRsvpView(await rsvp(ctx, holder, { ...target(request), action: 'register' }), baseUrl);
  });

  app.delete<EventParams>('/api/events/:id/rsvp', async (request, reply) => {
    const holder = await requireHolder(ctx, request, oauth);
    personal(reply);
    return toRsvpView(await rsvp(ctx, holder, { ...target(request), action: 'withdraw' }), baseUrl);
  });

  app.get<EventParams>('/api/events/:id/rsvp', declared('personal'), async (request) => {
    const holder = await requireHolder(ctx, request, oauth);
    return toRsvpView(await ownRsvp(ctx, holder, target(request)), baseUrl);
  });

  app.get<EventParams>('/api/events/:id/rsvps', declared('personal'), async (request) => {
    const host = await requireHost(ctx, bearerToken(request));
    return toEventRsvpsView(await eventRsvps(ctx, host, target(request)), baseUrl);
  });

  app.post<EventParams & { Params: { handle: string } }>('/api/events/:id/rsvps/:handle', async (request, reply) => {
    const host = await requireHost(ctx, bearerToken(request));
    personal(reply);
    const fields = fieldsOf(request.body, '{"decision": "approve" | "decline"}');
    const input = { ...fields, ...target(request), handle: request.params.handle };
    return toDecisionView(await decideRsvp(ctx, host, input));
  });

  app.put<EventParams>('/api/events/:id/capacity', async (request, reply) => {
    const host = await requireHost(ctx, bearerToken(request));
    personal(reply);
    const fields = fieldsOf(request.body, '{"capacity": <places> | null}');
    if (!('capacity' in fields)) {
      throw new ValidationError([{ field: 'capacity', message: 'is required: a whole number of places, or null' }]);
    }
    return toCapacityView(await setCapacity(ctx, host, { ...fields, ...target(request) }), baseUrl);
  });
}
