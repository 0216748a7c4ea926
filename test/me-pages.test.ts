import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/i18n/languages.js';
import { validHtml } from './helpers/documents.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** /me and the RSVP forms over HTTP, without a browser: what a signed-out visitor and a forger get. */
describe('the attendees’ pages', () => {
  let server: TestServer;
  let key: string;
  let hostRun: string;
  let imported: { id: string; country: string };

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      now: '2026-03-01T09:00:00Z',
      env: { SEED: '1', ATTENDEES_PER_HOUR: '2' },
    });
    key = await server.createKey('Page Host', 'ch');
    const res = await request(`${server.base}/api/events`, {
      key,
      json: { externalId: 'p-1', title: 'Page Evening', startAt: '2026-03-10T18:30:00+01:00', city: 'Bern' },
    });
    expect(res.status, res.text).toBe(201);
    hostRun = res.body.id;
    const listed = await request(`${server.base}/api/events?limit=50`);
    imported = listed.body.events.find((e: { source: string }) => e.source !== 'host');
    expect(imported).toBeDefined();
  });
  afterAll(() => server?.close());

  it('serves /me signed out with the passkey buttons, its script allowed, never cached', async () => {
    const res = await request(`${server.base}/me?hl=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).toContain('id="create-passkey"');
    expect(res.text).toContain('id="sign-in-passkey"');
    expect(res.text).toContain('Passkey erstellen');
    const script = res.text.match(/<script src="([^"]+)" defer>/)?.[1];
    expect(script).toMatch(/^\/assets\/passkey\.js\?v=[0-9a-f]{16}$/);
    const js = await request(`${server.base}${script}`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.text).toContain('SimpleWebAuthnBrowser');
    expect(js.text).toContain("getElementById('create-passkey')");
    // Every other page keeps no scripts at all.
    const home = await request(`${server.base}/?hl=en`);
    expect(home.headers.get('content-security-policy')).not.toContain('script-src');
  });

  it('is valid HTML in every language, and so is a host-run event page with its forms', async () => {
    for (const lang of LANGUAGES) {
      await validHtml((await request(`${server.base}/me?hl=${lang}&return=/ch`)).text, `/me ${lang}`);
      await validHtml((await request(`${server.base}/ch/events/${hostRun}?hl=${lang}`)).text, `event ${lang}`);
    }
  });

  it('honours ?return= only for a path of this site', async () => {
    const returnOf = async (value: string) =>
      (await request(`${server.base}/me?hl=en&return=${encodeURIComponent(value)}`)).text.match(
        /data-return="([^"]*)"/,
      )?.[1];
    expect(await returnOf('/oauth/interaction/abc123')).toBe('/oauth/interaction/abc123');
    expect(await returnOf('/ch/events/x?hl=fr')).toBe('/ch/events/x?hl=fr');
    for (const foreign of [
      '//evil.example/',
      'https://evil.example/',
      '/\\evil.example',
      '/.//evil.example/x',
      '/a/..//evil.example',
      'javascript:alert(1)',
      '',
    ])
      expect(await returnOf(foreign), foreign).toBe('/me?hl=en');
  });

  it('answers the API and the private calendar with problems when nobody is signed in', async () => {
    const me = await request(`${server.base}/api/me`);
    expect(me.status).toBe(401);
    expect(me.body.type).toMatch(/not-signed-in$/);
    expect(me.headers.get('cache-control')).toBe('private, no-store');
    expect((await request(`${server.base}/api/me`, { method: 'DELETE' })).status).toBe(401);
    expect((await request(`${server.base}/api/me/calendar`, { method: 'POST' })).status).toBe(401);
    expect((await request(`${server.base}/me/calendar/${'a'.repeat(43)}.ics`)).status).toBe(404);
    expect((await request(`${server.base}/api/me/session`, { method: 'DELETE' })).body).toEqual({ signedOut: true });
    // A made-up ceremony: the challenge is unknown, nothing is created.
    const forged = await request(`${server.base}/api/me/session`, {
      json: { challengeId: 'nope', response: { id: 'abc', type: 'public-key', response: {} } },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.type).toMatch(/passkey-refused$/);
    expect((await request(`${server.base}/api/me/passkeys`, { json: { challengeId: 1 } })).status).toBe(422);
  });

  it('limits new passkeys per address and hour (ATTENDEES_PER_HOUR)', async () => {
    const options = await request(`${server.base}/api/me/passkeys/options`, { method: 'POST' });
    expect(options.status).toBe(200);
    expect(options.body.options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    expect(options.body.options.user.name).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
    expect(options.body.options.rp.id).toBe('localhost');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(`${server.base}/api/me/passkeys`, { json: { challengeId: 'x', response: {} } });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // One was tried in the test above (its 422): the second here is over the limit of two.
    expect(statuses).toEqual([422, 429, 429]);
  });

  it('shows Register and Withdraw on a host-run event only; the page stays public; signed out, the form leads to /me', async () => {
    const page = await request(`${server.base}/ch/events/${hostRun}?hl=en`);
    expect(page.headers.get('cache-control')).toMatch(/^public/);
    expect(page.text).toContain(`action="/ch/events/${hostRun}/rsvp?hl=en"`);
    expect(page.text).toContain('id="rsvp-register"');
    const other = await request(`${server.base}/${imported.country}/events/${imported.id}?hl=en`);
    expect(other.text).not.toContain('id="rsvp-register"');
    const posted = await fetch(`${server.base}/ch/events/${hostRun}/rsvp?hl=en`, {
      method: 'POST',
      body: 'action=register',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/me?return=${encodeURIComponent(`/ch/events/${hostRun}`)}&hl=en`);
  });
});
