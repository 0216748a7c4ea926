import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { COUNTRIES } from '../../catalogue/countries.js';
import { ServiceError } from '../../catalogue/errors.js';
import { parseOrThrow } from '../../catalogue/submission.js';
import type { AppContext } from '../../context.js';
import type { ApiKeyRecord } from '../../storage/keys.repository.js';
import { bearerToken } from '../authenticate.js';

export const createKeySchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  country: z.enum(COUNTRIES).default('ch'),
});

export function keySummary(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    country: record.country,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Key administration over HTTP, for when the embedded database is owned by the running server (the CLI cannot
 * open it then). Enabled only with ADMIN_TOKEN; otherwise these routes do not exist (404).
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const adminToken = ctx.config.adminToken;
  const expected = adminToken ? Buffer.from(adminToken) : undefined;

  function requireAdmin(request: FastifyRequest): void {
    if (!expected) throw new ServiceError('admin-disabled');
    const token = bearerToken(request);
    if (token === undefined)
      throw new ServiceError('missing-key', 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>.');
    const presented = Buffer.from(token);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new ServiceError('invalid-key', 'The admin token is not valid.');
    }
  }

  app.get('/api/admin/keys', async (request) => {
    requireAdmin(request);
    return { keys: (await ctx.keys.list()).map(keySummary) };
  });

  app.post('/api/admin/keys', async (request, reply) => {
    requireAdmin(request);
    const input = parseOrThrow(createKeySchema, request.body ?? {});
    const { record, key } = await ctx.keys.create(input.name, input.country);
    reply.status(201);
    return { ...keySummary(record), key };
  });

  app.post<{ Params: { id: string } }>('/api/admin/keys/:id/revoke', async (request) => {
    requireAdmin(request);
    const record = await ctx.keys.find(request.params.id);
    if (!record) throw new ServiceError('not-found', `No key with id "${request.params.id}".`);
    await ctx.keys.revoke(record.id);
    return keySummary((await ctx.keys.find(record.id))!);
  });
}
