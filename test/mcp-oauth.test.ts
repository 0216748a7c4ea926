import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPasskeyDevice, browserMissing, launchChromium, seriousViolations } from './helpers/browser.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { callbackServer, TestOAuthClient } from './helpers/oauth-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The story for MCP clients, in Chromium: an MCP client (the SDK's `auth()`) discovers the authorization
 * server from the MCP endpoint, registers itself and sends the person to the authorization URL; signed out, they
 * land on /me, create a passkey (a CDP virtual authenticator) and come back to the consent page, in their language;
 * they allow it; the client's redirect URI (a local server) gets the code, the client its token, and its rsvp
 * registers the person. Without a token rsvp says how to connect; a host key works as before.
 */
describe.skipIf(browserMissing)('an MCP client connects by OAuth, the person allows it with a passkey', () => {
  let server: TestServer;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  let eventId: string;
  let mcpUrl: URL;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    mcpUrl = new URL(`${server.base}/api/mcp`);
    browser = await launchChromium();
    callback = await callbackServer();
    const hostKey = await server.createKey('Passkey Host', 'ch');
    const res = await request(`${server.base}/api/events`, {
      key: hostKey,
      json: { externalId: 'pk-1', title: 'Passkey Night', startAt: '2027-04-08T18:30:00+02:00', city: 'Basel' },
    });
    expect(res.status, res.text).toBe(201);
    eventId = res.body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  /** Signs the person in on their way to the consent page: /me, a new passkey (a virtual authenticator), back. */
  async function signIn(context: BrowserContext, page: Page, authorizationUrl: URL): Promise<void> {
    await addPasskeyDevice(context, page);
    await page.goto(authorizationUrl.href);
    const me = new URL(page.url());
    expect(me.pathname).toBe('/me');
    expect(me.searchParams.get('return')).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    await page.click('#create-passkey');
    await page.waitForURL(/\/oauth\/interaction\/[\w-]+/);
  }

  it('discovers, registers, sends the person through /me and consent, and RSVPs in their name', async () => {
    const client = new TestOAuthClient(callback.url);
    expect(await auth(client, { serverUrl: mcpUrl })).toBe('REDIRECT');
    const authorizationUrl = client.authorizationUrl!;
    expect(authorizationUrl.href.startsWith(`${server.base}/oauth/auth?`)).toBe(true);

    // The test's context bypasses the CSP only so that axe can be injected.
    const context = await browser.newContext({ locale: 'de-CH', bypassCSP: true });
    const page = await context.newPage();
    await signIn(context, page, authorizationUrl);
    expect(new URL(page.url()).pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    expect(await page.locator('h1').textContent()).toBe('Einem MCP-Client erlauben, für dich zuzusagen?');
    expect(await page.locator('main').textContent()).toContain('Test MCP client');
    expect(await seriousViolations(page)).toEqual([]);

    const arrived = callback.next();
    await page.click('#oauth-allow');
    const query = await arrived;
    const code = query.get('code');
    expect(code, query.toString()).toBeTruthy();
    expect(query.get('iss')).toBe(`${server.base}/oauth`);
    await context.close();

    expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: code! })).toBe('AUTHORIZED');
    const mcp = new Client({ name: 'oauth-browser-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: client }));
    const answer = await mcp.callTool({ name: 'rsvp', arguments: { id: eventId } });
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ eventId, status: 'registered', changed: true });
    await mcp.close();
    const held = await server.service.ctx.registrations.ofEvent(eventId);
    expect(held.map((r) => [r.holder.kind, r.status])).toEqual([['attendee', 'registered']]);
  });

  it('Deny sends access_denied to the client, and nothing is granted', async () => {
    const client = new TestOAuthClient(callback.url);
    await auth(client, { serverUrl: mcpUrl });
    const context = await browser.newContext({ locale: 'en' });
    const page = await context.newPage();
    await signIn(context, page, client.authorizationUrl!);
    const arrived = callback.next();
    await page.click('#oauth-deny');
    const query = await arrived;
    expect(query.get('error')).toBe('access_denied');
    expect(query.get('code')).toBeNull();
    await context.close();
  });

  it('without a token rsvp says how to connect; with a host key it works as before', async () => {
    const anonymous = await connectMcp(server.base);
    const refused = await anonymous.callTool({ name: 'rsvp', arguments: { id: eventId } });
    expect(refused.isError).toBe(true);
    const text = (refused.content as { text: string }[])[0]!.text;
    expect(text).toContain('OAuth');
    expect(text).toContain(`${server.base}/.well-known/oauth-protected-resource/api/mcp`);
    expect(text).toContain('Authorization: Bearer <key>');
    await anonymous.close();
    const host = await connectMcp(server.base, await server.createKey('Guest', 'at'));
    const answer = await host.callTool({ name: 'rsvp', arguments: { id: eventId } });
    expect(answer.structuredContent).toMatchObject({ status: 'registered' });
    await host.close();
  });
});
