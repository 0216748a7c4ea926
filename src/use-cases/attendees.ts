import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import { newAttendeeId, newHandle } from '../auth/attendee-secrets.js';
import { ServiceError } from '../catalogue/errors.js';
import type { CatalogueEvent } from '../catalogue/event.js';
import { attendeeHolder } from '../catalogue/holder.js';
import { parseOrThrow } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import type { Attendee } from '../storage/attendees.repository.js';
import type { RegistrationStatus } from '../storage/registrations.repository.js';
import { withdrawAll } from './rsvp.js';

/**
 * An attendee's identity: a passkey (a discoverable credential, so nobody types a name) and nothing personal. The
 * WebAuthn user name is the random handle hosts see. Ceremonies keep their challenge in the database, taken once, so
 * any node may finish what another began. The session cookie is the HTTP layer's (http/attendee-session.ts).
 */
const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'Tech events';
/**
 * COSE algorithms taken: EdDSA, ES256, RS256 (what authenticators make). Named here, because the library's default
 * probes the runtime for post-quantum ones with an experimental Node API that warns on stderr at every ceremony.
 */
const ALGORITHMS = [-8, -7, -257];

/** The relying party: the site's host name (WebAuthn refuses IP addresses) and its origin. */
function relyingParty(ctx: AppContext) {
  const url = new URL(ctx.config.baseUrl);
  return { id: url.hostname, origin: url.origin };
}

const refused = (why: string) => new ServiceError('passkey-refused', `The passkey was not accepted: ${why}`);

/** A ceremony's response as the library verified it; what it refuses, or does not verify, is `passkey-refused`. */
async function verifiedBy<T extends { verified: boolean }>(verify: () => Promise<T>): Promise<T & { verified: true }> {
  let verified: T;
  try {
    verified = await verify();
  } catch (error) {
    throw refused((error as Error).message);
  }
  if (!verified.verified) throw refused('its signature did not verify.');
  return verified as T & { verified: true };
}

export const ceremonySchema = z.strictObject({
  challengeId: z.string({ error: 'must be the challengeId the options answer gave' }).min(1).max(100),
  response: z.looseObject({
    id: z.string({ error: 'must be the credential id (base64url)' }).min(1).max(1400),
    type: z.literal('public-key', { error: 'must be public-key' }),
    response: z.looseObject({}),
  }),
});

/** What a ceremony's options answer holds: the id of its stored challenge, and what the browser is given. */
export interface CeremonyOptions<T> {
  challengeId: string;
  options: T;
}

/** The options to create a passkey; the attendee's id and handle are drawn now and kept with the challenge. */
export async function passkeyOptions(
  ctx: AppContext,
): Promise<CeremonyOptions<PublicKeyCredentialCreationOptionsJSON>> {
  const rp = relyingParty(ctx);
  const id = newAttendeeId();
  const handle = newHandle();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: handle,
    userDisplayName: handle,
    userID: new TextEncoder().encode(id),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    timeout: CHALLENGE_MS,
    supportedAlgorithmIDs: ALGORITHMS,
  });
  const stored = JSON.stringify({ challenge: options.challenge, id, handle });
  const expires = new Date(ctx.now().getTime() + CHALLENGE_MS);
  return { challengeId: await ctx.attendees.putChallenge('register', stored, expires), options };
}

/** Verifies a new passkey and creates its attendee (201 at the HTTP layer); the caller then opens a session. */
export async function createIdentity(ctx: AppContext, input: unknown): Promise<Attendee> {
  const { challengeId, response } = parseOrThrow(ceremonySchema, input);
  const stored = await ctx.attendees.takeChallenge(challengeId, 'register', ctx.now());
  if (!stored) throw refused('its challenge is unknown, used already, or late. Start again.');
  const drawn = JSON.parse(stored) as { challenge: string; id: string; handle: string };
  const rp = relyingParty(ctx);
  const verified = await verifiedBy(() =>
    verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: drawn.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    }),
  );
  const { credential } = verified.registrationInfo;
  return ctx.storage.db.transaction().execute(async (trx) => {
    const attendees = ctx.attendees.withDb(trx);
    const attendee = await attendees.create({ id: drawn.id, handle: drawn.handle });
    if (!attendee) throw refused('its handle was taken meanwhile (a rare draw). Start again.');
    await attendees.addPasskey({
      id: credential.id,
      attendeeId: attendee.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
    });
    return attendee;
  });
}

