import type { FastifyRequest } from 'fastify';
import type { Asker } from '../use-cases/read-events.js';

/** The client of a request, as use cases see it: gone once its connection is closed. */
export function askerOf(request: FastifyRequest): Asker {
  return { gone: () => request.raw.socket?.destroyed ?? false };
}
