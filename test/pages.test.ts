import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/i18n/languages.js';
import { browserMissing, launchChromium, seriousViolations } from './helpers/browser.js';
import { request } from './helpers/http.js';
import { ROOT } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const SCREENSHOTS = join(ROOT, 'test-output');

const KI_TITLE = 'KI Meetup Zürich <script>alert(1)</script>';
const KI_ID = 'ki-meetup-zurich-script-alert-1-script';

describe.skipIf(browserMissing)('pages in a real browser (Debian chromium)', () => {
  let server: TestServer;
  /** A catalogue where Austria has nothing upcoming at all, for the country page that must not be a dead end. */
  let sparse: TestServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // One after the other: two starting at once on a busy two-core machine can miss Fastify's plugin timeout.
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
    sparse = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z' });
    key = await server.createKey('Zürich AI Society', 'ch');
    await request(`${server.base}/api/events`, {
      key,
      json: {
        externalId: 'ki',
        title: KI_TITLE,
        startAt: '2025-03-05T18:30:00+01:00',
        endAt: '2025-03-05T21:00:00+01:00',
        city: 'Zürich',
        venue: 'Impact Hub',
        lat: 47.3778,
        lng: 8.5403,
        topics: ['ai-ml'],
        price: 'free',
        url: 'https://example.org/ki?a=1&b="2"',
        description: 'Talks about LLMs. </script><img src=x onerror=alert(2)>',
      },
    });
    // The same meetup listed by another host: shown once, with the other listing as "also listed at".
    const mirror = await server.createKey('Meetup Mirror', 'ch');
    await request(`${server.base}/api/events`, {
      key: mirror,
      json: { title: KI_TITLE, startAt: '2025-03-05T18:30:00+01:00', city: 'Zürich', url: 'https://mirror.example/ki' },
    });

    const deKey = await sparse.createKey('Cloud Native Berlin', 'de');
    const chKey = await sparse.createKey('Basel Devs', 'ch');
    await request(`${sparse.base}/api/events`, {
      key: deKey,
      json: { title: 'Online Kubernetes Clinic', startAt: '2025-03-04T17:00:00+01:00', format: 'online' },
    });
    await request(`${sparse.base}/api/events`, {
      key: deKey,
      json: {
        title: 'Cloud Native Night',
        startAt: '2025-03-12T18:00:00+01:00',
        city: 'Berlin',
        price: 'paid',
        priceAmount: 12.5,
      },
    });
    await request(`${sparse.base}/api/events`, {
      key: chKey,
      json: { title: 'Basel Rust Evening', startAt: '2025-03-06T18:30:00+01:00', city: 'Basel', price: 'free' },
    });

    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.close(), sparse?.close()]);
  });

  it('searches by keyboard without JavaScript, grouping by day, and follows an event link', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${server.base}/?hl=en`);
    // The search box has the focus; the form is filled and sent with the keyboard alone.
    await expect(page.locator('input[name="q"]:focus').count()).resolves.toBe(1);
    await page.keyboard.type('AI meetups in Zürich next week');
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab'); // country, city, topic, format, audience, button
    await expect(page.locator('button[type="submit"]:focus').count()).resolves.toBe(1);
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=AI/);
    expect(new URL(page.url()).searchParams.get('hl')).toBe('en');
    await expect(page.locator('.understood').textContent()).resolves.toMatch(
      /^Looking for: AI & ML meetups in or near Zürich, next week \(3–9 Mar 2025\) — \d+ events?\.$/,
    );
    const first = page.locator('ol.results > li').first();
    await expect(first.locator('h3').textContent()).resolves.toBe(KI_TITLE);
    const reasons = await first.locator('.reasons li').allTextContents();
    expect(reasons).toEqual(expect.arrayContaining(['Topic: AI & ML', 'In Zürich', 'Next week: Wed 5 Mar']));
    await expect(first.locator('.meta').textContent()).resolves.toMatch(
      /^Next week · Wed, 5 Mar 2025 · 18:30–21:00 · Impact Hub/,
    );
    await expect(first.locator('.also a').textContent()).resolves.toBe('mirror.example');

    // By date: the results under day headings (a wider search: every event in Zürich next week). Once a search ran,
    // the form is folded under a line that shows it; opening it shows the fields with the search in them.
    await expect(page.locator('input[name="q"]').isVisible()).resolves.toBe(false);
    await page.locator('details.search > summary').click();
    await expect(page.locator('input[name="q"]').inputValue()).resolves.toBe('AI meetups in Zürich next week');
    await page.locator('input[name="q"]').fill('Zürich next week');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=Z/);
    await page.getByRole('link', { name: 'by date' }).click();
    await page.waitForURL(/order=date/);
    const headings = await page.locator('section.day h2').allTextContents();
    expect(headings).toContain('Next week · Wednesday 5 March');
    expect(headings.length).toBeGreaterThan(1);

    await page.getByRole('link', { name: KI_TITLE }).first().click();
    await page.waitForURL(/\/ch\/events\//);
    await expect(page.locator('h1').textContent()).resolves.toBe(KI_TITLE);
    // The host's link comes first, before every other link of the page's content.
    await expect(page.locator('main a').first().getAttribute('href')).resolves.toBe('https://example.org/ki?a=1&b="2"');
    await expect(page.getByRole('link', { name: /Tickets & registration/ }).getAttribute('class')).resolves.toBe('cta');
    await expect(page.getByRole('link', { name: 'Subscribe (webcal)' }).getAttribute('href')).resolves.toMatch(
      /^webcal:\/\//,
    );
    await expect(page.getByRole('link', { name: 'Show on OpenStreetMap' }).getAttribute('href')).resolves.toBe(
      'https://www.openstreetmap.org/?mlat=47.37780&mlon=8.54030#map=17/47.37780/8.54030',
    );
    const google = new URL((await page.getByRole('link', { name: 'Google Calendar' }).getAttribute('href'))!);
    expect(google.searchParams.get('dates')).toBe('20250305T173000Z/20250305T200000Z');
    await expect(page.getByRole('link', { name: /Apple Calendar/ }).getAttribute('href')).resolves.toMatch(/\.ics$/);
    await expect(page.getByRole('link', { name: 'Outlook.com' }).getAttribute('href')).resolves.toMatch(
      /^https:\/\/outlook\.live\.com\//,
    );
    await expect(page.getByRole('link', { name: 'mirror.example' }).getAttribute('href')).resolves.toBe(
      'https://mirror.example/ki',
    );
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    expect(ld).toMatchObject({
      '@type': 'Event',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      startDate: '2025-03-05T18:30:00.000+01:00',
    });
    expect(ld.description).toBe('Talks about LLMs. </script><img src=x onerror=alert(2)>');
    await expect(page.locator('meta[property="og:title"]').getAttribute('content')).resolves.toBe(KI_TITLE);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('switches language from a results page, keeping the search', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.base}/?q=${encodeURIComponent('AI meetups in Zürich next week')}&hl=en`);
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL(/hl=de/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('AI meetups in Zürich next week');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(page.locator('input[name="q"]').inputValue()).resolves.toBe('AI meetups in Zürich next week');
    await expect(page.locator('.understood').textContent()).resolves.toMatch(
      /^Gesucht: Meetups zu KI & ML, in oder nahe Zürich, nächste Woche \(3\.–9\. März 2025\) – \d+ Veranstaltung(en)?\.$/,
    );
    const reasons = await page.locator('ol.results > li').first().locator('.reasons li').allTextContents();
    expect(reasons).toEqual(expect.arrayContaining(['Thema: KI & ML', 'In Zürich', 'Nächste Woche: Mi., 5. März']));
    await expect(page.locator('title').textContent()).resolves.toBe('AI meetups in Zürich next week · Tech-Events');
    // The next search stays in German: the form carries the language.
    await page.getByText('Ihre Suche: AI meetups in Zürich next week').click();
    await page.locator('input[name="q"]').fill('Rust');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=Rust/);
    expect(new URL(page.url()).searchParams.get('hl')).toBe('de');
    await page.getByRole('link', { name: 'Français' }).click();
    await page.waitForURL(/hl=fr/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Événements tech en Suisse');
    await context.close();
  });

  it('speaks the Accept-Language of the browser when the URL names no language, with hreflang alternates', async () => {
    for (const [locale, lang, heading] of [
      ['fr-CH', 'fr', 'Événements tech en Suisse, en Allemagne et en Autriche'],
      ['de-AT', 'de', 'Tech-Events in der Schweiz, in Deutschland und in Österreich'],
      ['it-CH', 'it', 'Eventi tech in Svizzera, in Germania e in Austria'],
      ['es-ES', 'en', 'Tech events in Switzerland, Germany and Austria'],
    ] as const) {
      const context = await browser.newContext({ javaScriptEnabled: false, locale });
      const page = await context.newPage();
      const response = await page.goto(`${server.base}/`);
      const headers = response!.headers();
      expect(headers['content-language'], locale).toBe(lang);
      expect(headers.vary, locale).toMatch(/accept-language/i);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
      await expect(page.locator('h1').textContent()).resolves.toBe(heading);
      const alternates = await page
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
      expect(alternates).toEqual([
        ...LANGUAGES.map((l) => [l, `${server.base}/?hl=${l}`]),
        ['x-default', `${server.base}/`],
      ]);
      // The home page searches all three countries: it is its own canonical page.
      await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toBe(
        `${server.base}/?hl=${lang}`,
      );
      // Links on the page keep the language the reader got.
      await expect(page.locator('a.brand').getAttribute('href')).resolves.toBe(`/?hl=${lang}`);
      await context.close();
    }
    // A URL that names its language answers in it whatever the browser asks, and does not vary.
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-CH' });
    const page = await context.newPage();
    const response = await page.goto(`${server.base}/ch/events/${KI_ID}?hl=de`);
    expect(response!.headers()['content-language']).toBe('de');
    expect(response!.headers().vary ?? '').not.toMatch(/accept-language/i);
    await expect(page.locator('dl.facts dt').first().textContent()).resolves.toBe('Wann');
    await context.close();
  });

  it('keeps one cached page and ETag per language: never one language served for another', async () => {
    for (const path of ['/ch', `/ch/events/${KI_ID}`]) {
      const seen = new Map<string, string>();
      // Three rounds: the response cache admits a URL the second time and serves it from the third.
      for (let round = 0; round < 3; round++) {
        for (const [accept, lang] of [
          ['de-CH,de;q=0.9', 'de'],
          ['fr', 'fr'],
          ['en-GB', 'en'],
        ]) {
          const res = await fetch(`${server.base}${path}`, {
            headers: { 'accept-language': accept!, 'accept-encoding': round === 2 ? 'br' : 'identity' },
          });
          const body = await res.text();
          expect(body, `${path} ${accept} round ${round}`).toContain(`<html lang="${lang}">`);
          expect(res.headers.get('content-language')).toBe(lang);
          expect(res.headers.get('vary') ?? '', `${path} ${accept} round ${round}`).toMatch(/accept-language/i);
          // Each coding has its tag: the identity body's, with `-br` for its br bytes.
          const etag = res.headers.get('etag')!;
          if (round === 2) expect(etag).toMatch(/-br"$/);
          else expect(etag).not.toMatch(/-(br|gzip)"$/);
          const identityTag = round === 2 ? etag.replace(/-br"$/, '"') : etag;
          if (seen.has(lang!)) expect(identityTag).toBe(seen.get(lang!));
          seen.set(lang!, identityTag);
        }
      }
      expect(new Set(seen.values()).size, path).toBe(3);
      // A validator of one language does not answer for another.
      const notModified = await fetch(`${server.base}${path}`, {
        headers: { 'accept-language': 'de', 'accept-encoding': 'identity', 'if-none-match': seen.get('de')! },
      });
      expect(notModified.status).toBe(304);
      const other = await fetch(`${server.base}${path}`, {
        headers: { 'accept-language': 'fr', 'accept-encoding': 'identity', 'if-none-match': seen.get('de')! },
      });
      expect(other.status).toBe(200);
      expect(await other.text()).toContain('<html lang="fr">');
    }
  });

  it('keeps a cancelled event page up with a notice, 404s unknown events, and sends a CSP', async () => {
    await request(`${server.base}/api/events?externalId=ki`, { key, method: 'DELETE' });
    try {
      const context = await browser.newContext({ locale: 'fr-CH' });
      const page = await context.newPage();
      const response = await page.goto(`${server.base}/ch/events/${KI_ID}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/annulé par son organisateur/);
      await expect(page.locator('title').textContent()).resolves.toBe(`Annulé\u00a0: ${KI_TITLE}`);
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(ld.eventStatus).toBe('https://schema.org/EventCancelled');
      const headers = response!.headers();
      expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      await page.screenshot({ path: join(SCREENSHOTS, 'cancelled-fr.png'), fullPage: true });
      const missing = await page.goto(`${server.base}/ch/events/no-such-event`);
      expect(missing?.status()).toBe(404);
      await expect(page.locator('h1').textContent()).resolves.toBe('Introuvable');
      await context.close();
    } finally {
      await request(`${server.base}/api/events`, { key, json: { action: 'restore', externalId: 'ki' } });
    }
  });

  it('says when a search finds nothing in the chosen country, what would widen it, and the near misses apart', async () => {
    const res = await request(`${server.base}/at?q=voxxed&hl=en`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Nothing matches all of this.');
    expect(res.text).toMatch(/Without “in Austria”: \d+ events?/);
    expect(res.text).toContain('<h2 id="alternatives">Close, but not everything you asked for</h2>');
    expect(res.text).toContain('VoxxedDays Zürich');
    expect(res.text).toContain('Differs: Zürich, Switzerland');
  });

  it('never leaves a country page with nothing upcoming empty: the other countries’ next events, apart', async () => {
    const res = await request(`${sparse.base}/at?hl=de`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Zurzeit stehen in Österreich keine Veranstaltungen an.');
    expect(res.text).toContain('<h2 id="alternatives">Knapp daneben</h2>');
    expect(res.text).toContain('Online Kubernetes Clinic');
    expect(res.text).toContain('Anders: online, ausgerichtet in Deutschland');
    expect(res.text).toContain('Basel Rust Evening');
    expect(res.text).toContain('Anders: Basel, Schweiz');
    expect(res.text).toContain('Cloud Native Night');
    // Each event is offered once.
    expect(res.text.match(/Online Kubernetes Clinic/g)).toHaveLength(1);
  });

  it('shows invalid filters as a message in the reader language, not an error page', async () => {
    const res = await request(`${server.base}/?city=Atlantis&hl=fr`);
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      'Ville\u00a0: «\u00a0Atlantis\u00a0» n’est pas une ville que nous connaissons en Suisse, en Allemagne et en Autriche.',
    );
  });

  describe('every page in every language: axe-core finds nothing serious, and a screenshot for review', () => {
    const pages: [name: string, url: (lang: string) => string, status: number][] = [
      ['home', (lang) => `${server.base}/?hl=${lang}`, 200],
      [
        'results',
        (lang) => `${server.base}/?q=${encodeURIComponent('AI meetups in Zürich next week')}&hl=${lang}`,
        200,
      ],
      ['results-by-day', (lang) => `${server.base}/de?hl=${lang}`, 200],
      ['empty', (lang) => `${sparse.base}/at?hl=${lang}`, 200],
      ['empty-search', (lang) => `${server.base}/at?q=voxxed&hl=${lang}`, 200],
      ['event', (lang) => `${server.base}/ch/events/${KI_ID}?hl=${lang}`, 200],
      ['not-found', (lang) => `${server.base}/ch/events/no-such-event?hl=${lang}`, 404],
      ['invalid', (lang) => `${server.base}/?city=Atlantis&hl=${lang}`, 422],
    ];
    let context: BrowserContext;
    beforeAll(async () => {
      // Only here, to inject axe-core: the pages' CSP allows no script at all.
      context = await browser.newContext({ bypassCSP: true, viewport: { width: 1000, height: 800 } });
    });
    afterAll(() => context?.close());

    for (const lang of LANGUAGES) {
      it(`in ${lang}`, async () => {
        const page = await context.newPage();
        for (const [name, url, status] of pages) {
          const response = await page.goto(url(lang));
          expect(response?.status(), `${name} ${lang}`).toBe(status);
          await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
          await page.screenshot({ path: join(SCREENSHOTS, `${name}-${lang}.png`), fullPage: true });
          expect(await seriousViolations(page), `${name} ${lang}`).toEqual([]);
        }
        await page.close();
      });
    }
  });
});
