import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { ServingContext } from '../../context.js';
import { clientRegistrationRateLimit } from '../limits.js';
import { MCP_SCOPE, mcpResource, OAUTH_PATH } from '../oauth/provider.js';
import { registerConsentRoutes } from './oauth-consent.js';

/** RFC 9728 metadata of the MCP endpoint: what it is, who issues its tokens, the scope, how to send a token. */
export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: mcpResource(baseUrl),
    authorization_servers: [`${baseUrl}${OAUTH_PATH}`],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Tech events MCP server',
    resource_documentation: `${baseUrl}/docs`,
  };
}

/** On the provider's answers too: not framed, not sniffed, no referrer (its redirects carry codes). */
const PROVIDER_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Hands a request to the provider (a Koa app) as it arrived: Fastify's reply is given up, the provider writes the
 * raw response (its own Cache-Control, CORS and errors). The provider sees the path below /oauth (`url`) and the full
 * one (`originalUrl`, from which it learns its mount), and BASE_URL's scheme and host as the forwarded ones, so
 * every URL it makes is BASE_URL's whatever proxy stood in front.
 */
function handOver(
  handler: (req: IncomingMessage, res: FastifyReply['raw']) => unknown,
  base: URL,
  request: FastifyRequest,
  reply: FastifyReply,
  path: { inner: string; full: string },
) {
  // Headers set so far (CORS) go on, with those every answer of ours has; the provider may set its own over them.
  for (const [name, value] of Object.entries({ ...reply.getHeaders(), ...PROVIDER_HEADERS }))
    if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
  const raw = request.raw as IncomingMessage & { originalUrl?: string };
  raw.originalUrl = path.full;
  raw.url = path.inner;
  raw.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
  raw.headers['x-forwarded-host'] = base.host;
  handler(raw, reply.raw);
}

/**
 * The authorization server's routes: everything under /oauth is oidc-provider's (discovery, registration,
 * authorization, token, revocation, keys) except the consent page (oauth-consent.ts); RFC 8414 metadata at the
 * well-known path for an issuer with a path; RFC 9728 metadata of the MCP endpoint.
 */
export function registerOAuthRoutes(app: FastifyInstance, ctx: ServingContext, provider: Provider): void {
  const base = new URL(ctx.config.baseUrl);
  const handler = provider.callback();
  const metadata = protectedResourceMetadata(ctx.config.baseUrl);

  app.register(async (scope) => {
    // The provider reads its bodies itself (forms and JSON): nothing here parses or refuses them first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const toProvider = (request: FastifyRequest, reply: FastifyReply) => {
      const full = request.raw.url ?? '/';
      handOver(handler, base, request, reply, { inner: full.slice(OAUTH_PATH.length) || '/', full });
    };
    scope.all(`${OAUTH_PATH}/*`, toProvider);
    // Each registration is a client kept for good: limited per address and hour.
    const rateLimit = clientRegistrationRateLimit(ctx.config);
    scope.post(`${OAUTH_PATH}/reg`, { config: { rateLimit } }, toProvider);
    // RFC 8414 §3.1: the well-known name goes between the host and the issuer's path.
    scope.get(`/.well-known/oauth-authorization-server${OAUTH_PATH}`, (request, reply) => {
      const inner = '/.well-known/oauth-authorization-server';
      handOver(handler, base, request, reply, { inner, full: `${OAUTH_PATH}${inner}` });
    });
  });
  registerConsentRoutes(app, ctx, provider);

  const sendMetadata = (_request: FastifyRequest, reply: FastifyReply) => reply.send(metadata);
  app.get('/.well-known/oauth-protected-resource', sendMetadata);
  app.get('/.well-known/oauth-protected-resource/api/mcp', sendMetadata);
}
