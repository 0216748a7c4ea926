import { body, json, problem, ref } from './openapi-common.js';

/** A JSON-RPC 2.0 message as the MCP endpoint answers it: a result, or an error object (its refusals too). */
const JSON_RPC = {
  type: 'object',
  required: ['jsonrpc', 'id'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
    },
  },
};
const rpc = (description: string) => json(description, JSON_RPC);

const noStream = (summary: string) => ({
  summary,
  responses: { 405: { ...rpc('Method not allowed (`Allow: POST`), as a JSON-RPC error -32000'), headers: ALLOW } },
});
const ALLOW = { Allow: { description: 'POST', schema: { type: 'string' } } };

/** /api/mcp: what its protocol answers (JSON-RPC) and what the HTTP layer answers before it (problem+json). */
export const mcpPaths = {
  '/api/mcp': {
    post: {
      summary: 'MCP server (streamable HTTP, protocol 2025-06-18, stateless)',
      description:
        'Tools: search_events, find_events, best_next_event, get_event, subscribe_calendar, rsvp (needs a caller). ' +
        'Keyless; a caller is read for `rsvp` only: a host key (`tev_…`), or an OAuth access token of an attendee ' +
        '(resource `/api/mcp`, scope `rsvp`; see /.well-known/oauth-protected-resource/api/mcp). ' +
        'Answers are JSON (never an SSE stream).',
      security: [{}, { bearerAuth: [] }],
      requestBody: body({
        description: 'A JSON-RPC 2.0 request or notification, or a batch of them',
        oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }],
      }),
      responses: {
        200: rpc('The JSON-RPC response (an unknown tool: error -32602)'),
        202: { description: 'Notifications only: accepted, no body' },
        400: {
          description: 'Not a JSON-RPC message (JSON-RPC error -32700 or -32600), or malformed JSON (problem)',
          content: {
            'application/json': { schema: JSON_RPC },
            'application/problem+json': { schema: ref('Problem') },
          },
        },
        401: {
          ...rpc('A bearer token that is neither a host key nor a good access token for this resource'),
          headers: {
            'WWW-Authenticate': {
              description:
                'Bearer error="invalid_token", …, resource_metadata="<BASE_URL>/.well-known/oauth-protected-resource/api/mcp"',
              schema: { type: 'string' },
            },
          },
        },
        403: rpc('Foreign Host or Origin (DNS rebinding)'),
        404: rpc('A conversation id (Mcp-Session-Id): this server issues none'),
        406: rpc('Accept names neither application/json nor text/event-stream'),
        413: problem('Body over 64 KiB'),
        415: {
          description: 'Not application/json',
          content: {
            'application/json': { schema: JSON_RPC },
            'application/problem+json': { schema: ref('Problem') },
          },
        },
        429: problem('Over the per-client read limit; see Retry-After'),
      },
    },
    get: noStream('GET: no SSE stream to open (streamable HTTP lets a server that offers none answer 405)'),
    delete: noStream('DELETE: no conversation to end (the server is stateless)'),
  },
};

/** RFC 9728 protected-resource metadata, as /.well-known/oauth-protected-resource answers it. */
const RESOURCE_METADATA = {
  type: 'object',
  required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
  properties: {
    resource: { type: 'string', format: 'uri' },
    authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' } },
    scopes_supported: { type: 'array', items: { type: 'string' } },
    bearer_methods_supported: { type: 'array', items: { const: 'header' } },
    resource_name: { type: 'string' },
    resource_documentation: { type: 'string', format: 'uri' },
  },
};
const resourceMetadata = (summary: string) => ({
  get: {
    summary,
    responses: { 200: json('RFC 9728 metadata', RESOURCE_METADATA) },
  },
});

/** Where MCP clients learn how to authorize (RFC 9728, RFC 8414): the OAuth endpoints themselves are under /oauth. */
export const oauthMetadataPaths = {
  '/.well-known/oauth-protected-resource/api/mcp': resourceMetadata(
    'The MCP endpoint as an OAuth protected resource: its authorization server, scope and how to send a token',
  ),
  '/.well-known/oauth-protected-resource': resourceMetadata(
    'The same metadata at the root (clients that ask there first)',
  ),
  '/.well-known/oauth-authorization-server/oauth': {
    get: {
      summary:
        'RFC 8414 metadata of the authorization server (issuer BASE_URL/oauth): endpoints, PKCE S256, registration',
      responses: {
        200: json('Authorization server metadata', {
          type: 'object',
          required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint'],
          properties: {
            issuer: { type: 'string', format: 'uri' },
            authorization_endpoint: { type: 'string', format: 'uri' },
            token_endpoint: { type: 'string', format: 'uri' },
            registration_endpoint: { type: 'string', format: 'uri' },
            code_challenge_methods_supported: { type: 'array', items: { const: 'S256' } },
            scopes_supported: { type: 'array', items: { type: 'string' } },
          },
        }),
      },
    },
  },
};
