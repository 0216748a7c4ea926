const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

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
const rpc = (description: string) => ({ description, content: { 'application/json': { schema: JSON_RPC } } });

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
        'Tools: search_events, find_events, best_next_event, get_event, subscribe_calendar, rsvp (needs a key). ' +
        'Keyless; a key is read for `rsvp` only. Answers are JSON (never an SSE stream).',
      security: [{}, { bearerAuth: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              description: 'A JSON-RPC 2.0 request or notification, or a batch of them',
              oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }],
            },
          },
        },
      },
      responses: {
        200: rpc('The JSON-RPC response (an unknown tool: error -32602)'),
        202: { description: 'Notifications only: accepted, no body' },
        400: {
          description: 'Not a JSON-RPC message (JSON-RPC error -32700 or -32600), or malformed JSON (problem)',
          content: {
            'application/json': { schema: JSON_RPC },
            'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
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
            'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
          },
        },
        429: problem('Over the per-client read limit; see Retry-After'),
      },
    },
    get: noStream('GET: no SSE stream to open (streamable HTTP lets a server that offers none answer 405)'),
    delete: noStream('DELETE: no conversation to end (the server is stateless)'),
  },
};
