import type { FastifyRequest } from 'fastify';
import type { Asker } from '../use-cases/read-events.js';
import { isNewcomer } from './admission.js';

/** The client of a request, as use cases see it: a newcomer or not, and gone once its connection is closed. */
export function askerOf(request: FastifyRequest): Asker {
  return { newcomer: isNewcomer(request.raw), gone: () => request.raw.socket?.destroyed ?? false };
}
