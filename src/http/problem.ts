import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEMS, type ProblemCode, ServiceError } from '../catalogue/errors.js';

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

export function sendProblem(reply: FastifyReply, baseUrl: string, error: ServiceError, instance: string): FastifyReply {
  if (error.code === 'missing-key' || error.code === 'invalid-key') {
    reply.header(
      'WWW-Authenticate',
      error.code === 'missing-key' ? 'Bearer realm="tech-events"' : 'Bearer realm="tech-events", error="invalid_token"',
    );
  }
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

/** Errors that mean the database is out of reach (connection refused, server shutting down, …). */
function isStorageUnavailable(error: { code?: string; message?: string }): boolean {
  const code = error.code ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03'].includes(code) ||
    code.startsWith('08') ||
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message ?? '')
  );
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
  if (isStorageUnavailable(e)) {
    request.log.warn({ err: e }, 'storage unavailable');
    return new ServiceError('storage-unavailable');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ServiceError('bad-request', e.message);
  }
  request.log.error({ err: e }, 'unhandled error');
  return new ServiceError('internal');
}

export { PROBLEMS };
