import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import { parseOrThrow } from '../../catalogue/submission.js';
import type { ServingContext } from '../../context.js';
import type { Job } from '../../runtime/jobs.js';
import { issueKey, listKeys, revokeKey, rotateKey, rotateKeySchema } from '../../use-cases/keys.js';
import type { SyncResult } from '../../use-cases/sync-feeds.js';
import { startSync, syncRun } from '../../use-cases/sync-now.js';
import { bearerToken } from '../authenticate.js';

/**
 * Key administration over HTTP, for when the embedded database is owned by the running server (the CLI cannot
 * open it then). Enabled only with ADMIN_TOKEN; otherwise these routes do not exist (404).
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const admin = adminOnly(ctx.config.adminToken);

  app.get('/api/admin/keys', admin, async () => ({ keys: await listKeys(ctx) }));

  app.post('/api/admin/keys', admin, async (request, reply) => {
    const { summary, key } = await issueKey(ctx, request.body ?? {});
    reply.status(201);
    return { ...summary, key };
  });

  /**
   * Starts a sync of every feed of the feeds file and the linked calendars (as the timer does), answering at once
   * with the run (the one under way, if any); GET /api/admin/sync/<id> says how it goes and what each feed changed.
   */
  app.post('/api/admin/sync', admin, async (_request, reply) => {
    const { run } = await startSync(ctx);
    const href = `${ctx.config.baseUrl}/api/admin/sync/${run.id}`;
    reply.status(202).header('Location', href);
    return syncRunView(run);
  });

  app.get<ById>('/api/admin/sync/:id', admin, async (request) => syncRunView(syncRun(ctx, request.params.id)));

  app.post<ById>(
    '/api/admin/keys/:id/revoke',
    admin,
    async (request) => (await revokeKey(ctx, request.params.id)).summary,
  );

  /** A new secret for the same key id (its events stay); the body `{"grace": "2h"}` is optional. */
  app.post<ById>('/api/admin/keys/:id/rotate', admin, async (request) => {
    const { grace } = parseOrThrow(rotateKeySchema, request.body ?? {});
    const { summary, key } = await rotateKey(ctx, request.params.id, { graceSeconds: grace ?? 0 });
    return { ...summary, key };
  });
}

type ById = { Params: { id: string } };

/**
 * Route options that refuse a request without the admin token (compared in constant time) before its handler runs;
 * every request when none is set.
 */
export function adminOnly(adminToken: string | undefined) {
  const expected = adminToken ? Buffer.from(adminToken) : undefined;
  const preHandler = async (request: FastifyRequest) => {
    if (!expected) throw new ServiceError('admin-disabled');
    const token = bearerToken(request);
    if (token === undefined)
      throw new ServiceError('missing-key', 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>.');
    const presented = Buffer.from(token);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new ServiceError('invalid-key', 'The admin token is not valid.');
    }
  };
  return { preHandler };
}

/** A sync run as the admin API answers it: its state, progress, and once done what each feed changed. */
function syncRunView(run: Job<SyncResult[]>) {
  return {
    id: run.id,
    state: run.state,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    progress: run.progress,
    ...(run.result ? { feeds: run.result.map(feedRunView) } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
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
  // What a limit of a read left out: of the one calendar as `cut`, of several by calendar.
  const cut = (calendars ?? []).filter((c) => c.cut).map((c) => ({ calendar: c.target.part, cut: c.cut! }));
  const cutPart = cut.length === 0 ? {} : (calendars?.length ?? 0) > 1 ? { cutCalendars: cut } : { cut: cut[0]!.cut };
  const calendarsPart = { ...(failing?.length ? { failingCalendars: failing } : {}), ...cutPart };
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
