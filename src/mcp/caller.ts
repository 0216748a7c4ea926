import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { z } from 'zod';
import type { ApiKeyRecord } from '../storage/keys.repository.js';

/** Who calls: the host key sent as `Authorization: Bearer` on the HTTP request, or why there is none. */
export type McpCaller = { key: ApiKeyRecord; problem?: undefined } | { key: undefined; problem: string };

const NO_KEY =
  'rsvp needs an API key: configure your MCP client to send the HTTP header `Authorization: Bearer <key>` with requests to /api/mcp.';
const BAD_KEY =
  'The API key sent is unknown or revoked. Ask the catalogue operator for a key and send it as the HTTP header `Authorization: Bearer <key>` on requests to /api/mcp.';

/** The caller of a request that sent `token` (undefined: none) and resolved it to `key` (undefined: not valid). */
export function mcpCaller(token: string | undefined, key: ApiKeyRecord | undefined): McpCaller {
  if (key) return { key };
  return { key: undefined, problem: token === undefined ? NO_KEY : BAD_KEY };
}

const ANONYMOUS = mcpCaller(undefined, undefined);

/**
 * The caller as the SDK carries it to a tool handler: the HTTP transport reads `auth` off the request given to
 * `handleRequest` and hands it to the handler as `extra.authInfo`. Servers are pooled and shared by requests in turn,
 * so the caller must travel with the request, never in a closure of the server.
 */
export function callerAuthInfo(caller: McpCaller, token: string | undefined): AuthInfo {
  return { token: token ?? '', clientId: caller.key?.id ?? '', scopes: [], extra: { caller } };
}

export function callerOf(extra: unknown): McpCaller {
  const authInfo = (extra as { authInfo?: AuthInfo } | undefined)?.authInfo;
  return (authInfo?.extra?.caller as McpCaller | undefined) ?? ANONYMOUS;
}

/** What the rsvp tool answers. */
export const registrationOutput = {
  eventId: z.string(),
  eventTitle: z.string(),
  eventUrl: z.string(),
  status: z.enum(['registered', 'waitlisted', 'requested', 'declined', 'withdrawn']),
  waitlistPlace: z.number().int().nullable(),
  changed: z.boolean(),
  registeredAt: z.string(),
  updatedAt: z.string(),
  counts: z.object({ registered: z.number().int(), waitlisted: z.number().int(), requested: z.number().int() }),
};
