import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../catalogue/errors.js';
import { attendeeHolder, type Holder } from '../catalogue/holder.js';
import type { AppContext } from '../context.js';
import type { Attendee } from '../storage/attendees.repository.js';
import { sameSite, signedInAttendee } from './attendee-session.js';

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * The attendee of the request's session cookie, for a route that needs one: 401 `not-signed-in` without a live
 * session, 403 `cross-site` when a write made with it does not come from this site's own pages.
 */
export async function requireAttendee(ctx: AppContext, request: FastifyRequest): Promise<Attendee> {
  const attendee = await signedInAttendee(ctx, request);
  if (!attendee) {
    throw new ServiceError(
      'not-signed-in',
      'No attendee is signed in: create a passkey or sign in with one at /me (the session is a cookie).',
    );
  }
  if (!READS.has(request.method)) refuseCrossSite(ctx, request);
  return attendee;
}

/** 403 `cross-site` unless the request comes from this site's own pages (see sameSite). */
export function refuseCrossSite(ctx: AppContext, request: FastifyRequest): void {
  if (!sameSite(request, ctx.config.baseUrl)) {
    throw new ServiceError('cross-site', 'A write with the session cookie must come from this site’s own pages.');
  }
}

/**
 * The session cookie's branch of http/rsvp-holder.ts `holderOf`: the signed-in attendee as a holder (a write
 * from another site refused, 403), or undefined without a session.
 */
export async function sessionHolder(ctx: AppContext, request: FastifyRequest): Promise<Holder | undefined> {
  const attendee = await signedInAttendee(ctx, request);
  if (!attendee) return undefined;
  if (!READS.has(request.method)) refuseCrossSite(ctx, request);
  return attendeeHolder(attendee.id);
}
