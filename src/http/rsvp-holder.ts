import type { FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { ServiceError } from '../catalogue/errors.js';
import { attendeeHolder, type Holder, keyHolder } from '../catalogue/holder.js';
import type { AppContext } from '../context.js';
import { bearerToken } from './authenticate.js';
import { bearerCaller } from './bearer-caller.js';
import { sessionHolder } from './session-holder.js';

/**
 * Who an RSVP request is made for, one branch per way of saying it; undefined when the request says nobody.
 * A credential that is sent but not valid is refused, never taken for nobody.
 */
export async function holderOf(ctx: AppContext, request: FastifyRequest, oauth: Provider): Promise<Holder | undefined> {
  const caller = await bearerCaller(ctx, oauth, bearerToken(request));
  // A host key (`Authorization: Bearer tev_…`).
  if (caller.kind === 'key') {
    if (!caller.key) throw new ServiceError('invalid-key');
    return keyHolder(caller.key.id);
  }
  // An attendee's OAuth access token (MCP authorization: scope rsvp), the RSVP API being the MCP tool's too.
  if (caller.kind === 'attendee') {
    if (!caller.attendeeId)
      throw new ServiceError(
        'invalid-key',
        'The bearer token is neither a host key nor a good OAuth access token (unknown, expired or revoked, or not of scope rsvp).',
      );
    return attendeeHolder(caller.attendeeId);
  }
  // An attendee signed in on the pages (the session cookie; writes only from this site's own pages).
  return sessionHolder(ctx, request);
}

/** The holder of an RSVP request, or the 401 that says how to become one. */
export async function requireHolder(ctx: AppContext, request: FastifyRequest, oauth: Provider): Promise<Holder> {
  const holder = await holderOf(ctx, request, oauth);
  if (holder) return holder;
  throw new ServiceError(
    'missing-holder',
    'Say who RSVPs: sign in with a passkey at /me (the pages then send its session cookie), connect with an OAuth ' +
      'token (MCP authorization, scope rsvp), or send a host API key as Authorization: Bearer <key>.',
  );
}
