import type Provider from 'oidc-provider';
import { KEY_PREFIX } from '../auth/api-keys.js';
import type { AppContext } from '../context.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import { authenticate } from '../use-cases/keys.js';
import { attendeeOfAccessToken } from './oauth/tokens.js';

/**
 * Who an `Authorization: Bearer` token says calls, for every route that takes both kinds: no token; a host key
 * (`tev_…`, or an empty token), undefined when unknown or revoked; else an attendee's OAuth access token, undefined
 * when not good for the MCP endpoint. Each route decides what a bad one answers.
 */
export type BearerCaller =
  | { kind: 'none' }
  | { kind: 'key'; key: ApiKeyRecord | undefined }
  | { kind: 'attendee'; attendeeId: string | undefined };

export async function bearerCaller(ctx: AppContext, oauth: Provider, token: string | undefined): Promise<BearerCaller> {
  if (token === undefined) return { kind: 'none' };
  if (token === '' || token.startsWith(KEY_PREFIX))
    return { kind: 'key', key: token ? await authenticate(ctx, token) : undefined };
  return { kind: 'attendee', attendeeId: await attendeeOfAccessToken(ctx, oauth, token) };
}
