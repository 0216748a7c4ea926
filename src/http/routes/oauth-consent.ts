import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { ServiceError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import type { Language } from '../../i18n/languages.js';
import { translator } from '../../i18n/translator.js';
import { renderConsentGonePage, renderConsentPage } from '../../render/html/consent-page.js';
import { HTML_SECURITY_HEADERS } from '../../render/html/layout.js';
import { sameSite, signedInAttendee } from '../attendee-session.js';
import { acceptFormBodies } from '../form-body.js';
import { MCP_SCOPE, mcpResource, OAUTH_PATH } from '../oauth/provider.js';
import { declared } from '../route-class.js';
import { languageOf } from './pages.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

/** The open interaction of this browser (its cookie) if it is the one the URL names. */
async function openInteraction(provider: Provider, request: UidRequest, reply: FastifyReply) {
  try {
    const interaction = await provider.interactionDetails(request.raw, reply.raw);
    return interaction.uid === request.params.uid ? interaction : undefined;
  } catch (error) {
    if (error instanceof errors.SessionNotFound) return undefined;
    throw error;
  }
}

/** Where the answer sends the browser: the redirect URI's origin, or its scheme for an app's own (`cursor:`). */
function destinationOf(interaction: Interaction): string {
  const uri = URL.parse(String(interaction.params.redirect_uri ?? ''));
  if (!uri) return "'none'";
  return uri.protocol === 'http:' || uri.protocol === 'https:' ? uri.origin : uri.protocol;
}

/** A page of this flow: never cached; its forms may end at the client's redirect URI (CSP form-action follows it). */
function sendPage(
  reply: FastifyReply,
  status: number,
  language: { lang: Language },
  body: string,
  destination?: string,
) {
  const csp = HTML_SECURITY_HEADERS['Content-Security-Policy']!.replace(
    "form-action 'self'",
    `form-action 'self'${destination ? ` ${destination}` : ''}`,
  );
  return reply
    .status(status)
    .headers({ ...HTML_SECURITY_HEADERS, 'Content-Security-Policy': csp })
    .header('Cache-Control', 'no-store')
    .header('Content-Language', language.lang)
    .type('text/html; charset=utf-8')
    .send(body);
}

function gone(ctx: ServingContext, request: UidRequest, reply: FastifyReply) {
  const language = languageOf(request);
  const t = translator(language.lang);
  const path = `${OAUTH_PATH}/interaction/${request.params.uid}`;
  return sendPage(reply, 404, language, renderConsentGonePage({ t, baseUrl: ctx.config.baseUrl, path }));
}

/** Signed out: to /me, which brings the person back here once signed in with a passkey. */
function toSignIn(request: UidRequest, reply: FastifyReply) {
  const back = `${OAUTH_PATH}/interaction/${encodeURIComponent(request.params.uid)}`;
  const language = languageOf(request);
  const lang = language.explicit ? `&hl=${language.lang}` : '';
  return reply.header('Cache-Control', 'no-store').redirect(`/me?return=${encodeURIComponent(back)}${lang}`, 303);
}

async function consentPage(ctx: ServingContext, provider: Provider, request: UidRequest, reply: FastifyReply) {
  const interaction = await openInteraction(provider, request, reply);
  if (!interaction) return gone(ctx, request, reply);
  const attendee = await signedInAttendee(ctx, request);
  if (!attendee) return toSignIn(request, reply);
  const client = await provider.Client.find(String(interaction.params.client_id));
  if (!client) return gone(ctx, request, reply);
  const language = languageOf(request);
  const page = renderConsentPage({
    t: translator(language.lang),
    baseUrl: ctx.config.baseUrl,
    uid: interaction.uid,
    client: client.clientName ?? client.clientId,
    returnTo: destinationOf(interaction),
    handle: attendee.handle,
  });
  return sendPage(reply, 200, language, page, destinationOf(interaction));
}

/**
 * The person's answer. Allow: a grant of scope `rsvp` for the MCP resource to this client, in the attendee's name
 * (the authorization's account is the attendee's id). Deny: `access_denied` back to the client.
 */
async function decide(ctx: ServingContext, provider: Provider, request: UidRequest, reply: FastifyReply) {
  if (!sameSite(request, ctx.config.baseUrl)) throw new ServiceError('cross-site');
  const interaction = await openInteraction(provider, request, reply);
  if (!interaction) return gone(ctx, request, reply);
  const attendee = await signedInAttendee(ctx, request);
  if (!attendee) return toSignIn(request, reply);
  const decision = (request.body as Record<string, string> | undefined)?.decision;
  let result: Parameters<Provider['interactionFinished']>[2];
  if (decision === 'allow') {
    const clientId = String(interaction.params.client_id);
    const grant = new provider.Grant({ accountId: attendee.id, clientId });
    const asked = String(interaction.params.scope ?? '').split(' ');
    // Only the one scope this server knows is granted, whatever else was asked.
    if (asked.includes(MCP_SCOPE)) {
      grant.addOIDCScope(MCP_SCOPE);
      grant.addResourceScope(mcpResource(ctx.config.baseUrl), MCP_SCOPE);
    }
    result = { login: { accountId: attendee.id }, consent: { grantId: await grant.save() } };
  } else {
    result = { error: 'access_denied', error_description: 'The person did not allow this client.' };
  }
  reply.hijack();
  await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
}

/** `/oauth/interaction/<uid>`: the consent page of an authorization and its two forms (Allow, Deny). */
export function registerConsentRoutes(app: FastifyInstance, ctx: ServingContext, provider: Provider): void {
  app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.get<{ Params: { uid: string } }>(`${OAUTH_PATH}/interaction/:uid`, declared('personal'), (request, reply) =>
      consentPage(ctx, provider, request, reply),
    );
    scope.post<{ Params: { uid: string } }>(`${OAUTH_PATH}/interaction/:uid`, (request, reply) =>
      decide(ctx, provider, request, reply),
    );
  });
}
