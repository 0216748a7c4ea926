import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServingContext } from '../../context.js';
import { translator } from '../../i18n/translator.js';
import { HTML_SCRIPT_HEADERS } from '../../render/html/layout.js';
import { renderMePage } from '../../render/html/me-page.js';
import { PASSKEY_SCRIPT_SOURCE } from '../../render/html/passkey-script.js';
import { renderPrivateCalendar } from '../../render/ical.js';
import { privateCalendarUrl, toMeView } from '../../render/me-json.js';
import type { Attendee } from '../../storage/attendees.repository.js';
import {
  createIdentity,
  deleteIdentity,
  ownRsvps,
  passkeyOptions,
  privateCalendar,
  rotateCalendar,
  signIn,
  signInOptions,
} from '../../use-cases/attendees.js';
import { endSession, SESSION_COOKIE, signedInAttendee, startSession } from '../attendee-session.js';
import { attendeeRateLimit } from '../limits.js';
import { declared } from '../route-class.js';
import { refuseCrossSite, requireAttendee } from '../session-holder.js';
import { languageOf, sendHtml } from './pages.js';

/** The writes' answers are never kept by any cache either (the reads are declared `personal`). */
const PRIVATE = 'private, no-store';

/**
 * /assets/passkey.js: @simplewebauthn/browser's own browser bundle (its UMD build, which the package ships beside
 * its modules but does not export) and our script wiring /me's buttons. Its URL names a hash of its bytes, so it
 * may be kept for a year.
 */
function passkeyAsset(): { body: string; path: string } {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  const bundle = readFileSync(join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
  const body = `${bundle}\n${PASSKEY_SCRIPT_SOURCE}`;
  const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, path: `/assets/passkey.js?v=${version}` };
}

/**
 * Where `?return=` may send a person once signed in: a path of this site (an OAuth consent, an event page), never
 * another site's address (`//host`, `/\host`, an absolute URL). Anything else is ignored.
 */
export function sameSitePath(value: unknown, baseUrl: string): string | undefined {
  if (typeof value !== 'string' || value.length > 1000 || !/^\/(?![/\\])/.test(value)) return undefined;
  if (/[\p{Cc}\\]/u.test(value)) return undefined;
  const base = new URL(baseUrl);
  const url = new URL(value, base);
  const path = `${url.pathname}${url.search}`;
  // Dot segments resolve away (`/.//host` is `//host`): what is given back must still be a path, not an address.
  return url.origin === base.origin && !/^\/[/\\]/.test(path) ? path : undefined;
}

async function meView(ctx: ServingContext, attendee: Attendee) {
  return toMeView(ctx.config.baseUrl, attendee, await ownRsvps(ctx, attendee));
}

/** GET /me: the passkey buttons, or the signed-in person's RSVPs, calendar and identity. */
async function mePage(ctx: ServingContext, request: FastifyRequest, reply: FastifyReply, script: string) {
  const language = languageOf(request);
  const t = translator(language.lang);
  const baseUrl = ctx.config.baseUrl;
  const returnTo = sameSitePath((request.query as Record<string, unknown>).return, baseUrl);
  const attendee = await signedInAttendee(ctx, request);
  const signedIn = attendee && {
    handle: attendee.handle,
    calendarUrl: privateCalendarUrl(baseUrl, attendee.calendarToken),
    rsvps: await ownRsvps(ctx, attendee),
  };
  const page = renderMePage({ t, baseUrl, returnTo, signedIn, script });
  return sendHtml(reply, 200, language, page, HTML_SCRIPT_HEADERS);
}

/**
 * The attendees' routes (docs/api.md, Attendees): the page /me, its script, the passkey ceremonies and the session
 * under /api/me, and the private calendar. Writes made with the session cookie must come from this site's pages.
 */
export function registerMeRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const baseUrl = ctx.config.baseUrl;
  const asset = passkeyAsset();

  app.get('/assets/passkey.js', (request, reply) => {
    const current = (request.query as Record<string, unknown>).v === asset.path.split('=')[1];
    return reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .send(asset.body);
  });

  app.get('/me', declared('personal'), (request, reply) => mePage(ctx, request, reply, asset.path));

  app.get('/api/me', declared('personal'), async (request) => {
    return meView(ctx, await requireAttendee(ctx, request));
  });

  app.post('/api/me/passkeys/options', async (_request, reply) => {
    reply.header('Cache-Control', PRIVATE);
    return passkeyOptions(ctx);
  });

  const limit = attendeeRateLimit(ctx.config);
  app.post('/api/me/passkeys', { config: { rateLimit: limit } }, async (request, reply) => {
    const attendee = await createIdentity(ctx, request.body);
    await startSession(ctx, reply, attendee.id);
    return reply
      .status(201)
      .header('Cache-Control', PRIVATE)
      .send(await meView(ctx, attendee));
  });

  app.post('/api/me/session/options', async (_request, reply) => {
    reply.header('Cache-Control', PRIVATE);
    return signInOptions(ctx);
  });

  app.post('/api/me/session', async (request, reply) => {
    const attendee = await signIn(ctx, request.body);
    await startSession(ctx, reply, attendee.id);
    return reply.header('Cache-Control', PRIVATE).send(await meView(ctx, attendee));
  });

  // Signing out is idempotent: without a session there is nothing to end, but a cookie sent from elsewhere is refused.
  app.delete('/api/me/session', async (request, reply) => {
    if (request.headers.cookie?.includes(`${SESSION_COOKIE}=`)) refuseCrossSite(ctx, request);
    await endSession(ctx, request, reply);
    return reply.header('Cache-Control', PRIVATE).send({ signedOut: true });
  });

  app.delete('/api/me', async (request, reply) => {
    const attendee = await requireAttendee(ctx, request);
    const { withdrawn } = await deleteIdentity(ctx, attendee);
    await endSession(ctx, request, reply);
    return reply.header('Cache-Control', PRIVATE).send({ deleted: true, withdrawn });
  });

  app.post('/api/me/calendar', async (request, reply) => {
    const rotated = await rotateCalendar(ctx, await requireAttendee(ctx, request));
    return reply
      .header('Cache-Control', PRIVATE)
      .send({ calendarUrl: privateCalendarUrl(baseUrl, rotated.calendarToken) });
  });

  app.get<{ Params: { file: string } }>('/me/calendar/:file', declared('personal'), async (request, reply) => {
    const token = request.params.file.endsWith('.ics') ? request.params.file.slice(0, -4) : '';
    const { attendee, rsvps } = await privateCalendar(ctx, token);
    const body = renderPrivateCalendar(
      rsvps.map((r) => ({
        event: r.event,
        rsvp: { status: r.status, waitlistPlace: r.waitlistPlace, updatedAt: r.since },
      })),
      { baseUrl, name: `Tech events · ${attendee.handle}`, description: 'Your RSVPs (private: keep this address)' },
    );
    return reply
      .type('text/calendar; charset=utf-8')
      .header('Cache-Control', 'private, max-age=60')
      .header('X-Robots-Tag', 'noindex')
      .header('Referrer-Policy', 'no-referrer')
      .send(body);
  });
}
