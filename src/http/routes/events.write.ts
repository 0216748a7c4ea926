import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { HOST_SOURCE, keyOwner } from '../../catalogue/event.js';
import { setLifecycle } from '../../catalogue/lifecycle.js';
import { resolveSubmission } from '../../catalogue/resolve-content.js';
import {
  cancelQuerySchema,
  type EventTarget,
  eventActionSchema,
  eventSubmissionSchema,
  parseOrThrow,
} from '../../catalogue/submission.js';
import { upsertEvent } from '../../catalogue/upsert-event.js';
import type { AppContext } from '../../context.js';
import { eventPageUrl } from '../../render/event-json.js';
import type { ApiKeyRecord } from '../../storage/keys.repository.js';
import { requireKey } from '../authenticate.js';

/** POST /api/events (create, update, cancel, restore) and DELETE /api/events (cancel). */
export function registerEventWriteRoutes(app: FastifyInstance, ctx: AppContext): void {
  const baseUrl = ctx.config.baseUrl;

  async function cancel(key: ApiKeyRecord, target: EventTarget) {
    const { event, changed } = await setLifecycle(ctx.events, keyOwner(key.id), `key:${key.id}`, target, 'cancelled');
    ctx.index.apply(event);
    return {
      id: event.id,
      cancelled: true,
      reversible: true,
      ...(changed ? {} : { detail: 'The event was already cancelled; nothing changed.' }),
    };
  }

  async function restore(key: ApiKeyRecord, target: EventTarget) {
    const { event, changed } = await setLifecycle(ctx.events, keyOwner(key.id), `key:${key.id}`, target, 'listed');
    ctx.index.apply(event);
    return {
      id: event.id,
      url: eventPageUrl(baseUrl, event),
      restored: true,
      ...(changed ? {} : { detail: 'The event was not cancelled; nothing changed.' }),
    };
  }

  app.post('/api/events', async (request: FastifyRequest, reply) => {
    const key = await requireKey(ctx, request);
    const body = request.body;
    if (body === undefined) {
      throw new ServiceError('unsupported-media-type', 'Send a JSON body with Content-Type: application/json.');
    }
    if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'action' in body) {
      const { action, ...target } = parseOrThrow(eventActionSchema, body);
      return action === 'cancel' ? cancel(key, target) : restore(key, target);
    }
    const submission = parseOrThrow(eventSubmissionSchema, body);
    const content = resolveSubmission(submission, { country: key.country, organizer: key.name });
    const result = await upsertEvent(
      ctx.events,
      {
        owner: keyOwner(key.id),
        externalId: submission.externalId ?? null,
        source: HOST_SOURCE,
        actor: `key:${key.id}`,
      },
      content,
      body,
    );
    ctx.index.apply(result.event);
    const url = eventPageUrl(baseUrl, result.event);
    if (result.created) reply.status(201).header('Location', url);
    return { id: result.event.id, url, created: result.created };
  });

  app.delete('/api/events', async (request) => {
    const key = await requireKey(ctx, request);
    return cancel(key, parseOrThrow(cancelQuerySchema, request.query));
  });
}
