import type { FastifyRequest } from 'fastify';
import { parseKey, secretMatches } from '../auth/api-keys.js';
import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';

/** Query parameters that would put a secret into logs, proxies and browser history. */
export const KEY_QUERY_PARAMETERS = ['key', 'api_key', 'apikey', 'apiKey', 'access_token', 'token'];

export function refuseKeyInQuery(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && KEY_QUERY_PARAMETERS.some((name) => name in query)) {
    throw new ServiceError(
      'bad-request',
      'API keys are never accepted in the query string; send them as Authorization: Bearer <key>. Treat that key as leaked and have it rotated.',
    );
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** The key record for a presented key, or undefined for an unknown/revoked/malformed one. */
export async function lookupKey(ctx: AppContext, token: string): Promise<ApiKeyRecord | undefined> {
  const parsed = parseKey(token);
  if (!parsed) return undefined;
  const record = await ctx.keys.find(parsed.id);
  if (!record || record.revokedAt) return undefined;
  return secretMatches(parsed.secret, record.secretHash) ? record : undefined;
}

/** The calling host's key, or a 401 problem. */
export async function requireKey(ctx: AppContext, request: FastifyRequest): Promise<ApiKeyRecord> {
  const token = bearerToken(request);
  if (token === undefined) throw new ServiceError('missing-key');
  const record = token ? await lookupKey(ctx, token) : undefined;
  if (!record) throw new ServiceError('invalid-key');
  return record;
}