/** The options to sign in: no credentials listed, the browser offers the site's discoverable ones. */
export async function signInOptions(ctx: AppContext): Promise<CeremonyOptions<PublicKeyCredentialRequestOptionsJSON>> {
  const rp = relyingParty(ctx);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    timeout: CHALLENGE_MS,
  });
  const expires = new Date(ctx.now().getTime() + CHALLENGE_MS);
  return { challengeId: await ctx.attendees.putChallenge('sign-in', options.challenge, expires), options };
}

/** Verifies a passkey's assertion and answers its attendee; the caller then opens a session. */
export async function signIn(ctx: AppContext, input: unknown): Promise<Attendee> {
  const { challengeId, response } = parseOrThrow(ceremonySchema, input);
  const challenge = await ctx.attendees.takeChallenge(challengeId, 'sign-in', ctx.now());
  if (!challenge) throw refused('its challenge is unknown, used already, or late. Start again.');
  const passkey = await ctx.attendees.findPasskey(response.id);
  if (!passkey) throw refused('this passkey is not known here (or its identity was deleted).');
  const rp = relyingParty(ctx);
  const verified = await verifiedBy(() =>
    verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.id, publicKey: passkey.publicKey as Uint8Array<ArrayBuffer>, counter: passkey.counter },
      requireUserVerification: false,
    }),
  );
  await ctx.attendees.usePasskey(passkey.id, verified.authenticationInfo.newCounter);
  const attendee = await ctx.attendees.find(passkey.attendeeId);
  if (!attendee) throw refused('its identity was deleted.');
  return attendee;
}

/** Deletes an identity: every RSVP withdrawn (promoting the waitlists), then passkeys and sessions gone. */
export async function deleteIdentity(ctx: AppContext, attendee: Attendee): Promise<{ withdrawn: number }> {
  const withdrawn = await withdrawAll(ctx, attendeeHolder(attendee.id));
  await ctx.attendees.markDeleted(attendee.id);
  return { withdrawn };
}

/** A new private calendar address; the old one answers 404 from now on. */
export async function rotateCalendar(ctx: AppContext, attendee: Attendee): Promise<Attendee> {
  const rotated = await ctx.attendees.rotateCalendarToken(attendee.id);
  if (!rotated) throw new ServiceError('not-signed-in', 'This identity was deleted.');
  return rotated;
}

/** One RSVP as its attendee sees it. */
export interface OwnRsvp {
  event: CatalogueEvent;
  status: Exclude<RegistrationStatus, 'withdrawn'>;
  waitlistPlace: number | null;
  since: Date;
}

/** The attendee's RSVPs but withdrawn ones, soonest event first. */
export async function ownRsvps(ctx: AppContext, attendee: Attendee): Promise<OwnRsvp[]> {
  const registrations = await ctx.registrations.ofHolder(attendeeHolder(attendee.id));
  const ids = registrations.flatMap((r) => (r.status === 'withdrawn' ? [] : [r.eventId]));
  const events = new Map((await ctx.events.findManyByIds(ids)).map((e) => [e.id, e]));
  const out: OwnRsvp[] = [];
  for (const r of registrations) {
    const event = events.get(r.eventId);
    if (!event || r.status === 'withdrawn') continue;
    const waitlistPlace =
      r.status === 'waitlisted' ? await ctx.registrations.waitlistPlace(r.eventId, r.queuePosition) : null;
    out.push({ event, status: r.status, waitlistPlace, since: r.updatedAt });
  }
  return out.sort((a, b) => a.event.start.getTime() - b.event.start.getTime());
}

/** The private calendar behind a token: registered, waitlisted and requested events (declined ones left out). */
export async function privateCalendar(
  ctx: AppContext,
  token: string,
): Promise<{ attendee: Attendee; rsvps: (OwnRsvp & { status: 'registered' | 'waitlisted' | 'requested' })[] }> {
  const attendee = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await ctx.attendees.findByCalendarToken(token) : undefined;
  if (!attendee) throw new ServiceError('not-found', 'No private calendar at this address (it may have been renewed).');
  const rsvps = (await ownRsvps(ctx, attendee)).filter(
    (r): r is OwnRsvp & { status: 'registered' | 'waitlisted' | 'requested' } => r.status !== 'declined',
  );
  return { attendee, rsvps };
}
