import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPasskeyDevice, browserMissing, launchChromium, seriousViolations } from './helpers/browser.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { schemaValidator } from './helpers/openapi.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-20T09:00:00Z';

/** A person: a browser context of their own with a CDP virtual authenticator (a device that holds passkeys). */
interface Person {
  context: BrowserContext;
  page: Page;
}

async function person(browser: Browser, options: { bypassCSP?: boolean } = {}): Promise<Person> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await addPasskeyDevice(context, page);
  return { context, page };
}

/** One VEVENT of a parsed calendar, by the event id its UID starts with. */
function vevent(ics: string, eventId: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return calendar
    .getAllSubcomponents('vevent')
    .find((v) => String(v.getFirstPropertyValue('uid')).startsWith(`${eventId}@`));
}

/**
 * The first "done when" in Chromium: a person creates a passkey on /me (a virtual authenticator), RSVPs on a
 * host-run event's page, sees it on /me and in their private calendar (with a reminder); the host's cancel and
 * restore show there; a second person waits for a one-place event and is promoted when the first withdraws; signing
 * in again with the passkey, deleting the identity (its RSVPs withdrawn) and a cross-site write refused. On each
 * engine: passkeys keep bytea keys and jsonb transports, which each engine reads back in its own way.
 */
describe.skipIf(browserMissing).each(ENGINES)('attendees RSVP with a passkey on %s', { timeout: 120_000 }, (engine) => {
  let server: TestServer;
  let browser: Browser;
  let key: string;
  const ids: Record<'talk' | 'small', string> = { talk: '', small: '' };

  const event = async (externalId: string, title: string, extra: Record<string, unknown> = {}) => {
    const res = await request(`${server.base}/api/events`, {
      key,
      json: { externalId, title, startAt: '2026-12-03T18:30:00+01:00', city: 'Zürich', ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const lifecycle = async (id: string, action: 'cancel' | 'restore') => {
    const res = await request(`${server.base}/api/events`, { key, json: { id, action } });
    expect(res.status, res.text).toBe(200);
  };
  const counts = async (id: string) => {
    const res = await request(`${server.base}/api/events?mine=1&limit=50`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body.events.find((e: { id: string }) => e.id === id).registrations;
  };
  const me = async (p: Person) => {
    const res = await p.page.request.get(`${server.base}/api/me`);
    return { status: res.status(), body: res.status() === 200 ? await res.json() : undefined };
  };
  const calendarOf = async (p: Person) => {
    const { body } = await me(p);
    const res = await request(body.calendarUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^private/);
    return res.text;
  };
  const createPasskey = async (p: Person) => {
    await p.page.goto(`${server.base}/me?hl=en`);
    await p.page.click('#create-passkey');
    await p.page.waitForSelector('#sign-out');
  };
  const rsvpOnPage = async (p: Person, id: string, verb: 'register' | 'withdraw') => {
    await p.page.goto(`${server.base}/ch/events/${id}?hl=en`);
    await p.page.click(`#rsvp-${verb}`);
    return p.page.getAttribute('#rsvp-result', 'data-status');
  };

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW });
    key = await server.createKey('Attendee Host', 'ch');
    ids.talk = await event('talk', 'Rust Evening Zürich', { capacity: 30 });
    ids.small = await event('small', 'Tiny Workshop', { capacity: 1 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a passkey, RSVPs, and follows the host’s cancel and restore in the private calendar', async () => {
    const ana = await person(browser);
    // Signed out, the event page's Register leads to /me, which comes back to the event once signed in.
    await ana.page.goto(`${server.base}/ch/events/${ids.talk}?hl=en`);
    const page = await request(`${server.base}/ch/events/${ids.talk}?hl=en`);
    expect(page.headers.get('cache-control')).toMatch(/^public/);
    await ana.page.click('#rsvp-register');
    expect(new URL(ana.page.url()).pathname).toBe('/me');
    expect(new URL(ana.page.url()).searchParams.get('return')).toBe(`/ch/events/${ids.talk}`);
    await ana.page.click('#create-passkey');
    await ana.page.waitForURL(`${server.base}/ch/events/${ids.talk}`);

    expect(await rsvpOnPage(ana, ids.talk, 'register')).toBe('registered');
    await ana.page.goto(`${server.base}/me?hl=en`);
    expect(await ana.page.getAttribute(`li[data-event="${ids.talk}"]`, 'data-status')).toBe('registered');
    const meHeaders = (await ana.page.request.get(`${server.base}/me`)).headers();
    expect(meHeaders['cache-control']).toBe('private, no-store');
    expect(meHeaders['content-security-policy']).toContain("script-src 'self'");

    let ics = await calendarOf(ana);
    let v = vevent(ics, ids.talk)!;
    expect(v.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(v.getAllSubcomponents('valarm').length).toBeGreaterThan(0);

    await lifecycle(ids.talk, 'cancel');
    v = vevent(await calendarOf(ana), ids.talk)!;
    expect(v.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(String(v.getFirstPropertyValue('description'))).toContain('CANCELLED by the host');
    expect(v.getAllSubcomponents('valarm')).toHaveLength(0);

    await lifecycle(ids.talk, 'restore');
    ics = await calendarOf(ana);
    v = vevent(ics, ids.talk)!;
    expect(v.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(v.getAllSubcomponents('valarm').length).toBeGreaterThan(0);
    await ana.context.close();
  });

  it('waitlists a second person for a one-place event and promotes them when the first withdraws', async () => {
    const [ben, cleo] = [await person(browser), await person(browser)];
    await createPasskey(ben);
    await createPasskey(cleo);
    expect((await me(ben)).body.handle).not.toBe((await me(cleo)).body.handle);
    expect(await rsvpOnPage(ben, ids.small, 'register')).toBe('registered');
    expect(await rsvpOnPage(cleo, ids.small, 'register')).toBe('waitlisted');
    expect(await cleo.page.textContent('#rsvp-result')).toContain('place 1');
    let v = vevent(await calendarOf(cleo), ids.small)!;
    expect(v.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(String(v.getFirstPropertyValue('summary'))).toBe('Waitlisted #1: Tiny Workshop');
    expect(v.getAllSubcomponents('valarm')).toHaveLength(0);

    expect(await rsvpOnPage(ben, ids.small, 'withdraw')).toBe('withdrawn');
    expect(vevent(await calendarOf(ben), ids.small)).toBeUndefined();
    v = vevent(await calendarOf(cleo), ids.small)!;
    expect(v.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(v.getAllSubcomponents('valarm').length).toBeGreaterThan(0);
    const cleoMe = (await me(cleo)).body;
    expect(cleoMe.rsvps).toMatchObject([{ id: ids.small, status: 'registered', waitlistPlace: null }]);
    // GET /api/me answers as the OpenAPI document declares (the contract fuzz has no session to reach it).
    const document = (await request(`${server.base}/api/openapi.json`)).body;
    expect(schemaValidator(document)({ $ref: '#/components/schemas/Me' }, cleoMe)).toBeUndefined();
    await ben.context.close();
    await cleo.context.close();
  });

  it('signs in again with the passkey after signing out', async () => {
    const dan = await person(browser);
    await createPasskey(dan);
    const { handle } = (await me(dan)).body;
    await dan.page.click('#sign-out');
    await dan.page.waitForSelector('#sign-in-passkey');
    expect((await me(dan)).status).toBe(401);
    await dan.page.click('#sign-in-passkey');
    await dan.page.waitForSelector('#sign-out');
    expect((await me(dan)).body.handle).toBe(handle);
    // Signed in already, /me?return= offers the way back (helper pages such as an OAuth consent send people here).
    await dan.page.goto(`${server.base}/me?hl=en&return=${encodeURIComponent('/oauth/interaction/abc')}`);
    expect(await dan.page.getAttribute('#continue', 'href')).toBe('/oauth/interaction/abc');
    await dan.context.close();
  });

  it('refuses a write with the cookie from another site, and changes nothing', async () => {
    const eve = await person(browser);
    await createPasskey(eve);
    const cookie = (await eve.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const before = await counts(ids.talk);
    const forged = await request(`${server.base}/ch/events/${ids.talk}/rsvp`, {
      body: 'action=register',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.type).toMatch(/cross-site$/);
    const noFetchSite = await request(`${server.base}/api/me`, {
      method: 'DELETE',
      headers: { cookie, origin: 'https://elsewhere.example' },
    });
    expect(noFetchSite.status).toBe(403);
    expect(await counts(ids.talk)).toEqual(before);
    expect((await me(eve)).status).toBe(200);
    await eve.context.close();
  });

  it('deletes an identity: its RSVPs withdrawn, the counts drop, its calendar and session gone', async () => {
    const fay = await person(browser);
    await createPasskey(fay);
    expect(await rsvpOnPage(fay, ids.talk, 'register')).toBe('registered');
    const before = await counts(ids.talk);
    const { calendarUrl } = (await me(fay)).body;
    await fay.page.goto(`${server.base}/me?hl=en`);
    fay.page.once('dialog', (dialog) => dialog.accept());
    await fay.page.click('#delete-identity');
    await fay.page.waitForSelector('#create-passkey');
    expect((await counts(ids.talk)).registered).toBe(before.registered - 1);
    expect((await me(fay)).status).toBe(401);
    expect((await request(calendarUrl)).status).toBe(404);
    // The passkey is no longer known here: signing in with it is refused.
    await fay.page.click('#sign-in-passkey');
    await expect.poll(() => fay.page.textContent('#passkey-status'), { timeout: 10_000 }).toContain('not known');
    await fay.context.close();
  });
  it('has no serious accessibility violation on /me, signed out and in, and on an RSVP’s answer', async () => {
    // axe-core is injected, which the pages' CSP forbids: this context bypasses it (the others keep it).
    const gil = await person(browser, { bypassCSP: true });
    await gil.page.goto(`${server.base}/me?hl=fr`);
    expect(await seriousViolations(gil.page), '/me signed out').toEqual([]);
    await gil.page.click('#create-passkey');
    await gil.page.waitForSelector('#sign-out');
    expect(await rsvpOnPage(gil, ids.talk, 'register')).toBe('registered');
    expect(await seriousViolations(gil.page), 'the answer').toEqual([]);
    await gil.page.goto(`${server.base}/me?hl=fr`);
    expect(await seriousViolations(gil.page), '/me signed in').toEqual([]);
    await gil.context.close();
  });

  it('keeps nothing of the people who came: no address, no browser in any attendee row', async () => {
    const db = server.service.ctx.storage.db;
    for (const table of ['attendees', 'passkeys', 'attendee_sessions', 'registrations', 'webauthn_challenges']) {
      const rows = await db
        .selectFrom(table as never)
        .selectAll()
        .execute();
      const text = JSON.stringify(rows);
      if (table !== 'webauthn_challenges') expect(rows.length, table).toBeGreaterThan(0);
      expect(text, table).not.toMatch(/127\.0\.0\.1|localhost|HeadlessChrome|Mozilla/);
    }
  });
});
