import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecret, parseKey } from '../auth/api-keys.js';
import { ServiceError } from '../catalogue/errors.js';
import type { Config } from '../config.js';
import { bearerToken } from './authenticate.js';
import { problemBody, rawProblemResponse } from './problem.js';
import { classOf } from './route-class.js';
import { pathOf } from './url-path.js';

/** Bytes of the request line plus all headers (Node's `maxHeaderSize`); more is a 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Longest path parameter (event ids are at most ~66 characters); longer ones match no route (404). */
export const MAX_PARAM_LENGTH = 200;

const WINDOW_MS = 60_000;

/** Writes, as their routes declare them (route-class.ts): everything else counts as a read. */
const isWrite = (request: FastifyRequest) => classOf(request) === 'write';

/**
 * The rate-limit bucket, without a database hit. Writes: per API key, by its public id plus a fingerprint of its
 * secret, so a forged token with another's id cannot use up the real key's allowance. Everything else: per client
 * address (`request.ip`, honouring X-Forwarded-For only from TRUST_PROXY peers).
 */
export function rateLimitBucket(request: FastifyRequest): string {
  if (isWrite(request)) {
    const token = bearerToken(request);
    const parsed = token ? parseKey(token) : undefined;
    if (parsed) return `write:key:${parsed.id}:${hashSecret(parsed.secret).subarray(0, 8).toString('hex')}`;
    return `write:ip:${request.ip}`;
  }
  return `read:ip:${request.ip}`;
}

/** Never limited: the operations endpoints and CORS preflights. */
function exempt(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' || classOf(request) === 'operations';
}

/**
 * Rate limits (429 with Retry-After), one fixed one-minute window per bucket in this process. Register before the
 * routes (it hooks each route as added); returns a preHandler for unknown paths, which count as reads.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config) {
  const { writesPerMinute, readsPerMinute, proposalsPerHour, attendeesPerHour, oauthClientsPerHour } =
    config.rateLimits;
  const hourly = proposalsPerHour + attendeesPerHour + oauthClientsPerHour;
  if (writesPerMinute === 0 && readsPerMinute === 0 && hourly === 0) return undefined;
  const limitOf = (bucket: string) => (bucket.startsWith('write:') ? writesPerMinute : readsPerMinute);
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: WINDOW_MS,
    cache: 20_000,
    keyGenerator: rateLimitBucket,
    max: (_request, bucket) => limitOf(bucket),
    allowList: (request, bucket) => exempt(request) || limitOf(bucket) === 0,
    errorResponseBuilder: (request, context) =>
      rateLimited(
        context,
        isWrite(request) ? 'writes per minute for this key' : 'requests per minute from this address',
      ),
  });
  return app.rateLimit();
}

const HOUR_MS = 3_600_000;

/** The refusal of a request over its limit: what the limit counts, and when to retry (Retry-After). */
function rateLimited(context: { ttl: number; max: number }, what: string): ServiceError {
  const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
  return new ServiceError('rate-limited', `At most ${context.max} ${what}; retry in ${seconds} s.`, {
    retryAfter: seconds,
    limit: context.max,
  });
}

/** A route option (`config.rateLimit`): at most `max` per client address and hour (`false`: no limit), in memory. */
function perAddressHourly(max: number, bucket: string, what: string) {
  if (max === 0) return false as const;
  return {
    max,
    timeWindow: HOUR_MS,
    keyGenerator: (request: FastifyRequest) => `${bucket}:ip:${request.ip}`,
    allowList: () => false,
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number; max: number }) =>
      rateLimited(context, what),
  };
}

/**
 * The route option (`config.rateLimit`) of a proposal route: per client address and hour, instead of the
 * per-minute limit of writes; `false` (no limit) with RATE_LIMIT_PROPOSALS_PER_HOUR=0. Kept in memory only.
 */
export const proposalRateLimit = (config: Config) =>
  perAddressHourly(config.rateLimits.proposalsPerHour, 'proposal', 'proposals per hour from this address');

/** OAuth clients registering themselves (each a row kept): RATE_LIMIT_OAUTH_CLIENTS_PER_HOUR per client address. */
export const clientRegistrationRateLimit = (config: Config) =>
  perAddressHourly(
    config.rateLimits.oauthClientsPerHour,
    'oauth-client',
    'OAuth client registrations per hour from this address',
  );

/**
 * The route option of passkey creation (POST /api/me/passkeys): new identities per client address and hour
 * (ATTENDEES_PER_HOUR), so nobody mints handles in bulk; `false` with 0. Kept in memory only.
 */
export const attendeeRateLimit = (config: Config) =>
  perAddressHourly(config.rateLimits.attendeesPerHour, 'attendee', 'new passkeys per hour from this address');

/** Errors of the HTTP parser (no request yet) as problem+json too: 431 headers too large, 408 timeout, 400 else. */
export function clientErrorHandler(baseUrl: string) {
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ServiceError('headers-too-large')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ServiceError('request-timeout')
          : new ServiceError('bad-request', 'The request is not valid HTTP/1.1.');
    if (!socket.writable) return void socket.destroy();
    socket.end(rawProblemResponse(baseUrl, problem));
    // The client should close after the answer; a peer that does not gets its socket destroyed.
    setTimeout(() => socket.destroy(), 2000).unref();
  };
}

/**
 * `Expect: 100-continue`: a body declared larger than its route takes is refused (413) before its client sends a byte
 * of it; any other is told to go on. (Node answers 100 Continue to every such request unless the server listens for
 * `checkContinue`, and the body limit would then refuse it only once sent.)
 */
export function honourExpectContinue(server: Server, baseUrl: string, limitOf: (path: string) => number): void {
  server.on('checkContinue', (request, response) => {
    const path = pathOf(request.url ?? '/');
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > limitOf(path)) {
      const error = new ServiceError('payload-too-large', `A body of ${length} bytes is more than ${path} takes.`);
      const body = JSON.stringify(problemBody(baseUrl, error, path));
      response.writeHead(413, {
        'content-type': 'application/problem+json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        // The body was not sent: the connection cannot carry another request after it.
        connection: 'close',
      });
      response.end(body);
      return;
    }
    response.writeContinue();
    server.emit('request', request, response);
  });
}

/**
 * Batch items per key per minute, beside the per-request write limit: a batch is one request but its N events take
 * N items. A batch that does not fit is refused whole (429 with Retry-After), changing nothing.
 */
export class ItemAllowance {
  private readonly used = new Map<string, { window: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `n` items for the bucket of this request, or throws the 429 problem; nothing is taken then. */
  take(request: FastifyRequest, n: number): void {
    if (this.perMinute === 0) return;
    const bucket = rateLimitBucket(request);
    const window = Math.floor(this.now() / WINDOW_MS);
    let entry = this.used.get(bucket);
    if (!entry || entry.window !== window) {
      if (this.used.size > 20_000) this.used.clear();
      entry = { window, count: 0 };
      this.used.set(bucket, entry);
    }
    if (entry.count + n > this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - this.now()) / 1000));
      const left = Math.max(0, this.perMinute - entry.count);
      throw new ServiceError(
        'rate-limited',
        `A batch of ${n} events does not fit: ${left} of ${this.perMinute} batch items per minute are left for this key; retry in ${retryAfter} s.`,
        { retryAfter, limit: this.perMinute },
      );
    }
    entry.count += n;
  }
}
