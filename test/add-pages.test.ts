import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/i18n/languages.js';
import { browserMissing, launchChromium, seriousViolations } from './helpers/browser.js';
import { validHtml } from './helpers/documents.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const TOKEN = 'admin-page-token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (password: string) => `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;

/**
 * `/add` and `/admin` as pages: valid HTML in every language, saying what is accepted and checked; the forms' own
 * body parser (UTF-8, a size limit, scoped to them); the admin page's sign-in and its refusal of cross-site forms.
 */
describe('the pages where communities add themselves', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-12-01T09:00:00Z', env: { ADMIN_TOKEN: TOKEN } });
    if (!browserMissing) browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves /add in each language, valid, saying what is accepted, what is checked and that nothing personal is asked', async () => {
    for (const lang of LANGUAGES) {
      const res = await request(`${server.base}/add?hl=${lang}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-language')).toBe(lang);
      expect(res.text).toContain(`<html lang="${lang}">`);
      for (const accepted of ['Meetup', 'Luma', 'Google', 'Bevy', 'gdg.community.dev', 'community.cncf.io', 'iCal'])
        expect(res.text, `${lang}: ${accepted}`).toContain(accepted);
      // Both forms post to /add in the page's language, and work without a script.
      expect(
        res.text.match(new RegExp(`<form class="add" method="post" action="/add\\?hl=${lang}">`, 'g')),
      ).toHaveLength(2);
      for (const name of ['url', 'city', 'country', 'name', 'organisation', 'plans', 'website'])
        expect(res.text, name).toContain(`name="${name}"`);
      expect(res.text).not.toMatch(/name="(e-?mail|phone|person)"/i);
      await validHtml(res.text, `/add?hl=${lang}`);
    }
    const en = await request(`${server.base}/add?hl=en`);
    expect(en.text).toContain('no e-mail, no name, no account');
    expect(en.text).toContain('What the operator checks');
  });

  it('is linked from every page’s footer and from /sources', async () => {
    for (const path of ['/?hl=de', '/sources?hl=de', '/ch/events/nothing-here?hl=de']) {
      const res = await request(`${server.base}${path}`, { headers: { accept: 'text/html' } });
      expect(res.text, path).toContain('<a href="/add?hl=de">Eure Community eintragen</a>');
    }
    const sources = await request(`${server.base}/sources?hl=en`);
    expect(sources.text).toContain('Is your community’s calendar missing? <a href="/add?hl=en">');
  });

  it('takes form bodies on its own routes only, as UTF-8, within a limit', async () => {
    const bad = await request(`${server.base}/add`, {
      method: 'POST',
      headers: FORM,
      body: 'form=calendar&url=%FF%FE',
    });
    expect(bad.status).toBe(400);
    const latin1 = await request(`${server.base}/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
      body: 'url=x',
    });
    expect(latin1.status).toBe(415);
    const big = await request(`${server.base}/add`, {
      method: 'POST',
      headers: FORM,
      body: `url=${'a'.repeat(20_000)}`,
    });
    expect(big.status).toBe(413);
    // Every other route keeps to JSON.
    const api = await request(`${server.base}/api/events`, { method: 'POST', headers: FORM, body: 'title=x' });
    expect(api.status).toBe(415);
  });

  it('asks for the admin token as a browser sign-in, and refuses a decision posted from another site', async () => {
    const none = await request(`${server.base}/admin`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="tech-events admin"/);
    expect(none.headers.get('cache-control')).toBe('no-store');
    expect(none.headers.get('content-type')).toMatch(/^text\/html/);
    const wrong = await request(`${server.base}/admin`, { headers: { authorization: basic('not-it') } });
    expect(wrong.status).toBe(401);
    // A bearer token is the API's way, not the page's.
    expect((await request(`${server.base}/admin`, { key: TOKEN })).status).toBe(401);
    const post = (headers: Record<string, string>) =>
      request(`${server.base}/admin/proposals/prp_${'0'.repeat(32)}/accept`, {
        method: 'POST',
        headers: { ...FORM, authorization: basic(TOKEN), ...headers },
        body: '',
      });
    const elsewhere: Record<string, string>[] = [
      { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://elsewhere.example' },
      { 'sec-fetch-site': 'same-site' },
      {},
    ];
    for (const headers of elsewhere) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.text).toContain('not sent from this site’s own page');
    }
    // Without credentials, a post is asked for them first.
    const anonymous = await request(`${server.base}/admin/proposals/prp_x/accept`, {
      method: 'POST',
      headers: { ...FORM, origin: new URL(server.base).origin },
      body: '',
    });
    expect(anonymous.status).toBe(401);
  });

  it('answers a form with problems with the form again, each field’s problem beside it (422)', async () => {
    const empty = await request(`${server.base}/add?hl=de`, {
      method: 'POST',
      headers: FORM,
      body: 'form=calendar&url=',
    });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('id="calendar-url-error"');
    expect(empty.text).toContain('Adresse des Kalenders:');
    await validHtml(empty.text, '422 calendar');
    const key = await request(`${server.base}/add?hl=en`, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ form: 'key', organisation: 'Basel Devs', country: 'ch' }).toString(),
    });
    expect(key.status).toBe(422);
    expect(key.text).toContain('id="key-plans-error"');
    // What was sent comes back, to be mended.
    expect(key.text).toContain('value="Basel Devs"');
    await validHtml(key.text, '422 key');
  });

  it('lets the operator accept and refuse on /admin; an accepted key shows on its status page once', async () => {
    const ask = async (organisation: string) => {
      const body = new URLSearchParams({ form: 'key', organisation, country: 'de', plans: 'Our monthly meetups' });
      const res = await fetch(`${server.base}/add?hl=en`, {
        method: 'POST',
        headers: FORM,
        body,
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      const location = res.headers.get('location')!;
      expect(location).toMatch(/^\/add\/prp_[0-9a-f]{32}\?hl=en$/);
      return location.slice(5, location.indexOf('?'));
    };
    const [accepted, refused] = [await ask('Köln Rust Meetup'), await ask('Spam Inc')];
    const auth = { authorization: basic(TOKEN) };
    const admin = await request(`${server.base}/admin?hl=en`, { headers: auth });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('cache-control')).toBe('no-store');
    expect(admin.text).toContain('Köln Rust Meetup');
    expect(admin.text).toContain(`action="/admin/proposals/${accepted}/accept?hl=en"`);
    await validHtml(admin.text, '/admin');

    const origin = new URL(server.base).origin;
    const decide = (id: string, action: string, body: string, headers: Record<string, string>) =>
      fetch(`${server.base}/admin/proposals/${id}/${action}?hl=en`, {
        method: 'POST',
        headers: { ...FORM, ...auth, ...headers },
        body,
        redirect: 'manual',
      });
    // From another site, with the operator's credentials: refused, nothing decided.
    expect((await decide(accepted, 'accept', '', { origin: 'https://elsewhere.example' })).status).toBe(403);
    expect((await request(`${server.base}/api/proposals/${accepted}`)).body.state).toBe('waiting');

    const ok = await decide(accepted, 'accept', '', { origin, 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/admin?hl=en#${accepted}`);
    const no = await decide(refused, 'reject', 'reason=Not+a+tech+community', { origin });
    expect(no.status).toBe(303);
    // Deciding twice is refused, and the page says so.
    const again = await decide(refused, 'accept', '', { origin });
    expect(again.status).toBe(409);

    // A link checker's HEAD first: it is not the visit that shows the key.
    expect((await request(`${server.base}/add/${accepted}`, { method: 'HEAD' })).status).toBe(200);
    const first = await request(`${server.base}/add/${accepted}?hl=en`);
    const key = first.text.match(/tev_[a-f0-9]{12}_[A-Za-z0-9_-]{43}/)?.[0];
    expect(key, first.text).toBeDefined();
    expect(first.text).toContain('Copy it now');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const second = await request(`${server.base}/add/${accepted}?hl=en`);
    expect(second.text).not.toContain(key!);
    expect(second.text).toContain('The key was shown here on');
    const reason = await request(`${server.base}/add/${refused}?hl=de`);
    expect(reason.text).toContain('Abgelehnt am');
    expect(reason.text).toContain('Not a tech community');

    const log = await request(`${server.base}/admin?hl=en`, { headers: auth });
    expect(log.text).toMatch(/admin page<\/td><td>accepted/);
    expect(log.text).toMatch(/admin page<\/td><td>refused/);
    const missing = await request(`${server.base}/add/prp_${'f'.repeat(32)}?hl=en`);
    expect(missing.status).toBe(404);
  });

  it('has no admin page without ADMIN_TOKEN, as the admin API; limits proposals per address', async () => {
    const plain = await startTestServer('pglite', { env: { RATE_LIMIT_PROPOSALS_PER_HOUR: '2' } });
    try {
      const res = await request(`${plain.base}/admin`, { headers: { authorization: basic('anything') } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('admin-disabled');
      const body = new URLSearchParams({ form: 'key', organisation: 'Graz Devs', country: 'at', plans: 'Meetups' });
      for (let i = 0; i < 2; i++) {
        const sent = await fetch(`${plain.base}/add?hl=fr`, {
          method: 'POST',
          headers: FORM,
          body,
          redirect: 'manual',
        });
        expect(sent.status).toBe(303);
      }
      // The third from this address this hour: the form again, as sent, saying when to try again.
      const limited = await request(`${plain.base}/add?hl=fr`, {
        method: 'POST',
        headers: FORM,
        body: body.toString(),
      });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('content-type')).toMatch(/^text\/html/);
      expect(limited.text).toContain('Trop de propositions depuis votre adresse');
      expect(limited.text).toContain('value="Graz Devs"');
    } finally {
      await plain.close();
    }
  });

  describe.skipIf(browserMissing)('in Chromium', () => {
    it('shows the calendar form’s address field on a phone’s first screen, nothing wider than the phone', async () => {
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
      const page = await context.newPage();
      for (const lang of LANGUAGES) {
        await page.goto(`${server.base}/add?hl=${lang}`);
        const field = (await page.locator('#calendar-url').boundingBox())!;
        expect(field.y + field.height, `the address field on the ${lang} page`).toBeLessThan(PHONE.height);
        const { scroll, client } = await page.evaluate(() => {
          const root = (globalThis as unknown as { document: { documentElement: Record<string, number> } }).document
            .documentElement;
          return { scroll: root.scrollWidth!, client: root.clientWidth! };
        });
        expect(scroll, `${lang} scrolls sideways`).toBeLessThanOrEqual(client);
      }
      await context.close();
    });

    it('has no serious accessibility violation on /add and /admin, on a phone and a laptop', async () => {
      // A proposal waiting, so that /admin shows its forms.
      const json = { organisation: 'Bern Data Community', country: 'ch', plans: 'Talks every month' };
      expect((await request(`${server.base}/api/keys/requests`, { json })).status).toBe(202);
      for (const viewport of [PHONE, DESKTOP]) {
        const httpCredentials = { username: 'operator', password: TOKEN };
        const context = await browser.newContext({ viewport, bypassCSP: true, httpCredentials });
        const page = await context.newPage();
        for (const lang of LANGUAGES) {
          for (const path of [`/add?hl=${lang}`, `/admin?hl=${lang}`]) {
            await page.goto(`${server.base}${path}`);
            expect(await seriousViolations(page), `${path} at ${viewport.width} px`).toEqual([]);
          }
        }
        await context.close();
      }
    });
  });
});
