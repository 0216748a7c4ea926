import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { eventActionSchema, parseOrThrow } from '../../catalogue/submission.js';
import type { WriteWarning } from '../../catalogue/write-warnings.js';
import type { ServingContext } from '../../context.js';
import { eventPageUrl } from '../../render/event-json.js';
import { cancelEvent, restoreEvent } from '../../use-cases/event-lifecycle.js';
import { requireHost } from '../../use-cases/keys.js';
import type { LifecycleResult } from '../../use-cases/store-events.js';
import { batchSize, submitBatch } from '../../use-cases/submit-batch.js';
import { submitEvent } from '../../use-cases/submit-event.js';
import { bearerToken } from '../authenticate.js';
import { ItemAllowance } from '../limits.js';
import { problemBody } from '../problem.js';

/** `warnings` in a write's answer, only when there is something to say. */
const warned = (warnings: readonly WriteWarning[]) => (warnings.length > 0 ? { warnings } : {});

/** A batch of up to 1,000 events: a platform's listings, a few kilobytes each. */
const BATCH_BODY_LIMIT = 5 * 1024 * 1024;

/** POST /api/events (create, update, cancel, restore), POST /api/events/batch and DELETE /api/events (cancel). */
export function registerEventWriteRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const baseUrl = ctx.config.baseUrl;
  const cancelled = ({ event, changed }: LifecycleResult) => ({
    id: event.id,
    cancelled: true,
    reversible: true,
    ...(changed ? {} : { detail: 'The event was already cancelled; nothing changed.' }),
  });
  const restored = ({ event, changed }: LifecycleResult) => ({
    id: event.id,
    url: eventPageUrl(baseUrl, event),
    restored: true,
    ...(changed ? {} : { detail: 'The event was not cancelled; nothing changed.' }),
  });

  app.post('/api/events', async (request, reply) => {
    const token = bearerToken(request);
    const body = request.body;
    const isAction = body !== null && typeof body === 'object' && !Array.isArray(body) && 'action' in body;
    if (body === undefined || isAction) {
      const host = await requireHost(ctx, token);
      if (body === undefined)
        throw new ServiceError('unsupported-media-type', 'Send a JSON body with Content-Type: application/json.');
      const { action, ...target } = parseOrThrow(eventActionSchema, body);
      if (action === 'cancel') return cancelled(await cancelEvent(ctx, host, target));
      return restored(await restoreEvent(ctx, host, target));
    }
    const { event, created, warnings } = await submitEvent(ctx, token, body);
    const url = eventPageUrl(baseUrl, event);
    if (created) reply.status(201).header('Location', url);
    return { id: event.id, url, created, ...warned(warnings) };
  });

  const batchItems = new ItemAllowance(ctx.config.rateLimits.batchItemsPerMinute);
  app.post('/api/events/batch', { bodyLimit: BATCH_BODY_LIMIT }, async (request) => {
    const host = await requireHost(ctx, bearerToken(request));
    if (request.body === undefined)
      throw new ServiceError('unsupported-media-type', 'Send a JSON body with Content-Type: application/json.');
    batchItems.take(request, batchSize(request.body));
    const { results, cancelled } = await submitBatch(ctx, host, request.body);
    return {
      results: results.map((r) =>
        'error' in r
          ? { externalId: r.externalId, error: problemBody(baseUrl, r.error, '/api/events/batch') }
          : {
              externalId: r.externalId,
              id: r.event.id,
              url: eventPageUrl(baseUrl, r.event),
              created: r.created,
              ...warned(r.warnings),
            },
      ),
      ...((request.body as { complete?: unknown }).complete === true
        ? { cancelled: cancelled.map((e) => ({ externalId: e.externalId, id: e.id })) }
        : {}),
    };
  });

  app.delete('/api/events', async (request) =>
    cancelled(await cancelEvent(ctx, await requireHost(ctx, bearerToken(request)), request.query)),
  );
}
