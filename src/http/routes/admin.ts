import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { parseOrThrow } from '../../catalogue/submission.js';
import type { ServingContext } from '../../context.js';
import { issueKey, listKeys, revokeKey, rotateKey, rotateKeySchema } from '../../use-cases/keys.js';
import type { SyncResult } from '../../use-cases/sync-feeds.js';
import { syncConfiguredFeeds } from '../../use-cases/sync-now.js';
import { bearerToken } from '../authenticate.js';

/**
 * Key administration over HTTP, for when the embedded database is owned by the running server (the CLI cannot
 * open it then). Enabled only with ADMIN_TOKEN; otherwise these routes do not exist (404).
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const requireAdmin = adminCheck(ctx.config.adminToken);

  app.get('/api/admin/keys', async (request) => {
    requireAdmin(request);
    return { keys: await listKeys(ctx) };
  });

  app.post('/api/admin/keys', async (request, reply) => {
    requireAdmin(request);
    const { summary, key } = await issueKey(ctx, request.body ?? {});
    reply.status(201);
    return { ...summary, key };
  });

  /** Syncs every feed of the feeds file now (as the timer does) and answers with what each changed. */
  app.post('/api/admin/sync', async (request) => {
    requireAdmin(request);
    const results = await syncConfiguredFeeds(ctx);
    return { feeds: results.map(feedRunView) };
  });

  app.post<{ Params: { id: string } }>('/api/admin/keys/:id/revoke', async (request) => {
    requireAdmin(request);
    return (await revokeKey(ctx, request.params.id)).summary;
  });

  /** A new secret for the same key id (its events stay); the body `{"grace": "2h"}` is optional. */
  app.post<{ Params: { id: string } }>('/api/admin/keys/:id/rotate', async (request) => {
    requireAdmin(request);
    const { grace } = parseOrThrow(rotateKeySchema, request.body ?? {});
    const { summary, key } = await rotateKey(ctx, request.params.id, { graceSeconds: grace ?? 0 });
    return { ...summary, key };
  });
}

/** Refuses a request without the admin token, compared in constant time; every request when none is set. */
function adminCheck(adminToken: string | undefined): (request: FastifyRequest) => void {
  const expected = adminToken ? Buffer.from(adminToken) : undefined;
  return (request) => {
    if (!expected) throw new ServiceError('admin-disabled');
    const token = bearerToken(request);
    if (token === undefined)
      throw new ServiceError('missing-key', 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>.');
    const presented = Buffer.from(token);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new ServiceError('invalid-key', 'The admin token is not valid.');
    }
  };
}

/** What one feed's sync changed, as the admin API answers it. */
function feedRunView({ feed, report, error, notModified, calendars }: SyncResult) {
  // A feed of several calendars names those that failed; a feed of one says it in `error`.
  const failing =
    (calendars?.length ?? 0) > 1
      ? calendars!
          .filter((c) => c.outcome === 'failed' || c.outcome === 'gone')
          .map((c) => ({ calendar: c.target.part, error: c.error }))
      : undefined;
  const calendarsPart = failing?.length ? { failingCalendars: failing } : {};
  if (!report) return { source: feed.source, error, ...calendarsPart };
  const { created, updated, unchanged, cancelled, restored, skipped } = report;
  return {
    source: feed.source,
    created,
    updated,
    unchanged,
    cancelled,
    restored,
    skipped: skipped.length,
    ...(notModified ? { notModified } : {}),
    ...calendarsPart,
  };
}
