import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../catalogue/errors.js';

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

/** The token of an `Authorization: Bearer` header: undefined without the header, '' when it is not a bearer token. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}
