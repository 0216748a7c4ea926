import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { z } from 'zod';
import { attendeeHolder, type Holder, keyHolder } from '../catalogue/holder.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';

/**
 * Who calls: the holder of the RSVPs the request makes — a host key sent as `Authorization: Bearer tev_…`, or an
 * attendee whose OAuth access token was sent instead — or why there is none, in words that say how to connect.
 */
export type McpCaller =
  | { holder: Holder; key?: ApiKeyRecord; problem?: undefined }
  | { holder: undefined; key?: undefined; problem: string };

const howToConnect = (metadataUrl: string) =>
  `Connect your MCP client with OAuth (it finds the authorization server in ${metadataUrl}; you sign in with a passkey and allow it), or send a host API key as the HTTP header \`Authorization: Bearer <key>\` with requests to /api/mcp.`;

/** The caller of a request that sent no token (`metadataUrl`: where OAuth clients learn how to get one). */
export const anonymousCaller = (metadataUrl: string): McpCaller => ({
  holder: undefined,
  problem: `rsvp needs an API key or an OAuth access token. ${howToConnect(metadataUrl)}`,
});

/** The caller of a request that sent a host key and resolved it to `key` (undefined: unknown or revoked). */
export const keyCaller = (key: ApiKeyRecord | undefined): McpCaller =>
  key ? { holder: keyHolder(key.id), key } : { holder: undefined, problem: BAD_KEY };

/** The caller of a request whose OAuth access token names this attendee. */
export const attendeeCaller = (attendeeId: string): McpCaller => ({ holder: attendeeHolder(attendeeId) });

const BAD_KEY =
  'The API key sent is unknown or revoked. Ask the catalogue operator for a key and send it as the HTTP header `Authorization: Bearer <key>` on requests to /api/mcp.';

// Only for a request the route did not mark (it always does): the metadata's path, as the route's answer names it.
const ANONYMOUS = anonymousCaller('/.well-known/oauth-protected-resource/api/mcp');

/**
 * The caller as the SDK carries it to a tool handler: the HTTP transport reads `auth` off the request given to
 * `handleRequest` and hands it to the handler as `extra.authInfo`. Servers are pooled and shared by requests in turn,
 * so the caller must travel with the request, never in a closure of the server.
 */
export function callerAuthInfo(caller: McpCaller, token: string | undefined): AuthInfo {
  const clientId = caller.holder?.kind === 'attendee' ? caller.holder.attendeeId : (caller.key?.id ?? '');
  return { token: token ?? '', clientId, scopes: [], extra: { caller } };
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
