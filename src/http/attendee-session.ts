import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Attendee } from '../storage/attendees.repository.js';

/**
 * An attendee's session: a random token in an HttpOnly, SameSite=Lax cookie (Secure when the site is https), of
 * which only a hash is stored. Lax keeps the cookie off other sites' POSTs; writes made with it also check that the
 * request comes from the site itself (see sameSite below).
 */
export const SESSION_COOKIE = 'tev_session';
export const SESSION_DAYS = 30;

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return parseCookie(header)[SESSION_COOKIE] || undefined;
}

/** The attendee signed in on this request, if any. */
export async function signedInAttendee(ctx: AppContext, request: FastifyRequest): Promise<Attendee | undefined> {
  const token = tokenOf(request);
  return token ? ctx.attendees.findSession(token, ctx.now()) : undefined;
}

/** Opens a session for `attendeeId` and sets its cookie on the reply. */
export async function startSession(ctx: AppContext, reply: FastifyReply, attendeeId: string): Promise<void> {
  const expires = new Date(ctx.now().getTime() + SESSION_DAYS * 86_400_000);
  const token = await ctx.attendees.createSession(attendeeId, expires);
  reply.header('Set-Cookie', cookie(ctx, token, expires));
}

/** Ends this request's session, if any, and clears its cookie. */
export async function endSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = tokenOf(request);
  if (token) await ctx.attendees.endSession(token);
  reply.header('Set-Cookie', cookie(ctx, '', new Date(0)));
}

function cookie(ctx: AppContext, value: string, expires: Date): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value,
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.baseUrl.startsWith('https:'),
    path: '/',
    expires,
  });
}

/**
 * Whether a request that writes with the session cookie comes from the site itself: `Sec-Fetch-Site: same-origin`,
 * or, from browsers that do not send it, an `Origin` equal to the site's.
 */
export function sameSite(request: FastifyRequest, baseUrl: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  const origin = request.headers.origin;
  return origin !== undefined && origin === new URL(baseUrl).origin;
}
