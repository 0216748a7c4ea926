import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ProblemCode, ServiceError } from '../catalogue/errors.js';

/** RFC 9457 problem details. `type` points at the explanation served at /problems/<code>. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  [extension: string]: unknown;
}

export function problemBody(baseUrl: string, error: ServiceError, instance: string): ProblemBody {
  return {
    type: `${baseUrl}/problems/${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    instance,
    code: error.code,
    ...error.extra,
  };
}

/**
 * Whether a client would rather read an error as an HTML page than as problem+json: only when its Accept names
 * text/html (or all text) at least as high as any range problem+json falls under. Browsers do; a bare wildcard,
 * no Accept or JSON do not.
 */
export function prefersHtml(accept: string | undefined): boolean {
  let html = 0;
  let problem = 0;
  for (const range of (accept ?? '').toLowerCase().split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (type === 'text/html' || type === 'text/*') html = Math.max(html, weight);
    if (['*/*', 'application/*', 'application/json', 'application/problem+json'].includes(type)) {
      problem = Math.max(problem, weight);
    }
  }
  return html > 0 && html >= problem;
}

export function sendProblem(reply: FastifyReply, baseUrl: string, error: ServiceError, instance: string): FastifyReply {
  if (error.code === 'missing-key' || error.code === 'invalid-key') {
    reply.header(
      'WWW-Authenticate',
      error.code === 'missing-key' ? 'Bearer realm="tech-events"' : 'Bearer realm="tech-events", error="invalid_token"',
    );
  }
  // A database outage is usually over within seconds (a restart, a failover): say when to retry.
  if (error.code === 'storage-unavailable') reply.header('Retry-After', '5');
  if (typeof error.extra.retryAfter === 'number') reply.header('Retry-After', String(error.extra.retryAfter));
  return reply
    .status(error.status)
    .type('application/problem+json; charset=utf-8')
    .send(problemBody(baseUrl, error, instance));
}

const FASTIFY_CODES: Record<string, ProblemCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported-media-type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload-too-large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed-json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed-json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad-request',
};

/**
 * Errors that mean the database is out of reach: connection refused or reset, a Unix socket gone, the server
 * shutting down or starting up (57P0x), connection exceptions (08xxx), the pool giving up on connecting.
 */
export function isStorageUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; syscall?: unknown; errors?: unknown } | null | undefined;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (Array.isArray(e.errors) && e.errors.some(isStorageUnavailable)) return true; // AggregateError (IPv4 and IPv6)
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code) ||
    (code === 'ENOENT' && e.syscall === 'connect') ||
    ['57P01', '57P02', '57P03'].includes(code) ||
    code.startsWith('08') ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|the database system is (shutting down|starting up|in recovery mode)/i.test(
      message,
    )
  );
}

/** The client closed its connection while its body was still arriving (Node's `aborted` stream error). */
function clientAborted(error: unknown, request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete) return false;
  return raw.readableAborted || (error as { message?: unknown })?.message === 'aborted';
}

/** Maps anything thrown while handling a request to a ServiceError, once for the whole HTTP layer. */
export function toServiceError(error: unknown, request: FastifyRequest): ServiceError {
  if (error instanceof ServiceError) return error;
  const e = error as FastifyError;
  const mapped = e?.code ? FASTIFY_CODES[e.code] : undefined;
  if (mapped) {
    const detail = mapped === 'malformed-json' ? `The body is not valid JSON: ${e.message}` : e.message;
    return new ServiceError(mapped, detail);
  }
  if (e instanceof SyntaxError && (e as FastifyError).statusCode === 400) return new ServiceError('malformed-json');
  // PostgreSQL cannot hold NUL (and jsonb no lone surrogate escapes): such a character in a value that is only
  // looked up (an id in a path, a tool argument) is the caller's mistake, not ours.
  if ((e as { code?: unknown })?.code === '22021' || (e as { code?: unknown })?.code === '22P05') {
    return new ServiceError('bad-request', 'The request contains a character that cannot be stored, such as NUL.');
  }
  if (clientAborted(e, request)) {
    // The client's doing, and anyone can do it: not a warning, and never a storage outage (its ECONNRESET looks alike).
    request.log.info({ code: (e as { code?: unknown })?.code }, 'client aborted upload');
    return new ServiceError('bad-request', 'The connection closed before the whole request body arrived.');
  }
  if (isStorageUnavailable(e)) {
    // One short line per refused request (an outage refuses many): no stack trace.
    request.log.warn({ code: (e as { code?: unknown })?.code, reason: String(e?.message ?? e) }, 'storage unavailable');
    return new ServiceError('storage-unavailable');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ServiceError('bad-request', e.message);
  }
  request.log.error({ err: e }, 'unhandled error');
  return new ServiceError('internal');
}

/**
 * A complete HTTP/1.1 problem+json response for errors the HTTP parser raises before any request exists
 * (headers over the size limit, a request that does not arrive in time, bytes that are not HTTP).
 */
export function rawProblemResponse(baseUrl: string, error: ServiceError, headers: readonly string[] = []): string {
  const { instance: _instance, ...body } = problemBody(baseUrl, error, '');
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    ...headers,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}
