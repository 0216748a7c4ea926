import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendeeHolder } from '../src/catalogue/holder.js';
import { createOAuthProvider } from '../src/http/oauth/provider.js';
import { OAuthModelsRepository } from '../src/storage/oauth.repository.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { CookieJar, step, TestOAuthClient } from './helpers/oauth-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Where no client listens: the flow is followed by hand, reading each redirect's Location. */
const REDIRECT = 'http://127.0.0.1:9/callback';

const rsvpCall = (id: string) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'rsvp', arguments: { id } },
});

/**
 * MCP authorization through real HTTP on each engine, the browser's part followed by hand (cookies, forms,
 * redirects): the SDK client's `auth()` discovers, registers and sends the person to the consent page; an
 * attendee signed in (a session made directly) allows it; the code becomes a token the MCP endpoint takes as
 * that attendee. The passkey sign-in itself is the Chromium story (mcp-oauth.test.ts).
 */
describe.each(ENGINES)('MCP authorization by OAuth on %s', (engine) => {
  let server: TestServer;
  let mcpUrl: URL;
  let eventId: string;
  let hostKey: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { env: { RATE_LIMIT_OAUTH_CLIENTS_PER_HOUR: '12' } });
    mcpUrl = new URL(`${server.base}/api/mcp`);
    hostKey = await server.createKey('OAuth Host', 'ch');
    const res = await request(`${server.base}/api/events`, {
      key: hostKey,
      json: { externalId: 'oauth-1', title: 'OAuth Evening', startAt: '2027-03-10T18:30:00+01:00', city: 'Zürich' },
    });
    expect(res.status, res.text).toBe(201);
    eventId = res.body.id;
  });
  afterAll(() => server?.close());

  /** A signed-in attendee's browser: the session cookie as /me would set it. */
  async function signedIn() {
    const { attendees } = server.service.ctx;
    const attendee = await attendees.create();
    const session = await attendees.createSession(attendee.id, new Date(Date.now() + 3_600_000));
    return { attendee, jar: new CookieJar({ tev_session: session }) };
  }

  /** From the authorization URL to the consent page's answer; returns where the answer redirects at last. */
  async function consent(jar: CookieJar, authorizationUrl: URL, decision: 'allow' | 'deny') {
    const start = await step(jar, authorizationUrl.href);
    expect(start.status, start.text).toBe(303);
    const page = new URL(start.location!, server.base);
    expect(page.pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const shown = await step(jar, page.href);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.text).toContain('Test MCP client');
    expect(shown.res.headers.get('cache-control')).toBe('no-store');
    expect(shown.res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");
    const answered = await step(jar, page.href, { form: { decision }, headers: { origin: server.base } });
    expect(answered.status, answered.text).toBe(303);
    const resumed = await step(jar, new URL(answered.location!, server.base).href);
    expect(resumed.status, resumed.text).toBe(303);
    // The provider's session (of a sign-in it was told of) keeps its cookie under /oauth.
    const sessionCookies = resumed.res.headers.getSetCookie().filter((c) => c.startsWith('tev_oauth_session='));
    if (decision === 'allow') expect(sessionCookies.length).toBeGreaterThan(0);
    for (const line of sessionCookies) expect(line).toMatch(/; path=\/oauth;/i);
    return new URL(resumed.location!);
  }

  it('publishes RFC 9728 metadata of /api/mcp and RFC 8414 metadata of its issuer', async () => {
    const expected = {
      resource: `${server.base}/api/mcp`,
      authorization_servers: [`${server.base}/oauth`],
      scopes_supported: ['rsvp'],
      bearer_methods_supported: ['header'],
    };
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await request(`${server.base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toMatchObject(expected);
    }
    const as = await request(`${server.base}/.well-known/oauth-authorization-server/oauth`);
    expect(as.status, as.text).toBe(200);
    expect(as.body).toMatchObject({
      issuer: `${server.base}/oauth`,
      authorization_endpoint: `${server.base}/oauth/auth`,
      token_endpoint: `${server.base}/oauth/token`,
      registration_endpoint: `${server.base}/oauth/reg`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    expect(as.body.scopes_supported).toContain('rsvp');
    expect(as.body.userinfo_endpoint).toBeUndefined();
    // The keys published are public halves only.
    const jwks = await request(as.body.jwks_uri);
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
  });

  it('keeps anonymous tools working; rsvp without a caller says how to connect; the answer points at the metadata', async () => {
    const res = await request(mcpUrl.href, {
      json: rsvpCall(eventId),
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.base}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    expect(res.body.result.isError).toBe(true);
    const text = res.body.result.content[0].text as string;
    expect(text).toMatch(/OAuth/);
    expect(text).toContain(`${server.base}/.well-known/oauth-protected-resource/api/mcp`);
    expect(text).toMatch(/Authorization: Bearer <key>/);
    const anonymous = await connectMcp(server.base);
    const search = await anonymous.callTool({ name: 'search_events', arguments: { q: 'OAuth Evening' } });
    expect(search.isError).toBeFalsy();
    await anonymous.close();
  });

  it('refuses a token it did not issue with 401 and the challenge naming the metadata', async () => {
    for (const token of ['not-a-token', 'x'.repeat(43)]) {
      const res = await request(mcpUrl.href, {
        key: token,
        json: rsvpCall(eventId),
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status, res.text).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(
        new RegExp(
          `^Bearer error="invalid_token", .*resource_metadata="${server.base}/.well-known/oauth-protected-resource/api/mcp"$`,
        ),
      );
      expect(res.body.error.message).toMatch(/access token/);
    }
  });

  it('discovery, registration and PKCE by the SDK; consent; the token RSVPs as the attendee, refreshed too', async () => {
    const client = new TestOAuthClient(REDIRECT);
    expect(await auth(client, { serverUrl: mcpUrl })).toBe('REDIRECT');
    expect(client.information?.client_id).toBeTruthy();
    const url = client.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${server.base}/oauth/auth`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${server.base}/api/mcp`);
    expect(url.searchParams.get('scope')).toBe('rsvp');

    const { attendee, jar } = await signedIn();
    const back = await consent(jar, url, 'allow');
    expect(back.origin + back.pathname).toBe(REDIRECT);
    const code = back.searchParams.get('code');
    expect(code, back.href).toBeTruthy();
    expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: code! })).toBe('AUTHORIZED');
    expect(client.saved?.access_token).toBeTruthy();
    expect(client.saved?.refresh_token).toBeTruthy();

    const mcp = new Client({ name: 'oauth-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: client }));
    const answer = await mcp.callTool({ name: 'rsvp', arguments: { id: eventId } });
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ eventId, status: 'registered', changed: true });
    await mcp.close();
    const held = await server.service.ctx.registrations.ofHolder(attendeeHolder(attendee.id));
    expect(held.map((r) => [r.eventId, r.status])).toEqual([[eventId, 'registered']]);

    // The code is good once; a refresh gives a new access token that works as well.
    const first = client.saved!.access_token;
    expect(await auth(client, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect(client.saved!.access_token).not.toBe(first);
    const again = await request(mcpUrl.href, {
      key: client.saved!.access_token,
      json: rsvpCall(eventId),
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.result.structuredContent).toMatchObject({ status: 'registered', changed: false });
    // The RSVP API takes the same token for the same person: their own state, as the tool left it.
    const own = await request(`${server.base}/api/events/${eventId}/rsvp`, { key: client.saved!.access_token });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ eventId, status: 'registered' });
    const stranger = await request(`${server.base}/api/events/${eventId}/rsvp`, { key: 'not-a-token' });
    expect(stranger.status).toBe(401);
    expect(stranger.body.code).toBe('invalid-key');
    // A client whose access token went bad reads the 401's challenge and refreshes by itself (the SDK's transport).
    client.saved = { ...client.saved!, access_token: 'gone-bad' };
    const recovered = new Client({ name: 'oauth-test', version: '1.0.0' });
    await recovered.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: client }));
    expect(client.saved.access_token).not.toBe('gone-bad');
    const withdrawn = await recovered.callTool({ name: 'rsvp', arguments: { id: eventId, action: 'withdraw' } });
    expect(withdrawn.structuredContent).toMatchObject({ status: 'withdrawn', changed: true });
    await recovered.close();
    // A deleted identity's token is refused.
    await server.service.ctx.attendees.markDeleted(attendee.id);
    const gone = await request(mcpUrl.href, { key: client.saved!.access_token, json: rsvpCall(eventId) });
    expect(gone.status).toBe(401);
  });

  it('clears expired rows as authorizations begin; an interaction of no cookie is a page saying so', async () => {
    const { db } = server.service.ctx.storage;
    const models = new OAuthModelsRepository(db);
    await models.upsert('AccessToken', 'long-expired', { jti: 'long-expired' }, -2 * 86_400);
    const count = async () =>
      Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM oauth_models WHERE id = 'long-expired'`.execute(db))
          .rows[0]!.n,
      );
    expect(await count()).toBe(1);
    const client = new TestOAuthClient(REDIRECT);
    await auth(client, { serverUrl: mcpUrl });
    const opened = await step(new CookieJar(), client.authorizationUrl!.href);
    expect(opened.status).toBe(303);
    expect(await count()).toBe(0);
    const gone = await step(new CookieJar(), new URL(opened.location!, server.base).href);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This request is no longer open');
  });

  it('keeps host keys working as before', async () => {
    const host = await connectMcp(server.base, await server.createKey('Guest Host', 'de'));
    const answer = await host.callTool({ name: 'rsvp', arguments: { id: eventId } });
    expect(answer.structuredContent).toMatchObject({ status: 'registered' });
    await host.close();
  });

  it('refuses another resource, no PKCE, no scope, a cross-site answer; sends a signed-out person to /me; honours Deny', async () => {
    const client = new TestOAuthClient(REDIRECT);
    await auth(client, { serverUrl: mcpUrl });
    const base = client.authorizationUrl!;
    const variant = (change: (q: URLSearchParams) => void) => {
      const url = new URL(base);
      change(url.searchParams);
      return url;
    };
    const { jar } = await signedIn();
    // Another resource: the authorization server issues tokens for /api/mcp only.
    const other = await step(jar, variant((q) => q.set('resource', 'https://elsewhere.example/api')).href);
    expect(new URL(other.location!).searchParams.get('error')).toBe('invalid_target');
    // No PKCE challenge.
    const plain = await step(jar, variant((q) => q.delete('code_challenge')).href);
    expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');

    // Signed out: to /me, which comes back here.
    const anonymousJar = new CookieJar();
    const opened = await step(anonymousJar, base.href);
    const page = new URL(opened.location!, server.base);
    const signedOut = await step(anonymousJar, page.href);
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toBe(`/me?return=${encodeURIComponent(page.pathname)}`);

    // A form from another site is refused; Deny sends access_denied back.
    const { jar: person } = await signedIn();
    const asked = await step(person, base.href);
    const consentPage = new URL(asked.location!, server.base).href;
    const crossSite = await step(person, consentPage, {
      form: { decision: 'allow' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const denied = await consent(person, base, 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');

    // Nothing asked that this server grants: nothing granted, no code.
    const { jar: third } = await signedIn();
    const noScope = await consent(
      third,
      variant((q) => q.delete('scope')),
      'allow',
    );
    expect(noScope.searchParams.get('error')).toBe('access_denied');
  });

  it('takes a token another node issued for /api/mcp, and refuses one for another resource or without rsvp', async () => {
    // A second node on the same database: same signing and cookie keys, same stored tokens.
    const node = await createOAuthProvider(server.service.ctx);
    const registered = new TestOAuthClient(REDIRECT);
    await auth(registered, { serverUrl: mcpUrl });
    const client = (await node.Client.find(registered.information!.client_id))!;
    const { attendee } = await signedIn();
    const tokenFor = (audience: string, scope: string) =>
      new node.AccessToken({
        client,
        accountId: attendee.id,
        grantId: 'made-by-hand',
        gty: 'authorization_code',
        scope,
        expiresIn: 600,
        resourceServer: new node.ResourceServer(audience, { scope, audience, accessTokenFormat: 'opaque' }),
      }).save();
    const answer = async (token: string) =>
      request(mcpUrl.href, {
        key: token,
        json: rsvpCall(eventId),
        headers: { accept: 'application/json, text/event-stream' },
      });
    const good = await answer(await tokenFor(`${server.base}/api/mcp`, 'rsvp'));
    expect(good.status, good.text).toBe(200);
    expect(good.body.result.structuredContent).toMatchObject({ status: 'registered' });
    for (const [audience, scope] of [
      ['https://elsewhere.example/api', 'rsvp'],
      [`${server.base}/api/mcp`, 'other'],
    ]) {
      const refused = await answer(await tokenFor(audience!, scope!));
      expect(refused.status, `${audience} ${scope}`).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    }
  });

  it('limits client registrations per address and hour: 429 with Retry-After, as a problem', async () => {
    const register = () =>
      request(`${server.base}/oauth/reg`, {
        json: { client_name: 'Spam', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
      });
    let answer = await register();
    for (let i = 0; i < 12 && answer.status === 201; i++) answer = await register();
    expect(answer.status, answer.text).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answer.body.code).toBe('rate-limited');
    expect(answer.body.detail).toMatch(/OAuth client registrations per hour/);
  });
});
