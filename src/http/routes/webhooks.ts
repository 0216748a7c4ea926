import type { FastifyInstance } from 'fastify';
import type { ServingContext } from '../../context.js';
import { requireHost } from '../../use-cases/keys.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  readWebhook,
  resendWebhookMessage,
  rotateWebhookSecret,
  setWebhookActive,
} from '../../use-cases/webhooks.js';
import { bearerToken } from '../authenticate.js';

type ById = { Params: { id: string } };

/** /api/webhooks: a key's subscriptions to a query (docs/api.md, Webhooks). */
export function registerWebhookRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const host = (request: Parameters<typeof bearerToken>[0]) => requireHost(ctx, bearerToken(request));

  app.post('/api/webhooks', async (request, reply) => {
    const created = await createWebhook(ctx, await host(request), request.body ?? {});
    reply.status(201).header('Location', `${ctx.config.baseUrl}/api/webhooks/${created.id}`);
    return created;
  });

  app.get('/api/webhooks', async (request) => ({ webhooks: await listWebhooks(ctx, await host(request)) }));

  app.get<ById>('/api/webhooks/:id', async (request) => readWebhook(ctx, await host(request), request.params.id));

  app.post<ById>('/api/webhooks/:id/pause', async (request) =>
    setWebhookActive(ctx, await host(request), request.params.id, false),
  );
  app.post<ById>('/api/webhooks/:id/resume', async (request) =>
    setWebhookActive(ctx, await host(request), request.params.id, true),
  );
  app.post<ById>('/api/webhooks/:id/rotate', async (request) =>
    rotateWebhookSecret(ctx, await host(request), request.params.id),
  );
  app.delete<ById>('/api/webhooks/:id', async (request) => deleteWebhook(ctx, await host(request), request.params.id));

  app.post<{ Params: { id: string; msg: string } }>('/api/webhooks/:id/deliveries/:msg/resend', async (request) =>
    resendWebhookMessage(ctx, await host(request), request.params.id, request.params.msg),
  );
}
