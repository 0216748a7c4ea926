import { generateKeyPairSync } from 'node:crypto';
import Provider, { type Adapter, type AdapterPayload, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppContext } from '../../context.js';
import { html } from '../../render/html/template.js';
import { OAuthModelsRepository } from '../../storage/oauth.repository.js';
import { sharedSecret, sharedSetting } from '../../storage/settings.repository.js';

/** Where the authorization server lives: its issuer is BASE_URL + this path, its endpoints below it. */
export const OAUTH_PATH = '/oauth';
/** The one scope: RSVPs made by the MCP tool in the person's name. */
export const MCP_SCOPE = 'rsvp';
/** The protected resource (RFC 8707 / RFC 9728): the MCP endpoint. */
export const mcpResource = (baseUrl: string) => `${baseUrl}/api/mcp`;
/** Where a client reads the resource's metadata (RFC 9728 §3.1: the resource's path after the well-known name). */
export const resourceMetadataUrl = (baseUrl: string) => `${baseUrl}/.well-known/oauth-protected-resource/api/mcp`;

const HOUR = 3600;
const DAY = 24 * HOUR;

/** oidc-provider's storage: its models as rows of `oauth_models`, so every app node reads what another wrote. */
function adapterOn(models: OAuthModelsRepository) {
  return (model: string): Adapter => ({
    upsert: async (id, payload, expiresIn) => {
      await models.upsert(model, id, payload as Record<string, unknown>, expiresIn);
      // An authorization begins with a new interaction: the moment to clear rows expired a day or more ago.
      if (model === 'Interaction' && !payload.result) await models.deleteExpired(new Date(Date.now() - DAY * 1000));
    },
    find: (id) => models.find(model, id) as Promise<AdapterPayload | undefined>,
    findByUid: (uid) => models.findByUid(model, uid) as Promise<AdapterPayload | undefined>,
    findByUserCode: (code) => models.findByUserCode(model, code) as Promise<AdapterPayload | undefined>,
    consume: (id) => models.consume(model, id),
    destroy: (id) => models.destroy(model, id),
    revokeByGrantId: (grantId) => models.revokeByGrantId(grantId),
  });
}

/**
 * The signing key and the cookie key, made once and shared by all nodes. ES256: nothing here is signed for others
 * to check (tokens are opaque, no ID tokens), and an EC key is made in a millisecond where RSA takes a blocking 80.
 */
async function sharedKeys(ctx: AppContext) {
  const jwk = await sharedSetting(ctx.storage, 'oauth-signing-jwk', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return JSON.stringify({ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256' });
  });
  const cookieKey = (await sharedSecret(ctx.storage, 'oauth-cookie-key')).toString('base64url');
  return { jwk: JSON.parse(jwk), cookieKey };
}

/** The library's error page, without its web fonts and inline styles: what went wrong, in its own words. */
async function renderError(koa: KoaContextWithOIDC, out: { error: string; error_description?: string }) {
  koa.type = 'html';
  koa.body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OAuth: ${out.error}</title></head>
<body><h1>${out.error}</h1><p>${out.error_description ?? ''}</p></body></html>`.value;
}

/**
 * The OAuth 2.1 authorization server of the MCP endpoint (oidc-provider, a Koa app mounted under /oauth): public
 * clients registering themselves (RFC 7591, no secret), the authorization code flow with PKCE S256 only, access tokens
 * for one resource (BASE_URL/api/mcp, scope `rsvp`; opaque, looked up in the database) and refresh tokens. The
 * person is an attendee signed in with a passkey; every authorization asks them (routes/oauth-consent.ts).
 */
export async function createOAuthProvider(ctx: AppContext): Promise<Provider> {
  const { baseUrl } = ctx.config;
  const resource = mcpResource(baseUrl);
  const { jwk, cookieKey } = await sharedKeys(ctx);
  const provider = new Provider(`${baseUrl}${OAUTH_PATH}`, {
    adapter: adapterOn(new OAuthModelsRepository(ctx.storage.db)),
    jwks: { keys: [jwk] },
    cookies: {
      keys: [cookieKey],
      names: { session: 'tev_oauth_session', interaction: 'tev_oauth_interaction', resume: 'tev_oauth_resume' },
      // The provider's own session is read under /oauth only: the site's pages never get its cookie.
      long: { httpOnly: true, sameSite: 'lax', path: OAUTH_PATH },
    },
    scopes: [MCP_SCOPE],
    responseTypes: ['code'],
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      // `/me` is the attendee's own page; nothing here needs OpenID's userinfo.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_koa, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return { scope: MCP_SCOPE, audience: resource, accessTokenTTL: HOUR, accessTokenFormat: 'opaque' };
        },
      },
    },
    interactions: { url: (_koa, interaction) => `${OAUTH_PATH}/interaction/${interaction.uid}` },
    findAccount: async (_koa, sub) => {
      const attendee = await ctx.attendees.find(sub);
      return attendee && { accountId: attendee.id, claims: () => ({ sub: attendee.id }) };
    },
    // Each authorization is asked of the person on the consent page, where their passkey session is checked: the
    // grant is only the one their answer just made, never one remembered from an earlier authorization.
    loadExistingGrant: async (koa) => {
      const grantId = koa.oidc.result?.consent?.grantId;
      return grantId ? koa.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_koa, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // Public clients call the token endpoint from wherever they run; no cookie is involved there.
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: 60,
      Interaction: HOUR,
      Session: DAY,
      Grant: 30 * DAY,
      RefreshToken: 30 * DAY,
      IdToken: HOUR,
    },
    discovery: { service_documentation: `${baseUrl}/docs` },
    renderError,
  });
  // Its URLs are BASE_URL's whatever Host the request named: the mount sets the forwarded headers from BASE_URL.
  provider.proxy = true;
  return provider;
}
