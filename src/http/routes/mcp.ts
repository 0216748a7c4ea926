import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { ServingContext } from '../../context.js';
import { anonymousCaller, attendeeCaller, callerAuthInfo, keyCaller, type McpCaller } from '../../mcp/caller.js';
import { MCP_TOOL_NAMES, mcpServers } from '../../mcp/server.js';
import { bearerToken } from '../authenticate.js';
import { bearerCaller } from '../bearer-caller.js';
import { resourceMetadataUrl } from '../oauth/provider.js';
import { declared } from '../route-class.js';

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function jsonRpcError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
): FastifyReply {
  return reply.status(status).type('application/json').send({ jsonrpc: '2.0', id, error: { code, message } });
}

/**
 * Who may talk to /api/mcp from a browser. DNS rebinding makes a victim's browser send a foreign Host (the attacker's
 * name resolving to us) and a foreign Origin; both are refused. Loopback names are always accepted, plus the
 * BASE_URL host and the extra hosts/origins configured (MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS; `*` = any origin).
 */
export function originPolicy(baseUrl: string, env: NodeJS.ProcessEnv = process.env) {
  const base = new URL(baseUrl);
  const listed = (value = '') => value.split(',').flatMap((item) => (item.trim() ? [item.trim()] : []));
  const hosts = new Set([base.host, ...listed(env.MCP_ALLOWED_HOSTS)]);
  const origins = new Set([base.origin, ...listed(env.MCP_ALLOWED_ORIGINS)]);
  const hostOk = (host: string | undefined) => {
    if (!host) return false;
    if (hosts.has(host)) return true;
    const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
    return LOOPBACK_HOSTS.has(name);
  };
  const originOk = (origin: string | undefined) => {
    if (origin === undefined) return true; // not a browser: no rebinding risk
    if (origins.has('*') || origins.has(origin)) return true;
    try {
      return LOOPBACK_HOSTS.has(new URL(origin).hostname) || LOOPBACK_HOSTS.has(`[${new URL(origin).hostname}]`);
    } catch {
      return false;
    }
  };
  return { hostOk, originOk };
}

/**
 * POST /api/mcp — MCP over streamable HTTP (protocol 2025-06-18), stateless: a new server and transport per request,
 * so any app node behind a load balancer can answer. The caller (the bearer key) travels with the request as the
 * transport's auth info. GET and DELETE have no session to serve: 405.
 */
type Refusal = [status: number, code: number, message: string, id?: unknown];

/** Why a request is refused before it reaches the MCP server: status, JSON-RPC code, message and id; else undefined. */
function refusal(
  request: FastifyRequest,
  policy: ReturnType<typeof originPolicy>,
  known: ReadonlySet<string>,
): Refusal | undefined {
  if (!policy.hostOk(request.headers.host)) return [403, -32000, 'Forbidden: this Host is not served here.'];
  if (!policy.originOk(request.headers.origin))
    return [403, -32000, 'Forbidden: cross-origin requests from this Origin are not allowed.'];
  if (request.headers['mcp-session-id'] !== undefined)
    return [404, -32001, 'Session not found: this server is stateless and issues no sessions.'];
  const body = request.body as { method?: unknown; id?: unknown; params?: { name?: unknown } } | undefined;
  // The SDK turns an unknown tool into a tool result; the protocol wants a JSON-RPC error.
  if (body && body.method === 'tools/call' && !known.has(String(body.params?.name))) {
    const names = [...known].join(', ');
    return [200, -32602, `Unknown tool: ${String(body.params?.name)}. Available: ${names}.`, body.id ?? null];
  }
  return undefined;
}

/**
 * Who calls, from the bearer token: none → anonymous (every tool but rsvp works); a host key (`tev_…`) → that key,
 * or a caller whose rsvp says the key is bad; any other token → the attendee of a good OAuth access token, or
 * undefined: the request is refused with 401 and the challenge that tells the client where to get one.
 */
async function callerOf(
  ctx: ServingContext,
  oauth: Provider,
  token: string | undefined,
  anonymous: McpCaller,
): Promise<McpCaller | undefined> {
  const caller = await bearerCaller(ctx, oauth, token);
  if (caller.kind === 'none') return anonymous;
  if (caller.kind === 'key') return keyCaller(caller.key);
  return caller.attendeeId ? attendeeCaller(caller.attendeeId) : undefined;
}

export function registerMcpRoutes(app: FastifyInstance, ctx: ServingContext, oauth: Provider): void {
  const policy = originPolicy(ctx.config.baseUrl);
  const known = new Set<string>(MCP_TOOL_NAMES);
  const metadataUrl = resourceMetadataUrl(ctx.config.baseUrl);
  // RFC 9728 §5.1: where a client learns how to get a token (also on anonymous answers: rsvp needs one).
  const challenge = `Bearer resource_metadata="${metadataUrl}"`;
  const anonymous = anonymousCaller(metadataUrl);
  const buildMcpServer = mcpServers(ctx);

  app.post('/api/mcp', declared('read'), async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = refusal(request, policy, known);
    if (refused) return jsonRpcError(reply, ...refused);
    const token = bearerToken(request);
    const caller = await callerOf(ctx, oauth, token, anonymous);
    if (!caller) {
      const id = (request.body as { id?: unknown } | undefined)?.id ?? null;
      reply.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="unknown, expired or revoked, or not for this resource", resource_metadata="${metadataUrl}"`,
      );
      const message = `Unauthorized: the access token is unknown, expired or revoked, or not for this resource. Get a new one as ${metadataUrl} says (OAuth), or send a host API key.`;
      return jsonRpcError(reply, 401, -32001, message, id);
    }
    if (token === undefined) reply.header('WWW-Authenticate', challenge);

    // A stateless transport serves one request only (the SDK refuses reuse: JSON-RPC ids of clients would collide).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = buildMcpServer();
    // Closing the transport disconnects the server, aborting a handler still running.
    reply.raw.once('close', () => void transport.close());
    await server.connect(transport);
    // The transport writes the raw response itself; carry over the headers set so far (CORS, ETag policy…).
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    const raw = request.raw as typeof request.raw & { auth?: AuthInfo };
    raw.auth = callerAuthInfo(caller, token);
    await transport.handleRequest(raw, reply.raw, request.body);
  });

  const notAllowed = (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('Allow', 'POST')
      .status(405)
      .type('application/json')
      .send({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.',
        },
      });
  app.get('/api/mcp', declared('read'), notAllowed);
  app.delete('/api/mcp', declared('read'), notAllowed);
}
