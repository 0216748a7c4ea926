import type Provider from 'oidc-provider';
import type { AppContext } from '../../context.js';
import { MCP_SCOPE, mcpResource } from './provider.js';

/**
 * The attendee an OAuth access token was issued to, when it is good for the MCP endpoint now: issued here, not
 * expired or revoked, for the resource BASE_URL/api/mcp, with scope `rsvp`, sent as a plain bearer token (a token
 * bound to a DPoP key or certificate needs its proof, which this endpoint does not take), its attendee not deleted.
 */
export async function attendeeOfAccessToken(
  ctx: AppContext,
  provider: Provider,
  token: string,
): Promise<string | undefined> {
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken || accessToken.isExpired || accessToken.isSenderConstrained()) return undefined;
  const audience = accessToken.aud;
  const resource = mcpResource(ctx.config.baseUrl);
  if (Array.isArray(audience) ? !audience.includes(resource) : audience !== resource) return undefined;
  if (!accessToken.scopes.has(MCP_SCOPE) || !accessToken.accountId) return undefined;
  return (await ctx.attendees.find(accessToken.accountId))?.id;
}
